import { Injectable } from '@nestjs/common';
import { AppError, type GroupInfo } from '@app/contracts';
import { SandboxRepository, type SandboxGroupRecord } from '@app/database';
import { SandboxPeople } from '../sandbox-people';
import { groupInfo } from './group-info';

/** Which groups this account may see and what it may change in them, as the network decides. */
@Injectable()
export class SandboxGroupAccess {
  constructor(
    private readonly people: SandboxPeople,
    private readonly store: SandboxRepository,
  ) {}

  /** A group this account is in; others are unknown to it (404), as the network answers non-members. */
  async memberOf(instanceId: string, groupId: string, self: string): Promise<SandboxGroupRecord> {
    const group = await this.store.group(instanceId, groupId);
    if (!group || !group.participants.some((member) => member.jid === self)) throw new AppError('not_found');
    return group;
  }

  /** A group this account administers; a plain member is refused (403) and nothing changes. */
  async adminOf(instanceId: string, groupId: string, self: string): Promise<SandboxGroupRecord> {
    const group = await this.memberOf(instanceId, groupId, self);
    if (!isAdmin(group, self)) throw AppError.forbidden('not a group admin');
    return group;
  }

  /** Name, description and picture: any member, unless the group is locked (then admins only). */
  async infoEditorOf(instanceId: string, groupId: string, self: string): Promise<SandboxGroupRecord> {
    const group = await this.memberOf(instanceId, groupId, self);
    if (group.locked && !isAdmin(group, self)) throw AppError.forbidden('not a group admin (group info is locked)');
    return group;
  }

  async info(instanceId: string, jid: string): Promise<GroupInfo> {
    const group = await this.store.group(instanceId, jid);
    if (!group) throw new AppError('not_found');
    return groupInfo(group, await this.people.partyResolver(instanceId));
  }
}

export function isAdmin(group: SandboxGroupRecord, jid: string): boolean {
  const role = group.participants.find((member) => member.jid === jid)?.role;
  return role === 'admin' || role === 'superadmin';
}
