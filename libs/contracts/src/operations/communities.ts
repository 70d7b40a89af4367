import type { Operation } from './common';

/** A person as the network names them: phone-number JID preferred, LID as fallback. */
export interface CommunityIdentity {
  id: string;
  lid?: string;
  phone?: string;
}

export interface CommunityMember extends CommunityIdentity {
  isAdmin: boolean;
  isSuperAdmin: boolean;
}

/** A community as its members see it; members and admins are those of its announcement group. */
export interface CommunityInfo {
  communityId: string;
  /** Left out when the community has no owner any more (the creator left). */
  owner?: CommunityIdentity;
  name: string;
  created: string;
  /** Left out when the community has no description. */
  description?: string;
  isLocked: boolean;
  communityApprovalMode: 'on' | 'off';
  participants: CommunityMember[];
}

/** One group linked to a community; the announcement group is listed too. */
export interface CommunitySubGroup {
  groupId: string;
  name: string;
  nameSetAt: string;
  isAnnouncementGroup: boolean;
}

type InCommunity<Args = object> = { communityId: string } & Args;

/**
 * Community operations of the network. Each maps onto one Baileys community call (communityCreate, communityMetadata,
 * communityParticipantsUpdate, communitySettingUpdate, communityLinkGroup, ...), so a real driver implements them 1:1.
 */
export interface CommunityOperations {
  'communities.create': Operation<{ name: string; participants: string[]; approvalMode: 'on' | 'off' }, CommunityInfo>;
  'communities.list': Operation<Record<string, never>, CommunityInfo[]>;
  'communities.info': Operation<InCommunity, CommunityInfo>;
  'communities.leave': Operation<InCommunity>;
  'communities.name': Operation<InCommunity<{ name: string }>>;
  'communities.description': Operation<InCommunity<{ description: string }>>;
  /** `image` is the JPEG, base64-encoded. */
  'communities.picture': Operation<InCommunity<{ image: string }>, { pictureId: string }>;
  'communities.locked': Operation<InCommunity<{ locked: boolean }>>;
  'communities.participants': Operation<InCommunity<{ participants: string[]; action: 'promote' | 'demote' }>>;
  'communities.inviteCode': Operation<InCommunity, { code: string }>;
  'communities.revokeInvite': Operation<InCommunity, { code: string }>;
  'communities.subGroups': Operation<InCommunity, CommunitySubGroup[]>;
  'communities.createGroup': Operation<InCommunity<{ name: string; participants: string[] }>, { id: string }>;
  'communities.linkGroup': Operation<InCommunity<{ groupId: string }>>;
  'communities.unlinkGroup': Operation<InCommunity<{ groupId: string }>>;
}
