import { Injectable, type OnModuleInit } from '@nestjs/common';
import type { EventIdentity, EventPayloads, NormalisedEvent } from '@app/contracts';
import { GroupStoreRepository, type GroupMetadataPatch } from '@app/database';
import { StoreProjector, type StoreProjection } from '../store/store-projector';

/** Keeps stored group metadata current from the `group` events the network reports between full reads. */
@Injectable()
export class GroupMetadataProjection implements StoreProjection, OnModuleInit {
  constructor(
    private readonly projector: StoreProjector,
    private readonly groups: GroupStoreRepository,
  ) {}

  onModuleInit(): void {
    this.projector.register(this);
  }

  async apply(instanceId: string, event: NormalisedEvent): Promise<void> {
    if (event.eventType !== 'group') return;
    const data = event.data;
    if (data.delete || leftByThisAccount(data)) return this.groups.remove(instanceId, data.id);
    const patch: GroupMetadataPatch = {};
    if (data.name) patch.name = data.name.name;
    if (data.description) patch.description = data.description.topic === '' ? null : data.description.topic;
    if (data.locked) patch.locked = data.locked.isLocked;
    if (data.announce) patch.announce = data.announce.isAnnounce;
    if (data.membershipApproval) patch.joinApproval = data.membershipApproval.isRequired;
    if (data.join) patch.join = data.join.map(person);
    if (data.leave) patch.leave = data.leave.map((who) => who.id);
    const roles = [
      ...(data.promote ?? []).map((who) => ({ jid: who.id, role: 'admin' as const })),
      ...(data.demote ?? []).map((who) => ({ jid: who.id, role: 'member' as const })),
    ];
    if (roles.length > 0) patch.roles = roles;
    if (Object.keys(patch).length > 0) await this.groups.patch(instanceId, data.id, patch);
  }
}

function leftByThisAccount(data: EventPayloads['group']): boolean {
  return data.sender?.isMe === true && (data.leave ?? []).some((who) => who.id === data.sender?.id);
}

function person(who: EventIdentity): { jid: string; lid?: string } {
  return who.lid && who.lid !== who.id ? { jid: who.id, lid: who.lid } : { jid: who.id };
}
