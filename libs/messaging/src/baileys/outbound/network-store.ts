import { Logger } from '@nestjs/common';
import type { NetworkMessageRecord } from '@app/database';
import type { BaileysContext } from '../baileys-context';
import type { WAMessage, WAMessageKey } from '../baileys-library';
import { bufferJson } from '../buffer-json';
import { chatIdentities } from '../lid-mapping';

const logger = new Logger('BaileysSender');

/** A protobuf int64 (times, sizes) as a number: given as a number, a Long, a Long after JSON (`{low, high}`) or a string. */
export function int64(value: unknown): number | undefined {
  if (typeof value === 'number') return value;
  if (typeof value === 'string' && value.trim() !== '' && Number.isFinite(Number(value))) return Number(value);
  if (typeof value === 'object' && value !== null && 'low' in value && 'high' in value) {
    const { low, high } = value as { low: number; high: number };
    return high * 2 ** 32 + (low >>> 0);
  }
  return undefined;
}

/** The key as the protocol carries it: Baileys' extra bookkeeping fields (alternate JIDs, addressing) left out. */
export function protocolKey(key: WAMessageKey): WAMessageKey {
  return {
    remoteJid: key.remoteJid,
    fromMe: key.fromMe,
    id: key.id,
    ...(key.participant ? { participant: key.participant } : {}),
  };
}

/**
 * A recent message of the chat, if this instance still keeps it, under either JID of the person (a received message
 * of a LID-addressed chat is kept under the LID, though events name the chat by phone number). A WAMessage is a
 * protobuf object, and its JSON has bytes as base64, enums as names and 64-bit numbers as strings; `fromObject` turns
 * that back into what Baileys encodes correctly (a quote copies the original's content into the new message).
 */
export async function storedMessage(context: BaileysContext, chatJid: string, id: string): Promise<WAMessage | undefined> {
  const record = (await context.messages.find(context.instanceId, id, chatJid)) ?? (await underOtherIdentity(context, chatJid, id));
  return record ? (context.lib.proto.WebMessageInfo.fromObject(bufferJson.parse(record.data)) as WAMessage) : undefined;
}

async function underOtherIdentity(context: BaileysContext, chatJid: string, id: string): Promise<NetworkMessageRecord | null> {
  const others = (await chatIdentities(context, chatJid)).filter((jid) => jid !== chatJid);
  return others.length > 0 ? context.messages.find(context.instanceId, id, others) : null;
}

/**
 * Keeps what we sent: `relayMessage` emits nothing, and recipients that could not decrypt ask for it again through
 * `getMessage`. The network already has the message, so a failed write is logged rather than failing the send (a
 * retry would send it twice).
 */
export async function keepSent(context: BaileysContext, message: WAMessage): Promise<void> {
  const id = message.key.id;
  const chatJid = message.key.remoteJid;
  if (!id || !chatJid) return;
  const sentAt = int64(message.messageTimestamp);
  try {
    await context.messages.save(context.instanceId, [
      {
        id,
        chatJid,
        fromMe: true,
        senderJid: null,
        sentAt: sentAt === undefined ? new Date() : new Date(sentAt * 1000),
        data: bufferJson.stringify(message),
      },
    ]);
  } catch (error) {
    logger.warn(
      `instance ${context.instanceId}: could not keep sent message ${id}: ${error instanceof Error ? error.message : String(error)}`,
    );
  }
}
