import type { LastMessageList, MinimalMessage, WAMessage, WAMessageKey } from '@whiskeysockets/baileys';
import type { NetworkMessageRecord } from '@app/database';
import type { BaileysContext } from '../baileys-context';
import { bufferJson } from '../buffer-json';
import { chatIdentities } from '../lid-mapping';
import { isGroupJid } from './jids';

/** How far back a range looks; a chat whose last received message is older is described by this window. */
const RANGE_WINDOW = 50;

/** A message's key as the network addresses it: others' group messages need their sender. */
export function keyOf(record: NetworkMessageRecord): WAMessageKey {
  const key: WAMessageKey = { remoteJid: record.chatJid, id: record.id, fromMe: record.fromMe };
  if (isGroupJid(record.chatJid) && !record.fromMe) {
    const participant = record.senderJid ?? bufferJson.parse<WAMessage>(record.data).key?.participant;
    if (participant) key.participant = participant;
  }
  return key;
}

function minimal(record: NetworkMessageRecord): MinimalMessage {
  return { key: keyOf(record), messageTimestamp: Math.floor(record.sentAt.getTime() / 1000) };
}

/**
 * The chat's newest stored messages, newest first: in a person's chat those kept under either of their JIDs (rc14
 * keeps received messages of a LID-addressed chat under the LID, our sends under the JID they went to), each with
 * the key it was kept with.
 */
export async function recentMessages(context: BaileysContext, chatJid: string): Promise<NetworkMessageRecord[]> {
  return context.messages.latest(context.instanceId, await chatIdentities(context, chatJid), RANGE_WINDOW);
}

/**
 * The range an app-state chat action (archive, read, clear, delete) applies to: the chat's newest messages, newest
 * first, down to the newest one this account received, as the network expects (Baileys: "the last message in the
 * array must be the last message received in the chat").
 *
 * With no message of the chat stored (it was quiet longer than the store keeps messages, or only ever seen on the
 * phone) the range names no message and ends now: the network applies it to everything up to now, which is what
 * archiving, reading, clearing or deleting the chat means. Refusing instead would make old chats unmanageable.
 */
export function rangeOf(records: NetworkMessageRecord[]): LastMessageList {
  if (records.length === 0) return { lastMessageTimestamp: Math.floor(Date.now() / 1000) };
  const newestReceived = records.findIndex((record) => !record.fromMe);
  return (newestReceived === -1 ? records : records.slice(0, newestReceived + 1)).map(minimal);
}

export async function lastMessages(context: BaileysContext, chatJid: string): Promise<LastMessageList> {
  return rangeOf(await recentMessages(context, chatJid));
}
