import type { ChatModification, proto } from '@whiskeysockets/baileys';
import type { NetworkMessageRecord, NetworkMessageRepository } from '@app/database';
import type { BaileysContext } from '../baileys-context';
import type { BaileysLibrary, BaileysSocket, WAMessage } from '../baileys-library';
import { bufferJson } from '../buffer-json';

/** For specs: a fake Baileys package, socket and message store, shaped like Baileys 7.0.0-rc14's. */

export const SELF = '447700900123@s.whatsapp.net';
export const SELF_DEVICE = '447700900123:4@s.whatsapp.net';
export const SELF_LID = '209876543210987@lid';
export const CONTACT = '14155550123@s.whatsapp.net';
export const CONTACT_LID = '123456789012345@lid';
export const GROUP = '120363025246125888@g.us';
/** 2025-05-19T00:51:44Z: the `messageTimestamp` of the messages the fake network generates. */
export const SENT_AT = 1_747_615_904;

/** `WAMessageStatus.PENDING`: what a message Baileys just generated carries. */
const PENDING = 1;

type Content = proto.IMessage;

/** `jidNormalizedUser` of `WABinary/jid-utils.js`: drops the device and agent, turns `c.us` into `s.whatsapp.net`. */
function jidNormalizedUser(jid: string | null | undefined): string {
  const at = typeof jid === 'string' ? jid.indexOf('@') : -1;
  if (!jid || at < 0) return '';
  const server = jid.slice(at + 1);
  const user = jid.slice(0, at).split(':')[0].split('_')[0];
  return `${user}@${server === 'c.us' ? 's.whatsapp.net' : server}`;
}

/** `getContentType` of `Utils/messages.js`. */
function getContentType(content: Content | undefined): keyof Content | undefined {
  if (!content) return undefined;
  return Object.keys(content).find(
    (key) => (key === 'conversation' || key.includes('Message')) && key !== 'senderKeyDistributionMessage',
  ) as keyof Content | undefined;
}

/** `normalizeMessageContent` of `Utils/messages.js`: unwraps ephemeral, view-once, document-with-caption, edited. */
function normalizeMessageContent(content: Content | null | undefined): Content | undefined {
  if (!content) return undefined;
  let current = content;
  for (let i = 0; i < 5; i++) {
    const inner =
      current.ephemeralMessage ??
      current.viewOnceMessage ??
      current.documentWithCaptionMessage ??
      current.viewOnceMessageV2 ??
      current.viewOnceMessageV2Extension ??
      current.editedMessage;
    if (!inner?.message) break;
    current = inner.message;
  }
  return current;
}

/** A WAMessage as Baileys returns it from `sendMessage`/`generateWAMessageFromContent`: ours, pending. */
export function networkMessage(chatJid: string, id: string, message: Content, timestamp = SENT_AT): WAMessage {
  return {
    key: { remoteJid: chatJid, fromMe: true, id },
    message,
    messageTimestamp: timestamp,
    messageStubParameters: [],
    ...(chatJid.endsWith('@g.us') ? { participant: SELF_DEVICE } : {}),
    status: PENDING,
  };
}

/** `generateWAMessageFromContent` without quotes and timers (the sender passes neither to it). */
function generateWAMessageFromContent(jid: string, message: Content, options: { userJid: string; messageId?: string; timestamp?: Date }) {
  const timestamp = Math.floor((options.timestamp ?? new Date()).getTime() / 1000);
  const generated = networkMessage(jid, options.messageId ?? 'GENERATED', message, timestamp);
  return jid.endsWith('@g.us') ? { ...generated, participant: options.userJid } : generated;
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

export function fakeLibrary(): BaileysLibrary {
  return {
    generateWAMessageFromContent,
    chatModificationToAppPatch,
    normalizeMessageContent,
    getContentType,
    jidNormalizedUser,
    proto: {
      PinInChat: { Type: { UNKNOWN_TYPE: 0, PIN_FOR_ALL: 1, UNPIN_FOR_ALL: 2 } },
      // The specs' messages are plain objects with numeric enums and Buffers, which `fromObject` keeps as they are.
      WebMessageInfo: { fromObject: (object: object) => object },
    },
  } as unknown as BaileysLibrary;
}

/** The socket methods a send may call, as stubs that answer like Baileys does. */
export function fakeSocket() {
  return {
    user: { id: SELF_DEVICE, lid: SELF_LID },
    sendMessage: jest.fn<Promise<WAMessage | undefined>, Parameters<BaileysSocket['sendMessage']>>(),
    relayMessage: jest.fn<Promise<string>, Parameters<BaileysSocket['relayMessage']>>((_jid, _message, options) =>
      Promise.resolve(options.messageId ?? 'GENERATED'),
    ),
    chatModify: jest.fn<Promise<void>, Parameters<BaileysSocket['chatModify']>>(() => Promise.resolve()),
    appPatch: jest.fn<Promise<void>, Parameters<BaileysSocket['appPatch']>>(() => Promise.resolve()),
    readMessages: jest.fn<Promise<void>, Parameters<BaileysSocket['readMessages']>>(() => Promise.resolve()),
    sendReceipts: jest.fn<Promise<void>, Parameters<BaileysSocket['sendReceipts']>>(() => Promise.resolve()),
  };
}

export type FakeSocket = ReturnType<typeof fakeSocket>;

/** The recent-message store, in memory. */
export class FakeMessageStore {
  readonly records: NetworkMessageRecord[] = [];

  /** Keeps a message as inbound mapping does: Baileys JSON, with the sender of a group message. */
  keep(message: WAMessage): void {
    this.records.push({
      id: message.key.id as string,
      chatJid: message.key.remoteJid as string,
      fromMe: message.key.fromMe === true,
      senderJid: message.key.fromMe ? null : (message.key.participant ?? null),
      sentAt: new Date(Number(message.messageTimestamp) * 1000),
      data: bufferJson.stringify(message),
    });
  }

  /** The messages saved through the repository, as Baileys JSON parsed back. */
  saved(): WAMessage[] {
    return this.records.map((record) => bufferJson.parse<WAMessage>(record.data));
  }

  find(_instanceId: string, id: string, chatJid?: string | string[]): Promise<NetworkMessageRecord | null> {
    const chats = chatJid === undefined ? undefined : [chatJid].flat();
    return Promise.resolve(this.records.find((record) => record.id === id && (!chats || chats.includes(record.chatJid))) ?? null);
  }

  save(_instanceId: string, messages: NetworkMessageRecord[]): Promise<void> {
    for (const message of messages) if (!this.records.some((record) => record.id === message.id)) this.records.push(message);
    return Promise.resolve();
  }
}

export function fakeContext(socket: FakeSocket, store: FakeMessageStore): BaileysContext {
  return {
    instanceId: 'ins_1',
    socket: socket as unknown as BaileysSocket,
    lib: fakeLibrary(),
    selfJid: SELF,
    selfLid: SELF_LID,
    messages: store as unknown as NetworkMessageRepository,
  };
}
