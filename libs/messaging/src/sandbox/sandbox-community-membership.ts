import { Injectable } from '@nestjs/common';
import { SandboxRepository, type SandboxGroupUpdate } from '@app/database';
import { normalise, type Actor } from '../events/normalise';
import { SandboxLinks } from './sandbox-links';
import { SandboxPeople } from './sandbox-people';

/**
 * Community membership follows sub-group membership (contract, Communities rule 3): the community's members are the
 * members of its announcement group, and that group holds exactly the people in at least one of the community's
 * other groups. Community admins stay even when they are in no sub-group.
 */
@Injectable()
export class SandboxCommunityMembership {
  constructor(
    private readonly store: SandboxRepository,
    private readonly links: SandboxLinks,
    private readonly people: SandboxPeople,
  ) {}

  /**
   * Brings the community's membership in line with its sub-groups; answers who joined and who left. Each change
   * reaches the instance as a `group` event on the community (join, then leave), sent by `by` when given.
   */
  async reconcile(
    instanceId: string,
    communityJid: string,
    by?: Actor,
  ): Promise<{ announcementJid?: string; joined: string[]; left: string[] }> {
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
    if (joined.length === 0 && left.length === 0) return { announcementJid: announcement.jid, joined, left };

    await this.applyToCommunity(instanceId, communityJid, announcement.jid, { add: joined, remove: left });
    const session = this.links.find(instanceId);
    const party = await this.people.partyResolver(instanceId);
    const base = { groupId: communityJid, by, at: new Date() };
    if (joined.length > 0) session?.deliver(normalise.group({ ...base, join: joined.map(party) }));
    if (left.length > 0) session?.deliver(normalise.group({ ...base, leave: left.map(party) }));
    return { announcementJid: announcement.jid, joined, left };
  }

  /** The community's own record mirrors its announcement group's members and roles; both change together. */
  async applyToCommunity(instanceId: string, communityJid: string, announcementJid: string, update: SandboxGroupUpdate): Promise<void> {
    await this.store.updateGroup(instanceId, announcementJid, update);
    const community = await this.store.group(instanceId, communityJid);
    if (!community) return;
    const present = new Set([...community.participants.map((p) => p.jid), ...(update.add ?? [])]);
    await this.store.updateGroup(instanceId, communityJid, {
      ...update,
      roles: update.roles?.filter((change) => present.has(change.jid)),
    });
  }
}
