import { Injectable } from '@nestjs/common';
import { SandboxRepository } from '@app/database';

/**
 * Community membership follows sub-group membership (contract, Communities rule 3): the community's members are the
 * members of its announcement group, and that group holds exactly the people in at least one of the community's
 * other groups. Community admins stay even when they are in no sub-group.
 */
@Injectable()
export class SandboxCommunityMembership {
  constructor(private readonly store: SandboxRepository) {}

  /** Brings the community's membership in line with its sub-groups; answers who joined and who left. */
  async reconcile(instanceId: string, communityJid: string): Promise<{ announcementJid?: string; joined: string[]; left: string[] }> {
    const groups = await this.store.groups(instanceId, { parentJid: communityJid });
    const announcement = groups.find((group) => group.kind === 'announcement');
    if (!announcement) return { joined: [], left: [] };
    const members = new Set(
      groups.filter((group) => group.kind !== 'announcement').flatMap((group) => group.participants.map((p) => p.jid)),
    );
    const current = new Map(announcement.participants.map((participant) => [participant.jid, participant.role]));
    const joined = [...members].filter((jid) => !current.has(jid)).sort();
    const left = [...current]
      .filter(([jid, role]) => !members.has(jid) && role === 'member')
      .map(([jid]) => jid)
      .sort();
    if (joined.length > 0 || left.length > 0) await this.store.updateGroup(instanceId, announcement.jid, { add: joined, remove: left });
    return { announcementJid: announcement.jid, joined, left };
  }
}
