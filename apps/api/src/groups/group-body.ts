import type { GroupInfo, JoinRequest } from '@app/contracts';
import { GROUP_INVITE_LINK_PREFIX } from '../common/validators';
import type { GroupIdentityDto, GroupInfoDto, JoinRequestDto } from './dto/group.dto';

/** The link that carries an invite code; groups and communities share it. */
export function inviteLink(code: string): string {
  return `${GROUP_INVITE_LINK_PREFIX}${code}`;
}

/** A person named twice (say, as a number and as a JID, both normalised by the DTO) is one participant. */
export function distinctPeople(people: string[]): string[] {
  return [...new Set(people)];
}

export function groupBody(group: GroupInfo): GroupInfoDto {
  const lids = new Map(group.participants.filter((member) => member.lid).map((member) => [member.jid, member.lid as string]));
  const identity = (jid: string): GroupIdentityDto => (lids.has(jid) ? { id: jid, lid: lids.get(jid) } : { id: jid });
  return {
    groupId: group.jid,
    ...(group.ownerJid ? { owner: identity(group.ownerJid) } : {}),
    name: group.name,
    ...(group.createdAt ? { createdAt: group.createdAt } : {}),
    ...(group.description ? { description: group.description } : {}),
    isAnnounce: group.announce,
    isLocked: group.locked,
    isEphemeral: group.ephemeralSeconds > 0,
    ephemeralExpiration: group.ephemeralSeconds,
    participants: group.participants.map((member) => ({
      ...identity(member.jid),
      isAdmin: member.role !== 'member',
      isSuperAdmin: member.role === 'superadmin',
    })),
    ...(group.parentJid ? { communityId: group.parentJid } : {}),
    isAnnouncementGroup: group.isAnnouncement,
    isCommunity: group.isCommunity,
    isJoinApprovalRequired: group.joinApproval,
    memberAddMode: group.memberAddMode,
  };
}

export function joinRequestBody(request: JoinRequest): JoinRequestDto {
  return { user: request.lid ? { id: request.jid, lid: request.lid } : { id: request.jid }, requestedAt: request.requestedAt };
}
