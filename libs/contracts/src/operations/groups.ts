import type { Operation } from './common';

export type GroupRole = 'member' | 'admin' | 'superadmin';

export interface GroupMember {
  jid: string;
  lid?: string;
  role: GroupRole;
}

/** A group as the network describes it (Baileys `GroupMetadata`), with times as ISO strings. */
export interface GroupInfo {
  jid: string;
  name: string;
  description?: string;
  /** Who created the group; left out when the network does not say. */
  ownerJid?: string;
  createdAt?: string;
  locked: boolean;
  announce: boolean;
  joinApproval: boolean;
  /** `admin_add` (only admins add members) or `all_member_add`. */
  memberAddMode: 'admin_add' | 'all_member_add';
  ephemeralSeconds: number;
  isCommunity: boolean;
  /** For a community's groups: the community. */
  parentJid?: string;
  isAnnouncement: boolean;
  participants: GroupMember[];
}

export type ParticipantAction = 'add' | 'remove' | 'promote' | 'demote';
export type GroupSetting = 'announce' | 'locked';

export interface JoinRequest {
  jid: string;
  lid?: string;
  requestedAt: string;
}

/** Group operations of the network, each one Baileys call (named in the comment). */
export interface GroupOperations {
  /** groupCreate: this account becomes the group's superadmin. */
  'groups.create': Operation<{ name: string; participants: string[] }, GroupInfo>;
  /** groupFetchAllParticipating. */
  'groups.list': Operation<Record<string, never>, GroupInfo[]>;
  /** groupMetadata: only members may read it. */
  'groups.info': Operation<{ groupId: string }, GroupInfo>;
  /** groupParticipantsUpdate; answers the group as it is afterwards. */
  'groups.participants': Operation<{ groupId: string; participants: string[]; action: ParticipantAction }, GroupInfo>;
  /** groupInviteCode. */
  'groups.inviteCode': Operation<{ groupId: string }, { code: string }>;
  /** groupRevokeInvite: the old code stops working. */
  'groups.revokeInvite': Operation<{ groupId: string }, { code: string }>;
  /** groupUpdateSubject. */
  'groups.setName': Operation<{ groupId: string; name: string }>;
  /** groupUpdateDescription; the empty string clears it. */
  'groups.setDescription': Operation<{ groupId: string; description: string }>;
  /** updateProfilePicture on the group JID; `image` is base64 JPEG. */
  'groups.setPicture': Operation<{ groupId: string; image: string }, { pictureId: string }>;
  /** groupSettingUpdate (announcement/not_announcement, locked/unlocked). */
  'groups.setting': Operation<{ groupId: string; setting: GroupSetting; enabled: boolean }>;
  /** groupJoinApprovalMode. */
  'groups.joinApproval': Operation<{ groupId: string; enabled: boolean }>;
  /** groupMemberAddMode. */
  'groups.memberAddMode': Operation<{ groupId: string; onlyAdminAdd: boolean }>;
  /** groupLeave. */
  'groups.leave': Operation<{ groupId: string }>;
  /**
   * groupAcceptInvite (then groupMetadata): `group` is the group joined; left out while the join waits for an
   * admin's approval.
   */
  'groups.join': Operation<{ code: string }, { groupId: string; group?: GroupInfo }>;
  /** groupAcceptInviteV4 (then groupMetadata): an invite one of the group's admins sent in a message. */
  'groups.joinInvite': Operation<{ groupId: string; inviterId: string; code: string; expiration?: number }, { group: GroupInfo }>;
  /** groupGetInviteInfo. */
  'groups.inviteInfo': Operation<{ code: string }, GroupInfo>;
  /** groupRequestParticipantsList. */
  'groups.requests': Operation<{ groupId: string }, JoinRequest[]>;
  /** groupRequestParticipantsUpdate. */
  'groups.updateRequests': Operation<{ groupId: string; participants: string[]; action: 'approve' | 'reject' }>;
}
