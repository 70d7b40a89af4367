import type { NetworkMessageRepository } from '@app/database';
import type { proto } from '@whiskeysockets/baileys';
import type { BaileysContext } from '../baileys-context';
import type { BaileysSocket, WAMessage } from '../baileys-library';
import type { MemoryNetworkMessages } from './kit';
import { fakeLibrary, ownMessage } from './library';
import { FakeSocket } from './socket';

/** The sending side's specs: the account that sends, the chats it sends to, and the context around a fake socket. */

export const SELF = '447700900123@s.whatsapp.net';
export const SELF_DEVICE = '447700900123:4@s.whatsapp.net';
export const SELF_LID = '209876543210987@lid';
export const CONTACT = '14155550123@s.whatsapp.net';
export const CONTACT_LID = '123456789012345@lid';
export const GROUP = '120363025246125888@g.us';
/** 2025-05-19T00:51:44Z: the `messageTimestamp` of the messages the fake network generates. */
export const SENT_AT = 1_747_615_904;

/** A WAMessage as Baileys returns it from `sendMessage`/`generateWAMessageFromContent`: ours, pending. */
export function networkMessage(chatJid: string, id: string, message: proto.IMessage, timestamp = SENT_AT): WAMessage {
  return ownMessage(chatJid, id, message, timestamp, SELF_DEVICE);
}

/** The sending account's socket. */
export function fakeSocket(): FakeSocket {
  return new FakeSocket({ me: { id: SELF_DEVICE, lid: SELF_LID } });
}

export function fakeContext(socket: FakeSocket, store: MemoryNetworkMessages): BaileysContext {
  return {
    instanceId: 'ins_1',
    socket: socket as unknown as BaileysSocket,
    lib: fakeLibrary().lib,
    selfJid: SELF,
    selfLid: SELF_LID,
    messages: store as unknown as NetworkMessageRepository,
  };
}
