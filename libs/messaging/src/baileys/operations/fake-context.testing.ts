import type { ChatStoreRepository, ContactStoreRepository, NetworkMessageRecord, NetworkMessageRepository } from '@app/database';
import { isJidGroup, isLidUser, isPnUser, jidNormalizedUser } from '@whiskeysockets/baileys/lib/WABinary/jid-utils.js';
import type { SandboxStatusMedia } from '../../sandbox/status-media';
import type { BaileysContext } from '../baileys-context';
import type { BaileysLibrary, BaileysSocket } from '../baileys-library';
import { bufferJson } from '../buffer-json';
import { BaileysOperations } from './baileys-operations';
import { BaileysCallOperations } from './call-operations';
import { BaileysChatOperations } from './chat-operations';
import { BaileysCommunityOperations } from './community-operations';
import { BaileysContactOperations } from './contact-operations';
import { BaileysGroupOperations } from './group-operations';
import { BaileysMediaOperations } from './media-operations';
import { BaileysNewsletterOperations } from './newsletter-operations';
import { BaileysStatusOperations } from './status-operations';
import { BaileysUserOperations } from './user-operations';

/** For specs: the account the fake socket belongs to. */
export const INSTANCE = 'inst-1';
export const SELF = '447700900001@s.whatsapp.net';
export const SELF_DEVICE = '447700900001:7@s.whatsapp.net';
export const SELF_LID = '100000000000001@lid';

/** A Baileys error as `@hapi/boom` builds it: IQ errors carry the network's code in `data` and stay at 500. */
export function boom(message: string, options: { statusCode?: number; data?: unknown } = {}): Error {
  const statusCode = options.statusCode ?? 500;
  return Object.assign(new Error(message), {
    isBoom: true,
    isServer: statusCode >= 500,
    data: options.data ?? null,
    output: { statusCode, payload: { statusCode, error: 'Error', message }, headers: {} },
  });
}

/** What the network answers a refused IQ with, as Baileys' `assertNodeErrorFree` throws it. */
export function iqError(code: number, text: string): Error {
  return boom(text, { data: code });
}

export interface StoredMessageInput {
  id: string;
  chatJid: string;
  fromMe?: boolean;
  senderJid?: string | null;
  sentAt: Date;
  message?: Record<string, unknown>;
  participant?: string;
}

/** A stored WAMessage in Baileys' JSON form, as the inbound side keeps it. */
export function storedMessage(input: StoredMessageInput): NetworkMessageRecord {
  const fromMe = input.fromMe ?? false;
  return {
    id: input.id,
    chatJid: input.chatJid,
    fromMe,
    senderJid: input.senderJid ?? null,
    sentAt: input.sentAt,
    data: bufferJson.stringify({
      key: { remoteJid: input.chatJid, fromMe, id: input.id, ...(input.participant ? { participant: input.participant } : {}) },
      messageTimestamp: Math.floor(input.sentAt.getTime() / 1000),
      ...(input.message ? { message: input.message } : {}),
    }),
  };
}

/** The message store in memory, answering as NetworkMessageRepository does. */
export class MemoryMessages {
  readonly forgotten: string[] = [];

  constructor(private records: NetworkMessageRecord[] = []) {}

  latest(_instanceId: string, chatJid: string | string[], limit: number): Promise<NetworkMessageRecord[]> {
    return Promise.resolve(
      this.records
        .filter((record) => inChats(record, chatJid))
        .sort((a, b) => b.sentAt.getTime() - a.sentAt.getTime())
        .slice(0, limit),
    );
  }

  find(_instanceId: string, id: string, chatJid?: string | string[]): Promise<NetworkMessageRecord | null> {
    return Promise.resolve(this.records.find((record) => record.id === id && (!chatJid || inChats(record, chatJid))) ?? null);
  }

  forgetChat(_instanceId: string, chatJid: string | string[]): Promise<void> {
    this.forgotten.push(...[chatJid].flat());
    this.records = this.records.filter((record) => !inChats(record, chatJid));
    return Promise.resolve();
  }
}

function inChats(record: NetworkMessageRecord, chatJid: string | string[]): boolean {
  return [chatJid].flat().includes(record.chatJid);
}

export interface FakeParts {
  socket?: Record<string, unknown>;
  lib?: Record<string, unknown>;
  messages?: NetworkMessageRecord[];
}

/**
 * A context around a fake socket: only the socket methods a spec stubs exist. The account is registered with a name,
 * device 7 and a LID, as after pairing.
 */
export function fakeContext(parts: FakeParts = {}): BaileysContext & { store: MemoryMessages } {
  const store = new MemoryMessages(parts.messages);
  const socket = {
    authState: { creds: { me: { id: SELF_DEVICE, name: 'Gateway', lid: '100000000000001:7@lid' } } },
    signalRepository: { lidMapping: { getLIDForPN: () => Promise.resolve(null), getPNForLID: () => Promise.resolve(null) } },
    ...parts.socket,
  };
  return {
    instanceId: INSTANCE,
    socket: socket as unknown as BaileysSocket,
    // rc14's own JID helpers; a spec adds (or replaces) what else it needs.
    lib: { jidNormalizedUser, isLidUser, isPnUser, isJidGroup, ...parts.lib } as unknown as BaileysLibrary,
    selfJid: SELF,
    selfLid: SELF_LID,
    messages: store as unknown as NetworkMessageRepository,
    store,
  };
}

export interface FakeStores {
  /** ChatStoreRepository's `list`. */
  chats?: () => Promise<unknown[]>;
  /** ContactStoreRepository's `list`, `find` and `byLid`. */
  contacts?: {
    list?: () => Promise<unknown[]>;
    find?: (...args: unknown[]) => Promise<unknown>;
    byLid?: (...args: unknown[]) => Promise<unknown>;
  };
  /** SandboxStatusMedia's `load`. */
  loadMedia?: (media: unknown) => Promise<{ bytes: Buffer; contentType?: string }>;
}

/** The whole operations table over fake stores, as the messaging module wires it. */
export function buildOperations(stores: FakeStores = {}): BaileysOperations {
  const chatStore = { list: stores.chats ?? (() => Promise.resolve([])) } as unknown as ChatStoreRepository;
  const contactStore = {
    list: stores.contacts?.list ?? (() => Promise.resolve([])),
    find: stores.contacts?.find ?? (() => Promise.resolve(null)),
    byLid: stores.contacts?.byLid ?? (() => Promise.resolve(null)),
  } as unknown as ContactStoreRepository;
  const media = {
    load: stores.loadMedia ?? (() => Promise.reject(new Error('no media in this spec'))),
  } as unknown as SandboxStatusMedia;
  return new BaileysOperations(
    new BaileysChatOperations(chatStore),
    new BaileysContactOperations(contactStore),
    new BaileysGroupOperations(),
    new BaileysCommunityOperations(),
    new BaileysUserOperations(contactStore),
    new BaileysCallOperations(),
    new BaileysMediaOperations(),
    new BaileysNewsletterOperations(),
    new BaileysStatusOperations(contactStore, media),
  );
}
