import type { GroupInfo } from '@app/contracts';
import type { SandboxGroupRecord } from '@app/database';
import type { Party } from '../../events/normalise';

/** A simulated group as the network describes it to a member. */
export function groupInfo(group: SandboxGroupRecord, party: (jid: string) => Party): GroupInfo {
  const owner = group.participants.find((member) => member.role === 'superadmin');
  return {
    jid: group.jid,
    name: group.name,
    ...(group.description ? { description: group.description } : {}),
    ...(owner ? { ownerJid: owner.jid } : {}),
    createdAt: group.createdAt.toISOString(),
    locked: group.locked,
    announce: group.announce,
    joinApproval: group.joinApproval,
    memberAddMode: group.memberAddMode === 'all_member_add' ? 'all_member_add' : 'admin_add',
    ephemeralSeconds: group.ephemeralSeconds,
    isCommunity: group.kind === 'community',
    ...(group.parentJid ? { parentJid: group.parentJid } : {}),
    isAnnouncement: group.kind === 'announcement',
    participants: group.participants.map((member) => {
      const { lid } = party(member.jid);
      return { jid: member.jid, ...(lid ? { lid } : {}), role: member.role };
    }),
  };
}
