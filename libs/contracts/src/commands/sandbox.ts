import type { ChatPresenceState, ChatSettingType, EphemeralTimer, MediaType } from '../event-payloads';
import type { RefusalCode } from '../messages';

export interface SandboxGroupSpec {
  name: string;
  participants: string[];
  admins: string[];
  selfIsAdmin: boolean;
  community: boolean;
}

export interface SandboxMediaSpec {
  mediaType: MediaType;
  mimeType?: string;
  caption?: string;
  fileLength?: number;
  width?: number;
  height?: number;
  duration?: number;
  filename?: string;
  pageCount?: number;
  viewOnce?: boolean;
  /** The file's bytes, base64; stand-in bytes of `fileLength` when left out. */
  data?: string;
}

export const SANDBOX_INBOUND_TYPES = ['text', 'media', 'reaction', 'contact', 'pinInChat', 'button_reply', 'list_reply'] as const;

export interface SandboxInboundSpec {
  from: string;
  chatId?: string;
  type: (typeof SANDBOX_INBOUND_TYPES)[number];
  text?: string;
  replyTo?: string;
  buttonId?: string;
  rowId?: string;
  pushName?: string;
  media?: SandboxMediaSpec;
  /** The message a reaction or pin is about. */
  messageId?: string;
  emoji?: string;
  vcards?: string[];
  pinned?: boolean;
  pinExpiration?: '24h' | '7d' | '30d';
  isForwarded?: boolean;
  mentions?: string[];
}

export interface SandboxContactSpec {
  id: string;
  pushName?: string;
  fullName?: string;
  businessName?: string;
  lid?: string;
}

export type SandboxPresenceState = 'available' | 'unavailable' | ChatPresenceState;

export interface SandboxChatSettingSpec {
  chatId: string;
  settingType: ChatSettingType;
  /** mute: muted; pin: pinned; read: read; archive: archived. */
  enabled?: boolean;
  muteEndTime?: string;
  expiration?: EphemeralTimer;
  /** Who changed the disappearing-message timer; this account when left out. */
  from?: string;
}

export interface SandboxProfileSpec {
  id: string;
  pushName?: string;
  about?: string;
  picture?: boolean;
}

/** A contact's business profile: `name` is the verified business name their messages carry. */
export interface SandboxBusinessProfileSpec {
  id: string;
  name: string;
  description?: string;
  address?: string;
  email?: string;
  website?: string;
  latitude?: number;
  longitude?: number;
  /** Category names; the network numbers them. */
  categories?: string[];
}

export interface SandboxGroupChangeSpec {
  groupId: string;
  by?: string;
  join?: string[];
  leave?: string[];
  promote?: string[];
  demote?: string[];
  name?: string;
  topic?: string;
  locked?: boolean;
  announce?: boolean;
  picture?: boolean;
}

/** Someone registered on the simulated network, with the profile and privacy they chose. */
export interface SandboxUserSpec {
  phone: string;
  lid?: string;
  pushName?: string;
  about?: string;
  /** Whether they set a profile picture. */
  picture?: boolean;
  businessName?: string;
  verified?: boolean;
  /** Whether this account is in their address book (what `contacts` privacy is decided by). */
  savedYou?: boolean;
  /** Who sees their about text (`status`) and picture (`profile`): all, contacts, contact_blacklist or none. */
  privacy?: { status?: string; profile?: string };
}

/** A channel someone else owns, existing on the network (this account does not follow it). */
export interface SandboxChannelSpec {
  name: string;
  description?: string;
  subscriberCount?: number;
  verified?: boolean;
}

/** The sandbox's controls: one name → one argument type → one result type, each carried out by the simulated network. */
export interface SandboxCommands {
  'sandbox.pair': { args: { phone?: string; error?: string }; result: { deviceId: string } };
  'sandbox.connection': { args: { state: 'offline' | 'online' }; result: { online: boolean } };
  'sandbox.logout': { args: Record<string, never>; result: { loggedOut: boolean } };
  'sandbox.contact': { args: SandboxContactSpec; result: { id: string } };
  'sandbox.group': { args: SandboxGroupSpec; result: { id: string } };
  'sandbox.inbound': { args: SandboxInboundSpec; result: { id: string } };
  'sandbox.inboundBatch': { args: { messages: SandboxInboundSpec[] }; result: { ids: string[] } };
  'sandbox.receipt': { args: { messageId: string; status: 'delivered' | 'read' | 'played'; from?: string }; result: { id: string } };
  'sandbox.delete': { args: { messageId: string; forEveryone: boolean }; result: { id: string } };
  'sandbox.edit': { args: { messageId: string; text: string }; result: { id: string } };
  'sandbox.star': { args: { messageId: string; starred: boolean }; result: { id: string } };
  'sandbox.presence': { args: { from: string; state: SandboxPresenceState; chatId?: string }; result: { id: string } };
  'sandbox.chatSetting': { args: SandboxChatSettingSpec; result: { id: string } };
  'sandbox.profile': { args: SandboxProfileSpec; result: { id: string } };
  'sandbox.groupChange': { args: SandboxGroupChangeSpec; result: { id: string } };
  'sandbox.newsletterJoin': { args: { name: string; role: string }; result: { id: string } };
  'sandbox.newsletterLeave': { args: { id: string }; result: { id: string } };
  'sandbox.newsletterMute': { args: { id: string; muted: boolean }; result: { id: string } };
  'sandbox.undecryptable': { args: { from: string; reason: string; attempts: number }; result: { id: string } };
  'sandbox.callOffer': { args: { from: string; video: boolean; groupId?: string }; result: { id: string } };
  'sandbox.callAccept': { args: { id: string }; result: { id: string } };
  'sandbox.callEnd': { args: { id: string; reason: 'ended' | 'rejected' }; result: { id: string } };
  'sandbox.groupJoinRequest': { args: { groupId: string; from: string }; result: { id: string } };
  'sandbox.user': { args: SandboxUserSpec; result: { id: string } };
  'sandbox.businessProfile': { args: SandboxBusinessProfileSpec; result: { id: string } };
  'sandbox.profilePicture': { args: { id: string; hidden: boolean }; result: { id: string; pictureId: string } };
  'sandbox.channel': { args: SandboxChannelSpec; result: { id: string; inviteCode: string } };
  /** The network refuses the instance's messages to a chat with an error-ack code (null: stops), for `times` sends or all. */
  'sandbox.refusal': { args: { chatId: string; code: RefusalCode | null; times?: number }; result: { id: string } };
  /** The link drops right after the network took each of the next `times` (default 1, 0 stops) messages to a chat. */
  'sandbox.linkDrop': { args: { chatId: string; times?: number }; result: { id: string } };
  'sandbox.statusPrivacy': { args: { type: 'contacts' | 'blacklist' | 'whitelist'; list: string[] }; result: { id: string } };
}

export type SandboxCommandName = keyof SandboxCommands;
