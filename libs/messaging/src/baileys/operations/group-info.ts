import type { GroupMetadata, GroupParticipant } from '@whiskeysockets/baileys';
import type { GroupInfo, GroupMember } from '@app/contracts';
import { isoFromSeconds, partyOf } from './jids';

function groupMemberOf(participant: GroupParticipant): GroupMember {
  const party = partyOf(participant.id, participant);
  const role = participant.admin === 'superadmin' ? 'superadmin' : participant.admin === 'admin' ? 'admin' : 'member';
  return { jid: party.jid, ...(party.lid ? { lid: party.lid } : {}), role };
}

/** A group as Baileys' `GroupMetadata` describes it (the creator by phone number where the network says it). */
export function groupInfoOf(metadata: GroupMetadata): GroupInfo {
  const owner = metadata.owner ? partyOf(metadata.owner, { phoneNumber: metadata.ownerPn }).jid : metadata.ownerPn;
  const createdAt = isoFromSeconds(metadata.creation);
  return {
    jid: metadata.id,
    name: metadata.subject ?? '',
    ...(metadata.desc ? { description: metadata.desc } : {}),
    ...(owner ? { ownerJid: owner } : {}),
    ...(createdAt ? { createdAt } : {}),
    locked: metadata.restrict ?? false,
    announce: metadata.announce ?? false,
    joinApproval: metadata.joinApprovalMode ?? false,
    memberAddMode: metadata.memberAddMode ? 'all_member_add' : 'admin_add',
    ephemeralSeconds: metadata.ephemeralDuration ?? 0,
    isCommunity: metadata.isCommunity ?? false,
    ...(metadata.linkedParent ? { parentJid: metadata.linkedParent } : {}),
    isAnnouncement: metadata.isCommunityAnnounce ?? false,
    participants: (metadata.participants ?? []).map(groupMemberOf),
  };
}
