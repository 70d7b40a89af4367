import type { GroupMetadata } from '@whiskeysockets/baileys';
import type { CommunityIdentity, CommunityInfo, CommunitySubGroup } from '@app/contracts';
import { identity, type Party } from '../../events/normalise';
import { childOf, childrenOf, type Node } from './binary-nodes';
import { isoFromSeconds, partyOf } from './jids';

function identityOf(party: Party): CommunityIdentity {
  const { device: _device, ...named } = identity(party);
  return named;
}

/**
 * A community as its parent group's metadata describes it (Baileys' `communityMetadata` cannot read the network's
 * answer in rc14, WhiskeySockets/Baileys#2753, while `groupMetadata` reads the same answer fully). Its members and
 * admins are the parent group's participants as the network lists them.
 */
export function communityInfoOf(metadata: GroupMetadata): CommunityInfo {
  const owner = metadata.owner ?? metadata.ownerPn;
  return {
    communityId: metadata.id,
    ...(owner ? { owner: identityOf(partyOf(owner, { phoneNumber: metadata.ownerPn })) } : {}),
    name: metadata.subject ?? '',
    created: isoFromSeconds(metadata.creation) ?? new Date(0).toISOString(),
    ...(metadata.desc ? { description: metadata.desc } : {}),
    isLocked: metadata.restrict ?? false,
    communityApprovalMode: metadata.joinApprovalMode ? 'on' : 'off',
    participants: (metadata.participants ?? []).map((participant) => ({
      ...identityOf(partyOf(participant.id, participant)),
      isAdmin: participant.admin === 'admin' || participant.admin === 'superadmin',
      isSuperAdmin: participant.admin === 'superadmin',
    })),
  };
}

/**
 * The groups of a community from the network's `sub_groups` answer. Each `<group>` names its subject and when it was
 * set (`s_t`), and the announcement group carries a `<default_sub_group>` child; Baileys'
 * `communityFetchLinkedGroups` sends the same query but drops both, so the answer is read here.
 */
export function subGroupsOf(answer: Node): CommunitySubGroup[] {
  return childrenOf(childOf(answer, 'sub_groups'), 'group').map((group) => {
    const id = group.attrs.jid ?? group.attrs.id ?? '';
    return {
      groupId: id.includes('@') ? id : `${id}@g.us`,
      name: group.attrs.subject ?? '',
      nameSetAt: isoFromSeconds(group.attrs.s_t) ?? isoFromSeconds(group.attrs.creation) ?? new Date(0).toISOString(),
      isAnnouncementGroup: childOf(group, 'default_sub_group') !== undefined,
    };
  });
}
