import type { Actor } from '../../events/normalise';
import type { NetworkMessageRecord } from '@app/database';
import type { WAMessage, WAMessageKey } from '../baileys-library';
import type { InboundBatch } from './inbound-batch';

/**
 * The chat a message key belongs to, as events name it. A broadcast-list message lands in the sender's own chat
 * (as Baileys' `getChatId` has it); the status broadcast stays `status@broadcast`.
 */
export function chatOf(batch: InboundBatch, key: WAMessageKey): string {
  const remote = key.remoteJid ?? '';
  const { lib, who } = batch;
  if (lib.isJidBroadcast(remote) && !lib.isJidStatusBroadcast(remote) && !key.fromMe && key.participant) return who.chatId(key.participant);
  return who.chatId(remote);
}

/** Who wrote a message in hand: this account, the group or broadcast participant, or the other side of a 1:1 chat. */
export function writerOf(batch: InboundBatch, message: Pick<WAMessage, 'key' | 'participant'>): Actor {
  const key = message.key;
  if (key.fromMe) return batch.who.self();
  return batch.who.actor(key.participant || message.participant || key.remoteJid || '');
}

/**
 * Who wrote the message a key points at, when the key alone may not say (app-state keys carry no participant): the
 * stored copy first, then the key. Undefined for a group message the gateway never stored.
 */
export async function authorOf(batch: InboundBatch, key: WAMessageKey): Promise<Actor | undefined> {
  const stored = key.id ? await batch.ledger.find(key.id, [key.remoteJid, key.remoteJidAlt]) : undefined;
  if (stored) return storedAuthor(batch, stored);
  if (key.fromMe) return batch.who.self();
  if (key.participant) return batch.who.actor(key.participant);
  const remote = key.remoteJid ?? '';
  if (!remote || batch.lib.isJidGroup(remote) || batch.lib.isJidBroadcast(remote)) return undefined;
  return batch.who.actor(remote);
}

/** Who wrote a stored message: this account, the group participant, or the other side of the 1:1 chat. */
export async function storedAuthor(batch: InboundBatch, stored: NetworkMessageRecord): Promise<Actor> {
  if (stored.fromMe) return batch.who.self();
  const jid = stored.senderJid ?? stored.chatJid;
  await batch.resolve([jid]);
  return batch.who.actor(jid);
}
