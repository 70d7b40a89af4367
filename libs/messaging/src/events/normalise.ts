import type {
  CallEndReason,
  ChatPresenceState,
  EphemeralTimer,
  EventIdentity,
  EventPayloads,
  EventSender,
  EventType,
  GroupEventData,
  MediaDescriptor,
  MessageEventData,
  MessageOutcome,
  NormalisedEvent,
  PinTimer,
  QuotedMessage,
  ReceiptType,
} from '@app/contracts';

/**
 * The one place where what a network driver saw becomes a gateway event. Every driver (sandbox, baileys) builds its
 * events here from driver-neutral inputs, so the payloads are the same whichever network produced them.
 */

/** A person as a driver knows them: a phone-number JID (device part allowed) or a LID, plus the LID when known. */
export interface Party {
  jid: string;
  lid?: string;
}

/** A person acting in an event, and whether that is this instance's own account. */
export interface Actor extends Party {
  isMe: boolean;
}

export type MessageContent =
  | { type: 'text'; text: string; link?: { url: string; title?: string; description?: string; jpegThumbnail?: string } }
  | { type: 'media'; media: MediaDescriptor }
  | { type: 'reaction'; messageId: string; emoji: string }
  | { type: 'contact'; vcard: string }
  | { type: 'contactArray'; vcards: string[] }
  | { type: 'pinInChat'; pinned: boolean; messageId: string; seconds?: number }
  | { type: 'button_reply'; id: string; text?: string }
  | { type: 'list_reply'; id: string; title?: string; description?: string }
  | { type: 'location'; latitude: number; longitude: number; name?: string; address?: string; url?: string }
  | { type: 'buttons'; text: string }
  | { type: 'list'; text: string };

export interface QuotedInput {
  id: string;
  sender?: Actor;
  text?: string;
  isForwarded?: boolean;
}

export interface MessageInput {
  id: string;
  time: Date;
  chatId: string;
  sender: Actor;
  content: MessageContent;
  isForwarded?: boolean;
  viewOnce?: boolean;
  mentions?: string[];
  replyTo?: QuotedInput;
  /** The disappearing-message timer the message carries, in seconds (as the network sends it). */
  ephemeralSeconds?: number;
  edit?: { originalMessageId: string; originalTime?: Date };
}

export type ChatSettingInput =
  | { type: 'mute'; muted: boolean; until?: Date }
  | { type: 'pin'; pinned: boolean }
  | { type: 'read'; read: boolean }
  | { type: 'archive'; archived: boolean }
  | { type: 'ephemeral'; seconds: number; by?: Actor };

/**
 * A group change: the family's group event fields (libs/contracts/src/event-payloads.ts), with people as parties and
 * times as dates.
 */
export interface GroupInput {
  groupId: string;
  by?: Actor;
  at?: Date;
  isCommunity?: boolean;
  communityId?: string;
  isAnnouncementGroup?: boolean;
  joinReason?: string;
  groupType?: string;
  name?: string;
  topic?: string;
  locked?: boolean;
  announce?: boolean;
  join?: Party[];
  leave?: Party[];
  promote?: Party[];
  demote?: Party[];
  link?: GroupEventData['link'];
  unlink?: GroupEventData['unlink'];
  membershipApprovalRequired?: boolean;
  deleteReason?: string;
  suspended?: boolean | null;
}

export type NewsletterInput =
  | { id: string; action: 'join'; name: string; role: string }
  | { id: string; action: 'leave'; role: string }
  | { id: string; action: 'mute'; muted: boolean };

/** History is sent per chat, at most this many messages per event (docs/decisions.md, Family compatibility). */
export const HISTORY_CHUNK = 500;

const EPHEMERAL_TIMERS: Record<number, EphemeralTimer> = { 0: 'off', 86_400: '24h', 604_800: '7d', 7_776_000: '90d' };
const PIN_TIMERS: Record<number, PinTimer> = { 0: 'off', 86_400: '24h', 604_800: '7d', 2_592_000: '30d' };

const USER_JID = /^(\d+)(?::(\d+))?@s\.whatsapp\.net$/;
const LID_JID = /^(\d+)(?::(\d+))?@lid$/;

type EventOf<T extends EventType> = Extract<NormalisedEvent, { eventType: T }>;

function event<T extends EventType>(eventType: T, data: EventPayloads[T]): EventOf<T> {
  return { eventType, data } as EventOf<T>;
}

/** Keeps only the fields that have a value, so optional fields are absent rather than undefined. */
function present<T extends object>(fields: T): T {
  return Object.fromEntries(Object.entries(fields).filter(([, value]) => value !== undefined)) as T;
}

function iso(time: Date): string {
  return time.toISOString();
}

function ephemeralTimer(seconds: number | undefined): EphemeralTimer | undefined {
  return seconds === undefined ? undefined : EPHEMERAL_TIMERS[seconds];
}

/** `id` prefers the phone-number JID and falls back to the LID; `device` only when non-zero. */
export function identity(party: Party): EventIdentity {
  const user = USER_JID.exec(party.jid);
  const lid = party.lid ? LID_JID.exec(party.lid) : LID_JID.exec(party.jid);
  const lidJid = lid ? `${lid[1]}@lid` : undefined;
  if (user) {
    const device = Number(user[2] ?? 0);
    return present({ id: `${user[1]}@s.whatsapp.net`, lid: lidJid, phone: user[1], device: device || undefined });
  }
  if (lid && LID_JID.test(party.jid)) {
    const device = Number(lid[2] ?? 0);
    return present({ id: lidJid as string, lid: lidJid, device: device || undefined });
  }
  return present({ id: party.jid, lid: lidJid });
}

export function sender(actor: Actor): EventSender {
  return { ...identity(actor), isMe: actor.isMe };
}

function isGroupChat(chatId: string): boolean {
  return chatId.endsWith('@g.us');
}

function isStatusChat(chatId: string): boolean {
  return chatId === 'status@broadcast';
}

function quoted(input: QuotedInput): QuotedMessage {
  return present({
    id: input.id,
    sender: input.sender ? sender(input.sender) : undefined,
    isForwarded: input.isForwarded || undefined,
    text: input.text,
  });
}

function content(input: MessageContent): Partial<MessageEventData> & Pick<MessageEventData, 'type'> {
  switch (input.type) {
    case 'text':
      return present({
        type: 'text' as const,
        text: input.text,
        extendedText: input.link
          ? present({
              matchedText: input.link.url,
              title: input.link.title,
              description: input.link.description,
              jpegThumbnail: input.link.jpegThumbnail,
            })
          : undefined,
      });
    case 'media':
      return { type: 'media', media: present({ ...input.media }) };
    case 'reaction':
      return { type: 'reaction', reaction: { messageId: input.messageId, emoji: input.emoji } };
    case 'contact':
      return { type: 'contact', contact: input.vcard };
    case 'contactArray':
      return { type: 'contactArray', contactArray: input.vcards };
    case 'pinInChat':
      return {
        type: 'pinInChat',
        pin: present({
          pinned: input.pinned,
          messageId: input.messageId,
          expiration: input.seconds === undefined ? undefined : PIN_TIMERS[input.seconds],
        }),
      };
    case 'button_reply':
      // docs/decisions.md, Messages: `text` repeats the label for integrations that read only text.
      return present({ type: 'button_reply' as const, text: input.text, buttonReply: present({ id: input.id, text: input.text }) });
    case 'list_reply':
      return present({
        type: 'list_reply' as const,
        text: input.title,
        listReply: present({ id: input.id, title: input.title, description: input.description }),
      });
    case 'location':
      return {
        type: 'location',
        location: present({
          latitude: input.latitude,
          longitude: input.longitude,
          name: input.name,
          address: input.address,
          url: input.url,
        }),
      };
    case 'buttons':
    case 'list':
      return { type: input.type, text: input.text };
  }
}

/** The eventData of a message event; also the items of `message_history_sync`. */
export function messageData(input: MessageInput): MessageEventData {
  return present({
    id: input.id,
    time: iso(input.time),
    chatId: input.chatId,
    sender: sender(input.sender),
    isGroup: isGroupChat(input.chatId),
    isStatus: isStatusChat(input.chatId),
    isForwarded: input.isForwarded || undefined,
    viewOnce: input.viewOnce || undefined,
    ...content(input.content),
    mentions: input.mentions?.length ? input.mentions : undefined,
    replyTo: input.replyTo ? quoted(input.replyTo) : undefined,
    ephemeralExpiration: ephemeralTimer(input.ephemeralSeconds),
    isEdit: input.edit ? true : undefined,
    edit: input.edit
      ? present({
          originalMessageTime: input.edit.originalTime ? iso(input.edit.originalTime) : undefined,
          originalMessageId: input.edit.originalMessageId,
        })
      : undefined,
  });
}

function chatSettingData(chatId: string, setting: ChatSettingInput): EventPayloads['chat_setting'] {
  switch (setting.type) {
    case 'mute':
      return {
        id: chatId,
        settingType: 'mute',
        mute: present({ isMuted: setting.muted, muteEndTime: setting.muted && setting.until ? iso(setting.until) : undefined }),
      };
    case 'pin':
      return { id: chatId, settingType: 'pin', pin: { isPinned: setting.pinned } };
    case 'read':
      return { id: chatId, settingType: 'read', read: { isRead: setting.read } };
    case 'archive':
      return { id: chatId, settingType: 'archive', archive: { isArchived: setting.archived } };
    case 'ephemeral':
      return {
        id: chatId,
        settingType: 'ephemeral',
        ephemeral: present({
          expiration: ephemeralTimer(setting.seconds) ?? 'off',
          sender: setting.by ? sender(setting.by) : undefined,
        }),
      };
  }
}

function people(parties: Party[] | undefined): EventIdentity[] | undefined {
  return parties?.map(identity);
}

function groupData(input: GroupInput): GroupEventData {
  return present({
    id: input.groupId,
    sender: input.by ? sender(input.by) : undefined,
    timestamp: input.at ? iso(input.at) : undefined,
    isCommunity: input.isCommunity,
    communityId: input.communityId,
    isAnnouncementGroup: input.isAnnouncementGroup,
    joinReason: input.joinReason,
    groupType: input.groupType,
    name: input.name !== undefined ? { name: input.name } : undefined,
    description: input.topic !== undefined ? { topic: input.topic } : undefined,
    locked: input.locked !== undefined ? { isLocked: input.locked } : undefined,
    announce: input.announce !== undefined ? { isAnnounce: input.announce } : undefined,
    join: people(input.join),
    leave: people(input.leave),
    promote: people(input.promote),
    demote: people(input.demote),
    link: input.link,
    unlink: input.unlink,
    membershipApproval: input.membershipApprovalRequired !== undefined ? { isRequired: input.membershipApprovalRequired } : undefined,
    delete: input.deleteReason !== undefined ? { reason: input.deleteReason } : undefined,
    suspended: input.suspended,
  });
}

function newsletterData(input: NewsletterInput): EventPayloads['newsletter'] {
  switch (input.action) {
    case 'join':
      return { id: input.id, action: 'join', name: input.name, role: input.role };
    case 'leave':
      return { id: input.id, action: 'leave', role: input.role };
    case 'mute':
      return { id: input.id, action: 'mute', mute: input.muted ? 'MUTED' : 'UNMUTED' };
  }
}

/** Builders, one per event type. */
export const normalise = {
  loggedIn: (input: { deviceId: string }) => event('logged_in', { deviceId: input.deviceId }),

  /** `reason`: `user_logged_out` (from the phone or the network), `api_logout`, `instance_deleted`, or the network's own. */
  loggedOut: (input: { reason: string }) => event('logged_out', { reason: input.reason }),

  loginError: (input: { deviceId?: string; error: string }) => event('login_error', { id: input.deviceId ?? '', error: input.error }),

  initialSyncFinished: () => event('initial_sync_finished', {}),

  message: (input: MessageInput) => event('message', messageData(input)),

  /** The instance's sends paused after repeated restriction refusals, or resumed after a probe send was taken. */
  instanceSending: (input: { state: 'paused' | 'resumed'; code?: number; refusals?: number; probeAt?: Date; reason: string }) =>
    event(
      'instance_sending',
      present({
        state: input.state,
        code: input.code,
        refusals: input.refusals,
        probeAt: input.probeAt ? iso(input.probeAt) : undefined,
        reason: input.reason,
      }),
    ),

  /** The outbound proxy failed (with the reason and when the next attempt is due), or the link opened through it again. */
  instanceConnection: (input: {
    state: 'failed' | 'restored';
    reason?: 'proxy_unreachable' | 'proxy_auth_failed' | 'proxy_refused';
    detail?: string;
    retryAt?: Date;
  }) =>
    event(
      'instance_connection',
      present({ state: input.state, reason: input.reason, detail: input.detail, retryAt: input.retryAt ? iso(input.retryAt) : undefined }),
    ),

  messageStatus: (input: { id: string; chatId: string; status: MessageOutcome; error?: string; code?: number }) =>
    event('message_status', present({ id: input.id, chatId: input.chatId, status: input.status, error: input.error, code: input.code })),

  /** `reader` read (or received) the messages; `messageSender` wrote them. */
  messageRead: (input: {
    chatId: string;
    reader: Actor;
    messageSender?: Actor;
    messageIds: string[];
    time: Date;
    receiptType: ReceiptType;
  }) =>
    event(
      'message_read',
      present({
        chatId: input.chatId,
        sender: sender(input.reader),
        messageSender: input.messageSender ? sender(input.messageSender) : undefined,
        isGroup: isGroupChat(input.chatId),
        messageIds: input.messageIds,
        time: iso(input.time),
        receiptType: input.receiptType,
      }),
    ),

  /** `sender` wrote the deleted message; `forEveryone` false means deleted only in this account's view. */
  messageDelete: (input: { id: string; chatId: string; sender: Actor; time: Date; forEveryone: boolean }) =>
    event('message_delete', {
      id: input.id,
      sender: sender(input.sender),
      chatId: input.chatId,
      time: iso(input.time),
      isDeletedForAll: input.forEveryone,
      isDeletedForMe: !input.forEveryone,
      isStatus: isStatusChat(input.chatId),
    }),

  /** A message that could not be decrypted and never arrived decryptable (`attempts` copies failed). */
  messageUndecryptable: (input: { id: string; chatId: string; sender: Actor; time: Date; reason: string; attempts: number }) =>
    event('message_undecryptable', {
      id: input.id,
      chatId: input.chatId,
      sender: sender(input.sender),
      isGroup: isGroupChat(input.chatId),
      time: iso(input.time),
      reason: input.reason,
      attempts: input.attempts,
    }),

  /** `sender` wrote the starred message. */
  messageStar: (input: { id: string; chatId: string; sender: Actor; time: Date; starred: boolean }) =>
    event('message_star', {
      id: input.id,
      chatId: input.chatId,
      sender: sender(input.sender),
      time: iso(input.time),
      isStarred: input.starred,
    }),

  /** One event per chat, in the order the chats first appear, with at most HISTORY_CHUNK messages each. */
  messageHistorySync: (messages: MessageInput[]) => {
    const chats = new Map<string, MessageEventData[]>();
    for (const message of messages) {
      const list = chats.get(message.chatId) ?? [];
      list.push(messageData(message));
      chats.set(message.chatId, list);
    }
    return [...chats].flatMap(([chatId, items]) =>
      Array.from({ length: Math.ceil(items.length / HISTORY_CHUNK) }, (_, index) =>
        event('message_history_sync', { chatId, messages: items.slice(index * HISTORY_CHUNK, (index + 1) * HISTORY_CHUNK) }),
      ),
    );
  },

  chatSetting: (input: { chatId: string; setting: ChatSettingInput }) =>
    event('chat_setting', chatSettingData(input.chatId, input.setting)),

  chatPresence: (input: { chatId: string; sender: Actor; state: ChatPresenceState }) =>
    event('chat_presence', { id: input.chatId, sender: sender(input.sender), state: input.state }),

  chatPushName: (input: { user: Party; pushName: string }) =>
    event('chat_push_name', { user: identity(input.user), pushName: input.pushName }),

  chatStatus: (input: { user: Party; status: string }) => event('chat_status', { user: identity(input.user), status: input.status }),

  /** `chatId` is the user or group whose picture changed; `sender` changed it. */
  chatPicture: (input: { chatId: string; sender: Actor; pictureId: string }) =>
    event('chat_picture', { id: input.chatId, sender: sender(input.sender), pictureId: input.pictureId }),

  contact: (input: { contact: Party; fullName: string; inPhoneAddressBook: boolean }) =>
    event('contact', { contact: identity(input.contact), fullName: input.fullName, inPhoneAddressBook: input.inPhoneAddressBook }),

  group: (input: GroupInput) => event('group', groupData(input)),

  newsletter: (input: NewsletterInput) => event('newsletter', newsletterData(input)),

  userPresence: (input: { user: Party; available: boolean; lastSeen?: Date }) =>
    event(
      'user_presence',
      present({
        user: identity(input.user),
        status: input.available ? ('available' as const) : ('unavailable' as const),
        lastSeen: input.lastSeen ? iso(input.lastSeen) : undefined,
      }),
    ),

  /** `chatId`: the group of a group call; the caller's own chat otherwise. */
  callOffer: (input: { id: string; caller: Party; chatId?: string; time: Date; isVideo: boolean }) => {
    const caller = identity(input.caller);
    const chatId = input.chatId ?? caller.id;
    return event('call_offer', {
      id: input.id,
      caller,
      chatId,
      isGroup: isGroupChat(chatId),
      time: iso(input.time),
      isVideo: input.isVideo,
    });
  },

  callAccept: (input: { id: string; caller: Party; time: Date }) =>
    event('call_accept', { id: input.id, caller: identity(input.caller), time: iso(input.time) }),

  callTerminate: (input: { id: string; caller: Party; time: Date; reason: CallEndReason }) =>
    event('call_terminate', { id: input.id, caller: identity(input.caller), time: iso(input.time), reason: input.reason }),
};
