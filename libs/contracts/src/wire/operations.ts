import { z } from 'zod';
import { CHAT_PRESENCE_STATES } from '../event-payloads';
import { PRESENCES, PRIVACY_SETTINGS, type NetworkOperations, type OperationName } from '../operations';
import { str, bool, num, none } from './primitives';

/**
 * Runtime schemas of every network operation's arguments (read by the worker) and result (read by the API). The table
 * is typed by `NetworkOperations`, so an operation added without schemas, or a schema whose output is not the
 * operation's type, does not compile.
 */
type OperationSchemas = {
  [N in OperationName]: { args: z.ZodType<NetworkOperations[N]['args']>; result: z.ZodType<NetworkOperations[N]['result']> };
};

const ephemeralTimer = z.enum(['off', '24h', '7d', '90d']);
const chat = z.object({ chatId: str });
const group = z.object({ groupId: str });
const community = z.object({ communityId: str });
const code = z.object({ code: str });
const pictureId = z.object({ pictureId: str });

const groupInfo = z.object({
  jid: str,
  name: str,
  description: str.optional(),
  ownerJid: str.optional(),
  createdAt: str.optional(),
  locked: bool,
  announce: bool,
  joinApproval: bool,
  memberAddMode: z.enum(['admin_add', 'all_member_add']),
  ephemeralSeconds: num,
  isCommunity: bool,
  parentJid: str.optional(),
  isAnnouncement: bool,
  participants: z.array(z.object({ jid: str, lid: str.optional(), role: z.enum(['member', 'admin', 'superadmin']) })),
});

const communityIdentity = z.object({ id: str, lid: str.optional(), phone: str.optional() });
const communityInfo = z.object({
  communityId: str,
  owner: communityIdentity.optional(),
  name: str,
  created: str,
  description: str.optional(),
  isLocked: bool,
  communityApprovalMode: z.enum(['on', 'off']),
  participants: z.array(communityIdentity.extend({ isAdmin: bool, isSuperAdmin: bool })),
});

const newsletterInfo = z.object({
  id: str,
  name: str,
  description: str,
  subscriberCount: num,
  verificationState: z.enum(['VERIFIED', 'UNVERIFIED']),
  state: z.enum(['ACTIVE', 'SUSPENDED']),
  createdAt: str,
  inviteCode: str.optional(),
  pictureUrl: str.optional(),
  role: str.optional(),
  mute: z.enum(['MUTED', 'UNMUTED']).optional(),
});

const privacySettings = z.object(Object.fromEntries(PRIVACY_SETTINGS.map((setting) => [setting, str]))) as unknown as z.ZodType<
  Record<(typeof PRIVACY_SETTINGS)[number], string>
>;

const statusMedia = z.union([z.object({ data: str }), z.object({ url: str })]);
const statusPost = z.discriminatedUnion('kind', [
  z.object({ kind: z.literal('text'), text: str }),
  z.object({ kind: z.enum(['image', 'video']), media: statusMedia, mimeType: str.optional(), caption: str.optional() }),
]);

export const OPERATION_SCHEMAS: OperationSchemas = {
  'calls.reject': { args: z.object({ callId: str, callerId: str }), result: none },

  'chats.archive': { args: chat.extend({ archived: bool }), result: none },
  'chats.mute': { args: chat.extend({ muted: bool, until: str.optional() }), result: none },
  'chats.pin': { args: chat.extend({ pinned: bool }), result: none },
  'chats.read': { args: chat.extend({ read: bool }), result: none },
  'chats.ephemeral': { args: chat.extend({ expiration: ephemeralTimer }), result: none },
  'chats.delete': { args: chat, result: none },
  'chats.clear': { args: chat, result: none },
  'chats.presence': { args: chat.extend({ state: z.enum(CHAT_PRESENCE_STATES) }), result: none },
  'chats.subscribePresence': { args: chat, result: none },
  'chats.requestHistory': { args: chat.extend({ lastMessageId: str, lastMessageSenderId: str, count: num }), result: none },
  'chats.picture': { args: chat, result: z.object({ pictureId: str, pictureUrl: str }) },
  'chats.businessProfile': {
    args: chat,
    result: z.object({
      id: str,
      description: str.optional(),
      address: str.optional(),
      email: str.optional(),
      website: str.optional(),
      latitude: num.optional(),
      longitude: num.optional(),
      memberSince: str.optional(),
      categories: z.array(z.object({ id: str, name: str })).optional(),
      businessHours: z.array(z.object({ dayOfWeek: str, mode: str, openTime: str.optional(), closeTime: str.optional() })).optional(),
      businessHoursTimeZone: str.optional(),
    }),
  },

  'contacts.save': { args: z.object({ jid: str, fullName: str, firstName: str.optional() }), result: none },
  'contacts.sync': {
    args: none,
    result: z.object({ contacts: z.array(z.object({ jid: str, lid: str.optional(), fullName: str, firstName: str.optional() })) }),
  },
  'contacts.blocklist': { args: none, result: z.object({ blocked: z.array(z.object({ jid: str, lid: str.optional() })) }) },
  'contacts.block': { args: z.object({ jid: str, blocked: bool }), result: none },

  'groups.create': { args: z.object({ name: str, participants: z.array(str) }), result: groupInfo },
  'groups.list': { args: none, result: z.array(groupInfo) },
  'groups.info': { args: group, result: groupInfo },
  'groups.participants': {
    args: group.extend({ participants: z.array(str), action: z.enum(['add', 'remove', 'promote', 'demote']) }),
    result: groupInfo,
  },
  'groups.inviteCode': { args: group, result: code },
  'groups.revokeInvite': { args: group, result: code },
  'groups.setName': { args: group.extend({ name: str }), result: none },
  'groups.setDescription': { args: group.extend({ description: str }), result: none },
  'groups.setPicture': { args: group.extend({ image: str }), result: pictureId },
  'groups.setting': { args: group.extend({ setting: z.enum(['announce', 'locked']), enabled: bool }), result: none },
  'groups.joinApproval': { args: group.extend({ enabled: bool }), result: none },
  'groups.memberAddMode': { args: group.extend({ onlyAdminAdd: bool }), result: none },
  'groups.leave': { args: group, result: none },
  'groups.join': { args: code, result: z.object({ groupId: str, group: groupInfo.optional() }) },
  'groups.joinInvite': {
    args: group.extend({ inviterId: str, code: str, expiration: num.optional() }),
    result: z.object({ group: groupInfo }),
  },
  'groups.inviteInfo': { args: code, result: groupInfo },
  'groups.requests': { args: group, result: z.array(z.object({ jid: str, lid: str.optional(), requestedAt: str })) },
  'groups.updateRequests': {
    args: group.extend({ participants: z.array(str), action: z.enum(['approve', 'reject']) }),
    result: none,
  },

  'communities.create': {
    args: z.object({ name: str, participants: z.array(str), approvalMode: z.enum(['on', 'off']) }),
    result: communityInfo,
  },
  'communities.list': { args: none, result: z.array(communityInfo) },
  'communities.info': { args: community, result: communityInfo },
  'communities.leave': { args: community, result: none },
  'communities.name': { args: community.extend({ name: str }), result: none },
  'communities.description': { args: community.extend({ description: str }), result: none },
  'communities.picture': { args: community.extend({ image: str }), result: pictureId },
  'communities.locked': { args: community.extend({ locked: bool }), result: none },
  'communities.participants': {
    args: community.extend({ participants: z.array(str), action: z.enum(['promote', 'demote']) }),
    result: none,
  },
  'communities.inviteCode': { args: community, result: code },
  'communities.revokeInvite': { args: community, result: code },
  'communities.subGroups': {
    args: community,
    result: z.array(z.object({ groupId: str, name: str, nameSetAt: str, isAnnouncementGroup: bool })),
  },
  'communities.createGroup': { args: community.extend({ name: str, participants: z.array(str) }), result: z.object({ id: str }) },
  'communities.linkGroup': { args: community.extend({ groupId: str }), result: none },
  'communities.unlinkGroup': { args: community.extend({ groupId: str }), result: none },

  'users.ownProfile': {
    args: none,
    result: z.object({
      jid: str,
      device: num,
      pushName: str.optional(),
      status: str.optional(),
      pictureId: str.optional(),
      businessName: str.optional(),
    }),
  },
  'users.updateProfile': { args: z.object({ name: str.optional(), status: str.optional(), picture: str.optional() }), result: none },
  'users.setPresence': { args: z.object({ presence: z.enum(PRESENCES) }), result: none },
  'users.privacy': { args: none, result: privacySettings },
  'users.setPrivacy': { args: z.object({ setting: z.enum(PRIVACY_SETTINGS), value: str }), result: privacySettings },
  'users.check': {
    args: z.object({ phones: z.array(str) }),
    result: z.object({ results: z.array(z.object({ phone: str, exists: bool, jid: str.optional() })) }),
  },
  'users.profile': {
    args: z.object({ jid: str }),
    result: z.object({
      jid: str,
      lid: str.optional(),
      pushName: str.optional(),
      status: str.optional(),
      pictureId: str.optional(),
      pictureUrl: str.optional(),
      businessName: str.optional(),
      isVerified: bool,
    }),
  },

  'media.download': { args: z.object({ mediaId: str }), result: z.object({ mimeType: str, data: str, filename: str.optional() }) },

  'newsletters.followed': { args: none, result: z.object({ newsletters: z.array(newsletterInfo) }) },
  'newsletters.create': { args: z.object({ name: str, description: str.optional(), picture: str.optional() }), result: newsletterInfo },
  'newsletters.metadata': { args: z.object({ by: z.enum(['invite', 'jid']), key: str }), result: newsletterInfo },
  'newsletters.subscription': { args: z.object({ id: str, subscribed: bool }), result: none },
  'newsletters.mute': { args: z.object({ id: str, muted: bool }), result: none },

  'status.privacy': {
    args: none,
    result: z.object({
      settings: z.array(z.object({ type: z.enum(['contacts', 'blacklist', 'whitelist']), list: z.array(str), isDefault: bool })),
    }),
  },
  'status.post': { args: z.object({ id: str, post: statusPost }), result: z.object({ audience: z.array(str) }) },
  'status.delete': { args: z.object({ id: str }), result: none },
};
