import { Injectable } from '@nestjs/common';
import { AppError, type CommunityInfo, type CommunityMember, type CommunitySubGroup } from '@app/contracts';
import { SandboxRepository, type SandboxGroupRecord } from '@app/database';
import { identity, type Party } from '../../events/normalise';

/** A community as the network holds it: its own record, its announcement group and the groups linked to it. */
export interface CommunityView {
  community: SandboxGroupRecord;
  announcement: SandboxGroupRecord;
  linked: SandboxGroupRecord[];
  /** This account's role in the community (its role in the announcement group). */
  selfRole: SandboxGroupRecord['participants'][number]['role'];
}

/** Reads communities the way a member sees them, and enforces who may do what in one. */
@Injectable()
export class SandboxCommunities {
  constructor(private readonly store: SandboxRepository) {}

  /** The community `communityJid` as this account sees it; unknown communities and ones it is not in are not found. */
  async view(instanceId: string, communityJid: string, self: string): Promise<CommunityView> {
    const community = await this.store.group(instanceId, communityJid);
    if (!community || community.kind !== 'community') throw new AppError('not_found');
    const groups = await this.store.groups(instanceId, { parentJid: community.jid });
    const announcement = groups.find((group) => group.kind === 'announcement');
    const selfRole = announcement?.participants.find((participant) => participant.jid === self)?.role;
    if (!announcement || !selfRole) throw new AppError('not_found');
    return { community, announcement, linked: groups.filter((group) => group.kind !== 'announcement'), selfRole };
  }

  /** Every community this account is a member of, oldest first. */
  async joined(instanceId: string, self: string): Promise<CommunityView[]> {
    const announcements = await this.store.groups(instanceId, { member: self });
    const communityJids = announcements.filter((group) => group.kind === 'announcement' && group.parentJid).map((group) => group.parentJid);
    return Promise.all(communityJids.map((jid) => this.view(instanceId, jid as string, self)));
  }

  requireAdmin(view: CommunityView): void {
    if (view.selfRole === 'member') throw AppError.forbidden('not a community admin');
  }

  /** While the community is locked only its admins may change its name, description or picture. */
  requireInfoRights(view: CommunityView): void {
    if (view.community.locked) this.requireAdmin(view);
  }

  info(view: CommunityView, party: (jid: string) => Party): CommunityInfo {
    const { community, announcement } = view;
    const owner = announcement.participants.find((participant) => participant.role === 'superadmin');
    const participants: CommunityMember[] = announcement.participants.map((participant) => ({
      ...identity(party(participant.jid)),
      isAdmin: participant.role !== 'member',
      isSuperAdmin: participant.role === 'superadmin',
    }));
    return {
      communityId: community.jid,
      ...(owner ? { owner: identity(party(owner.jid)) } : {}),
      name: community.name,
      created: community.createdAt.toISOString(),
      ...(community.description ? { description: community.description } : {}),
      isLocked: community.locked,
      communityApprovalMode: community.joinApproval ? 'on' : 'off',
      participants,
    };
  }

  subGroups(view: CommunityView): CommunitySubGroup[] {
    return [view.announcement, ...view.linked].map((group) => ({
      groupId: group.jid,
      name: group.name,
      nameSetAt: group.createdAt.toISOString(),
      isAnnouncementGroup: group.kind === 'announcement',
    }));
  }
}
