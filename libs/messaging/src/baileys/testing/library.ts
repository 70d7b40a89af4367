import type { ChatModification, proto, UserFacingSocketConfig } from '@whiskeysockets/baileys';
import {
  areJidsSameUser,
  isJidBroadcast,
  isJidGroup,
  isJidNewsletter,
  isJidStatusBroadcast,
  isLidUser,
  isPnUser,
  jidDecode,
  jidNormalizedUser,
} from '@whiskeysockets/baileys/lib/WABinary/jid-utils.js';
import type { BaileysLibrary, BaileysSocket, WAMessage } from '../baileys-library';
import { FakeSocket, freshCreds } from './socket';

/*
 * The Baileys package for specs (Jest cannot load the ES-module package): rc14's own JID helpers, its message helpers
 * as `Utils/messages.js` has them, the enums with the package's numbers, and `makeWASocket` handing out fake sockets.
 */

type Content = proto.IMessage;

/** rc14's `WAMessageStatus`. */
export const MESSAGE_STATUS = { ERROR: 0, PENDING: 1, SERVER_ACK: 2, DELIVERY_ACK: 3, READ: 4, PLAYED: 5 } as const;

export const HISTORY_SYNC_TYPE = {
  INITIAL_BOOTSTRAP: 0,
  INITIAL_STATUS_V3: 1,
  FULL: 2,
  RECENT: 3,
  PUSH_NAME: 4,
  NON_BLOCKING_DATA: 5,
  ON_DEMAND: 6,
} as const;

function futureProofMessage(message: Content | null | undefined): proto.Message.IFutureProofMessage | null | undefined {
  return (
    message?.ephemeralMessage ||
    message?.viewOnceMessage ||
    message?.documentWithCaptionMessage ||
    message?.viewOnceMessageV2 ||
    message?.viewOnceMessageV2Extension ||
    message?.editedMessage ||
    message?.associatedChildMessage ||
    message?.groupStatusMessage ||
    message?.groupStatusMessageV2
  );
}

/** `normalizeMessageContent` of `Utils/messages.js`: unwraps the future-proof wrappers (ephemeral, view-once, edited...). */
function normalizeMessageContent(content: Content | null | undefined): Content | undefined {
  if (!content) return undefined;
  let current: Content | null | undefined = content;
  for (let i = 0; i < 5; i++) {
    const inner = futureProofMessage(current);
    if (!inner) break;
    current = inner.message;
  }
  return current ?? undefined;
}

/** `getContentType` of `Utils/messages.js`. */
function getContentType(content: Content | null | undefined): keyof Content | undefined {
  if (!content) return undefined;
  return Object.keys(content).find(
    (key) => (key === 'conversation' || key.includes('Message')) && key !== 'senderKeyDistributionMessage',
  ) as keyof Content | undefined;
}

/** A WAMessage as Baileys returns it from `sendMessage`/`generateWAMessageFromContent`: ours, pending. */
export function ownMessage(chatJid: string, id: string, message: Content, timestamp: number, participant: string): WAMessage {
  return {
    key: { remoteJid: chatJid, fromMe: true, id },
    message,
    messageTimestamp: timestamp,
    messageStubParameters: [],
    ...(chatJid.endsWith('@g.us') ? { participant } : {}),
    status: MESSAGE_STATUS.PENDING,
  };
}

/** `generateWAMessageFromContent` without quotes and timers (the sender passes neither to it). */
function generateWAMessageFromContent(jid: string, message: Content, options: { userJid: string; messageId?: string; timestamp?: Date }) {
  const timestamp = Math.floor((options.timestamp ?? new Date()).getTime() / 1000);
  return ownMessage(jid, options.messageId ?? 'GENERATED', message, timestamp, options.userJid);
}

/**
 * `chatModificationToAppPatch` of `Utils/chat-utils.js` for the message actions (star, delete for me), which put
 * `'0'` in the author slot of the index whoever wrote the message. `SyncdOperation.SET` is 0.
 */
function chatModificationToAppPatch(mod: ChatModification, jid: string) {
  if ('star' in mod) {
    const [key] = mod.star.messages;
    return {
      syncAction: { starAction: { starred: !!mod.star.star } },
      index: ['star', jid, key.id, key.fromMe ? '1' : '0', '0'],
      type: 'regular_low',
      apiVersion: 2,
      operation: 0,
    };
  }
  if ('deleteForMe' in mod) {
    const { timestamp, key, deleteMedia } = mod.deleteForMe;
    return {
      syncAction: { deleteMessageForMeAction: { deleteMedia, messageTimestamp: timestamp } },
      index: ['deleteMessageForMe', jid, key.id, key.fromMe ? '1' : '0', '0'],
      type: 'regular_high',
      apiVersion: 3,
      operation: 0,
    };
  }
  throw new Error('not a message action');
}

export interface FakeLibraryOptions {
  /**
   * Mark what went through a `proto.*.fromObject` (`$proto: <type>`), so a spec can tell converted values from raw
   * ones. Unmarked, `fromObject` keeps the specs' plain objects (numeric enums, Buffers) as they are.
   */
  markConversions?: boolean;
}

export interface FakeLibrary {
  lib: BaileysLibrary;
  /** The sockets `makeWASocket` made, in order. */
  sockets: FakeSocket[];
  /** The socket made last. */
  socket(): FakeSocket;
}

/** The parts of the Baileys package the driver uses, with the values and shapes of 7.0.0-rc14. */
export function fakeLibrary(options: FakeLibraryOptions = {}): FakeLibrary {
  const converter = (type: string) => jest.fn((object: object) => (options.markConversions ? { $proto: type, ...object } : object));
  const sockets: FakeSocket[] = [];
  const lib = {
    jidDecode,
    jidNormalizedUser,
    areJidsSameUser,
    isPnUser,
    isLidUser,
    isJidGroup,
    isJidBroadcast,
    isJidStatusBroadcast,
    isJidNewsletter,
    normalizeMessageContent,
    getContentType,
    generateWAMessageFromContent,
    chatModificationToAppPatch,
    makeWASocket: jest.fn((config: UserFacingSocketConfig) => {
      const socket = FakeSocket.connecting(config);
      sockets.push(socket);
      return socket as unknown as BaileysSocket;
    }),
    initAuthCreds: jest.fn(freshCreds),
    makeCacheableSignalKeyStore: jest.fn((store: object, _logger: unknown, cache: object) => ({ cacheable: true, store, cache })),
    Browsers: { ubuntu: (browser: string) => ['Ubuntu', browser, '22.04.4'] },
    DisconnectReason: {
      connectionClosed: 428,
      connectionLost: 408,
      connectionReplaced: 440,
      timedOut: 408,
      loggedOut: 401,
      badSession: 500,
      restartRequired: 515,
      multideviceMismatch: 411,
      forbidden: 403,
      unavailableService: 503,
    },
    fetchLatestWaWebVersion: jest.fn(() => Promise.resolve({ version: [2, 3000, 1099887766], isLatest: true })),
    proto: {
      Message: {
        fromObject: converter('Message'),
        AppStateSyncKeyData: { fromObject: converter('AppStateSyncKeyData') },
        HistorySyncType: { ...HISTORY_SYNC_TYPE, NO_HISTORY: 7, MESSAGE_ACCESS_STATUS: 8 },
        ProtocolMessage: {
          Type: { REVOKE: 0, EPHEMERAL_SETTING: 3, HISTORY_SYNC_NOTIFICATION: 5, APP_STATE_SYNC_KEY_SHARE: 6, MESSAGE_EDIT: 14 },
        },
        PinInChatMessage: { Type: { UNKNOWN_TYPE: 0, PIN_FOR_ALL: 1, UNPIN_FOR_ALL: 2 } },
      },
      PinInChat: { Type: { UNKNOWN_TYPE: 0, PIN_FOR_ALL: 1, UNPIN_FOR_ALL: 2 } },
      WebMessageInfo: {
        fromObject: converter('WebMessageInfo'),
        Status: MESSAGE_STATUS,
        StubType: {
          UNKNOWN: 0,
          REVOKE: 1,
          CIPHERTEXT: 2,
          GROUP_CREATE: 20,
          GROUP_CHANGE_SUBJECT: 21,
          GROUP_PARTICIPANT_ADD: 27,
          CALL_MISSED_VOICE: 40,
        },
      },
      HistorySync: { HistorySyncType: HISTORY_SYNC_TYPE },
    },
  } as unknown as BaileysLibrary;
  return { lib, sockets, socket: () => sockets[sockets.length - 1] };
}
