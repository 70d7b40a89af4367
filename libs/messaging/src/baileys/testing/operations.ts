import type { ChatStoreRepository, ContactStoreRepository, NetworkMessageRecord, NetworkMessageRepository } from '@app/database';
import type { SandboxStatusMedia } from '../../sandbox/sandbox-status-media';
import type { BaileysContext } from '../baileys-context';
import type { BaileysSocket } from '../baileys-library';
import { bufferJson } from '../buffer-json';
import { BaileysOperations } from '../operations/baileys-operations';
import { BaileysCallOperations } from '../operations/baileys-call-operations';
import { BaileysChatOperations } from '../operations/baileys-chat-operations';
import { BaileysCommunityOperations } from '../operations/baileys-community-operations';
import { BaileysContactOperations } from '../operations/baileys-contact-operations';
import { BaileysGroupOperations } from '../operations/baileys-group-operations';
import { BaileysMediaOperations } from '../operations/baileys-media-operations';
import { BaileysNewsletterOperations } from '../operations/baileys-newsletter-operations';
import { BaileysStatusOperations } from '../operations/baileys-status-operations';
import { BaileysUserOperations } from '../operations/baileys-user-operations';
import { boom, MemoryNetworkMessages } from './kit';
import { fakeLibrary } from './library';
import { FakeSocket } from './socket';

/** The operations' specs: the account the fake socket belongs to, stored messages, and the whole operations table. */
export const INSTANCE = 'inst-1';
export const SELF = '447700900001@s.whatsapp.net';
export const SELF_DEVICE = '447700900001:7@s.whatsapp.net';
export const SELF_LID = '100000000000001@lid';

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

export interface FakeParts {
  socket?: Record<string, unknown>;
  lib?: Record<string, unknown>;
  messages?: NetworkMessageRecord[];
}

/**
 * A context around the kit's fake socket, with what a spec stubs on top. The account is registered with a name, device 7
 * and a LID, as after pairing; its LID mapping knows no one.
 */
export function fakeContext(parts: FakeParts = {}): BaileysContext & { store: MemoryNetworkMessages } {
  const store = new MemoryNetworkMessages(parts.messages);
  const socket = Object.assign(new FakeSocket({ me: { id: SELF_DEVICE, name: 'Gateway', lid: '100000000000001:7@lid' } }), parts.socket);
  return {
    instanceId: INSTANCE,
    socket: socket as unknown as BaileysSocket,
    // The kit's library (rc14's own JID helpers); a spec adds (or replaces) what else it needs.
    lib: { ...fakeLibrary().lib, ...parts.lib },
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
