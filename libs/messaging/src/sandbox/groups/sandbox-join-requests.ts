import { Injectable } from '@nestjs/common';
import { AppError, jidKind, normaliseChatId, normaliseUserId, type CommandArgs } from '@app/contracts';
import { SandboxRepository, SandboxWorldRepository } from '@app/database';

const KIND = 'groupJoinRequest';

export interface PendingJoinRequest {
  groupJid: string;
  jid: string;
  requestedAt: string;
}

/** People waiting for an admin to let them into a group that requires approval, as the network keeps them. */
@Injectable()
export class SandboxJoinRequests {
  constructor(
    private readonly world: SandboxWorldRepository,
    private readonly store: SandboxRepository,
  ) {}

  /** A contact opens the group's invite link and asks to join (only groups that require approval keep requests). */
  async ask(instanceId: string, args: CommandArgs<'sandbox.groupJoinRequest'>): Promise<{ id: string }> {
    const groupId = normaliseChatId(args.groupId);
    const group = groupId && jidKind(groupId) === 'group' ? await this.store.group(instanceId, groupId) : null;
    if (!group) throw new AppError('not_found');
    const from = normaliseUserId(args.from);
    if (!from) throw AppError.validation('from must be a user JID or an international number');
    if (!group.joinApproval) throw AppError.validation(`${group.jid} does not require approval to join`);
    if (group.participants.some((member) => member.jid === from)) throw AppError.validation(`from ${from} is already a participant`);
    await this.add(instanceId, group.jid, from);
    return { id: group.jid };
  }

  async add(instanceId: string, groupJid: string, jid: string, at = new Date()): Promise<void> {
    await this.world.putRecord(instanceId, KIND, key(groupJid, jid), { groupJid, jid, requestedAt: at.toISOString() });
  }

  async pending(instanceId: string, groupJid: string): Promise<PendingJoinRequest[]> {
    const records = await this.world.records<PendingJoinRequest>(instanceId, KIND);
    return records
      .map((record) => record.data)
      .filter((request) => request.groupJid === groupJid)
      .sort((a, b) => a.requestedAt.localeCompare(b.requestedAt) || a.jid.localeCompare(b.jid));
  }

  async remove(instanceId: string, groupJid: string, jid: string): Promise<void> {
    await this.world.deleteRecord(instanceId, KIND, key(groupJid, jid));
  }
}

function key(groupJid: string, jid: string): string {
  return `${groupJid} ${jid}`;
}
