import { Injectable } from '@nestjs/common';
import { AppError, type ParticipantAction } from '@app/contracts';
import { SandboxRepository, type SandboxGroupRecord, type SandboxGroupUpdate } from '@app/database';
import { normalise, type Actor } from '../../events/normalise';
import { refuseRemovingSelf } from '../../network-rules';
import { SandboxCommunityMembership } from '../sandbox-community-membership';
import { SandboxPeople } from '../sandbox-people';
import type { OperationContext } from '../operations/operation-handlers';
import { isAdmin } from './sandbox-group-access';

/**
 * Who is in a group and with which role, changed by this account: the network checks the change, applies it, tells
 * every linked device with a `group` event, and keeps the community (if any) holding exactly its sub-groups' members.
 */
@Injectable()
export class SandboxGroupMembership {
  constructor(
    private readonly people: SandboxPeople,
    private readonly store: SandboxRepository,
    private readonly community: SandboxCommunityMembership,
  ) {}

  async change(context: OperationContext, group: SandboxGroupRecord, action: ParticipantAction, people: string[]): Promise<void> {
    const { instanceId, self } = context;
    this.check(group, action, people, self);
    const update: SandboxGroupUpdate =
      action === 'add'
        ? { add: people }
        : action === 'remove'
          ? { remove: people }
          : { roles: people.map((jid) => ({ jid, role: action === 'promote' ? 'admin' : 'member' })) };
    await this.store.updateGroup(instanceId, group.jid, update);
    const by = await this.people.actor(instanceId, self, self);
    const party = await this.people.partyResolver(instanceId);
    const change = { add: 'join', remove: 'leave', promote: 'promote', demote: 'demote' }[action];
    context.session.deliver(normalise.group({ groupId: group.jid, by, at: new Date(), [change]: people.map(party) }));
    if (action === 'add' || action === 'remove') await this.followCommunity(context, group, by);
  }

  /** Admits people whose join requests an admin approved. */
  async admit(context: OperationContext, group: SandboxGroupRecord, people: string[]): Promise<void> {
    const { instanceId, self } = context;
    await this.store.updateGroup(instanceId, group.jid, { add: people });
    const by = await this.people.actor(instanceId, self, self);
    const party = await this.people.partyResolver(instanceId);
    context.session.deliver(normalise.group({ groupId: group.jid, by, at: new Date(), joinReason: 'approval', join: people.map(party) }));
    await this.followCommunity(context, group, by);
  }

  /** After members joined or left one of a community's groups, the community follows (and announces it). */
  async followCommunity(context: OperationContext, group: SandboxGroupRecord, by: Actor): Promise<void> {
    if (!group.parentJid || group.kind === 'announcement') return;
    await this.community.reconcile(context.instanceId, group.parentJid, by);
  }

  private check(group: SandboxGroupRecord, action: ParticipantAction, people: string[], self: string): void {
    const members = new Map(group.participants.map((member) => [member.jid, member.role]));
    const mayAdd = action === 'add' && group.memberAddMode === 'all_member_add';
    if (!mayAdd && !isAdmin(group, self)) throw AppError.forbidden('not a group admin');
    if (action === 'add') {
      const already = people.filter((jid) => members.has(jid));
      if (already.length > 0) throw AppError.validation(`participants already in the group: ${already.join(', ')}`);
      return;
    }
    const outsiders = people.filter((jid) => !members.has(jid));
    if (outsiders.length > 0) throw AppError.validation(`participants not in the group: ${outsiders.join(', ')}`);
    // The creator keeps their place and role: only they could give it up, by leaving.
    const creator = people.find((jid) => members.get(jid) === 'superadmin');
    if (creator && (action === 'remove' || action === 'demote')) throw AppError.forbidden(`${creator} created the group`);
    refuseRemovingSelf(action, people, [self]);
  }
}
