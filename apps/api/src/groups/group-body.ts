import type { GroupInfo, JoinRequest } from '@app/contracts';
import type { GroupIdentityDto, GroupInfoDto, JoinRequestDto } from './dto/group.dto';

const INVITE_PREFIX = 'https://chat.whatsapp.com/';

export function inviteLink(code: string): string {
  return `${INVITE_PREFIX}${code}`;
}

/** A code, or the link that carries it. */
export function inviteCodeOf(value: string): string {
  return value.startsWith(INVITE_PREFIX) ? value.slice(INVITE_PREFIX.length) : value;
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
