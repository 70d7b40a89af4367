import type { EventType } from './events';

/**
 * The `eventData` of every event type, field for field as the contract family's events have them
 * (docs/api.md, Events; docs/decisions.md, Family compatibility).
 * Optional fields are left out when they do not apply, never sent as null or empty.
 */

/** A person: the phone-number JID when known (else the LID), with its parts. */
export type EventIdentity = {
  id: string;
  lid?: string;
  phone?: string;
  /** Only when the event concerns one of the person's devices (non-zero). */
  device?: number;
};

export type EventSender = EventIdentity & { isMe: boolean };

/** Disappearing-message timers. */
export type EphemeralTimer = 'off' | '24h' | '7d' | '90d';
export type PinTimer = 'off' | '24h' | '7d' | '30d';

export const MEDIA_TYPES = ['image', 'video', 'audio', 'voice', 'document', 'sticker'] as const;
export type MediaType = (typeof MEDIA_TYPES)[number];

export type MediaDescriptor = {
  mediaType: MediaType;
  mimeType: string;
  /** What a client passes to download the file. */
  id: string;
  fileLength?: number;
  caption?: string;
  height?: number;
  width?: number;
  jpegThumbnail?: string;
  duration?: number;
  filename?: string;
  pageCount?: number;
  title?: string;
};

/**
 * `type` of a message event: the family's kinds, our interactive replies (docs/decisions.md, Messages), and for
 * messages this instance sent that the family has no kind for: `location`, `buttons`, `list`.
 */
export type MessageEventKind =
  | 'text'
  | 'media'
  | 'reaction'
  | 'contact'
  | 'contactArray'
  | 'pinInChat'
  | 'button_reply'
  | 'list_reply'
  | 'location'
  | 'buttons'
  | 'list';

export type QuotedMessage = { id: string; sender?: EventSender; isForwarded?: boolean; text?: string };

export type MessageEventData = {
  id: string;
  time: string;
  chatId: string;
  sender: EventSender;
  isGroup: boolean;
  isStatus: boolean;
  isForwarded?: boolean;
  viewOnce?: boolean;
  type: MessageEventKind;
  text?: string;
  media?: MediaDescriptor;
  reaction?: { messageId: string; emoji: string };
  contact?: string;
  contactArray?: string[];
  extendedText?: { matchedText?: string; description?: string; title?: string; jpegThumbnail?: string };
  mentions?: string[];
  replyTo?: QuotedMessage;
  ephemeralExpiration?: EphemeralTimer;
  isEdit?: boolean;
  edit?: { originalMessageTime?: string; originalMessageId: string };
  pin?: { pinned: boolean; messageId: string; expiration?: PinTimer };
  buttonReply?: { id: string; text?: string };
  listReply?: { id: string; title?: string; description?: string };
  location?: { latitude: number; longitude: number; name?: string; address?: string; url?: string };
};

export const RECEIPT_TYPES = [
  'delivered',
  'read',
  'played',
  'readSelf',
  'sender',
  'retry',
  'serverError',
  'inactive',
  'historySync',
] as const;
export type ReceiptType = (typeof RECEIPT_TYPES)[number];

export const CHAT_PRESENCE_STATES = ['typing', 'recording', 'paused'] as const;
export type ChatPresenceState = (typeof CHAT_PRESENCE_STATES)[number];

export const CHAT_SETTING_TYPES = ['mute', 'pin', 'read', 'archive', 'ephemeral'] as const;
export type ChatSettingType = (typeof CHAT_SETTING_TYPES)[number];

export const CALL_END_REASONS = ['rejected', 'ended', 'unknown'] as const;
export type CallEndReason = (typeof CALL_END_REASONS)[number];

export type GroupEventData = {
  id: string;
  sender?: EventSender;
  timestamp?: string;
  isCommunity?: boolean;
  communityId?: string;
  isAnnouncementGroup?: boolean;
  joinReason?: string;
  groupType?: string;
  name?: { name: string };
  description?: { topic: string };
  locked?: { isLocked: boolean };
  announce?: { isAnnounce: boolean };
  join?: EventIdentity[];
  leave?: EventIdentity[];
  promote?: EventIdentity[];
  demote?: EventIdentity[];
  link?: {
    type: 'parent_group' | 'sub_group' | 'sibling_group';
    groupId: string;
    groupName?: string;
    isAnnouncementGroup?: boolean;
  };
  unlink?: { type: string; reason: 'unlink_group' | 'delete_parent'; groupId: string };
  membershipApproval?: { isRequired: boolean };
  delete?: { reason: string };
  suspended?: boolean | null;
};

export type ChatSettingEventData = {
  id: string;
  settingType: ChatSettingType;
  mute?: { isMuted: boolean; muteEndTime?: string };
  pin?: { isPinned: boolean };
  read?: { isRead: boolean };
  archive?: { isArchived: boolean };
  ephemeral?: { expiration: EphemeralTimer; sender?: EventSender };
};

/** What became of an accepted send, as `message_status` reports it. */
export type MessageOutcome = 'sent' | 'unconfirmed' | 'failed';

/** eventData per event type. */
export type EventPayloads = {
  logged_in: { deviceId: string };
  logged_out: { reason: string };
  login_error: { id: string; error: string };
  initial_sync_finished: Record<string, never>;
  message: MessageEventData;
  /**
   * `sent`: the network's server acknowledged the stanza. `unconfirmed`: the stanza was written but no ack came (the link
   * dropped, or none within the wait): the message may or may not have reached the network, and it is not sent again;
   * a later ack or the recipient's receipt follows it with `sent`, a late refusal with `failed`. `code`: the network's
   * refusal code when it refused the message with an error ack (463, 479, 421).
   */
  message_status: { id: string; chatId: string; status: MessageOutcome; error?: string; code?: number };
  /**
   * The instance's sends paused (the network kept refusing them as from a restricted account: error acks 463/479) or
   * resumed (a probe send after the cool-down was taken). While paused, accepted messages wait in order.
   */
  instance_sending: {
    state: 'paused' | 'resumed';
    /** paused: the refusal code that paused them, how many refusals in the window, and when one send will probe. */
    code?: number;
    refusals?: number;
    probeAt?: string;
    reason: string;
  };
  /**
   * The instance's outbound proxy failed (`failed`: it cannot be reached, refused the credentials or the tunnel; the
   * instance status carries the same `reason`) or works again (`restored`: the link opened through it). Reported once per
   * change, not per reconnect attempt. `retryAt`: when the next attempt is made (a paired instance); absent when none is.
   */
  instance_connection: {
    state: 'failed' | 'restored';
    reason?: 'proxy_unreachable' | 'proxy_auth_failed' | 'proxy_refused';
    detail?: string;
    retryAt?: string;
  };
  message_read: {
    chatId: string;
    sender: EventSender;
    messageSender?: EventSender;
    isGroup: boolean;
    messageIds: string[];
    time: string;
    receiptType: ReceiptType;
  };
  message_delete: {
    id: string;
    sender: EventSender;
    chatId: string;
    time: string;
    isDeletedForAll: boolean;
    isDeletedForMe: boolean;
    isStatus: boolean;
  };
  message_star: { id: string; chatId: string; sender: EventSender; time: string; isStarred: boolean };
  message_history_sync: { chatId?: string; messages: MessageEventData[] };
  /**
   * A message this instance could not decrypt and did not get again, final after `UNDECRYPTABLE_AFTER_SECONDS` without
   * a decryptable copy (or once the retries are spent). `reason`: the decryption error; `attempts`: copies that failed.
   * A copy that still arrives later is reported as a `message` with the same id.
   */
  message_undecryptable: {
    id: string;
    chatId: string;
    sender: EventSender;
    isGroup: boolean;
    time: string;
    reason: string;
    attempts: number;
  };
  chat_setting: ChatSettingEventData;
  chat_presence: { id: string; sender: EventSender; state: ChatPresenceState };
  chat_push_name: { user: EventIdentity; pushName: string };
  chat_status: { user: EventIdentity; status: string };
  chat_picture: { id: string; sender: EventSender; pictureId: string };
  contact: { contact: EventIdentity; fullName: string; inPhoneAddressBook: boolean };
  group: GroupEventData;
  newsletter: { id: string; action: 'join' | 'leave' | 'mute'; name?: string; role?: string; mute?: string };
  user_presence: { user: EventIdentity; status: 'available' | 'unavailable'; lastSeen?: string };
  call_offer: { id: string; caller: EventIdentity; chatId: string; isGroup: boolean; time: string; isVideo: boolean };
  call_accept: { id: string; caller: EventIdentity; time: string };
  call_terminate: { id: string; caller: EventIdentity; time: string; reason: CallEndReason };
};

/** One event as a driver hands it over: its type and its normalised eventData. */
export type NormalisedEvent = { [T in EventType]: { eventType: T; data: EventPayloads[T] } }[EventType];
