import { normalise } from '../../events/normalise';
import type { BaileysEvents, WAMessage } from '../baileys-library';
import type { InboundBatch } from './inbound-batch';
import { chatOf, writerOf } from './people';
import { readMessage, type ReadMessage } from './read-message';
import { ownMessageReceipts } from './receipts';
import { fromSeconds } from './timestamps';

/**
 * `messages.upsert`, `notify` and `append` alike: the offline queue arrives as `append`, and so do the gateway's own
 * sends (Baileys echoes them). Rules:
 * - A message already met (stored, or earlier in the batch) is not reported again.
 * - Stubs and placeholders (`messageStubType`, no content: a decryption failure, a group notice) are neither reported
 *   nor stored: the real message may follow under the same id, and group notices arrive as group events. A decryption
 *   failure (`CIPHERTEXT`) is watched instead (`UndecryptableWatch`): it becomes `message_undecryptable` unless a
 *   decryptable copy follows in time.
 * - The gateway's own sends (ids in `context.sent`) are stored but not reported: the dispatcher reported them. Messages
 *   this account sent from the phone are reported, with `sender.isMe`.
 * - Edits, deletes, reactions and pins arrive as messages of their own and are reported from here; Baileys repeats
 *   edits and deletes in `messages.update` and reactions in `messages.reaction`, which leave out what was met here.
 */
export async function mapUpserts(batch: InboundBatch, upsert: BaileysEvents['messages.upsert']): Promise<void> {
  for (const message of upsert.messages) await mapUpsert(batch, message);
  await batch.ledger.flush();
}

async function mapUpsert(batch: InboundBatch, message: WAMessage): Promise<void> {
  const key = message.key;
  if (!key?.id || !key.remoteJid) return;
  if (message.messageStubType === batch.lib.proto.WebMessageInfo.StubType.CIPHERTEXT && !key.fromMe) {
    batch.context.undecryptable?.failed({
      id: key.id,
      chatId: chatOf(batch, key),
      sender: writerOf(batch, message),
      time: fromSeconds(message.messageTimestamp) ?? new Date(),
      reason: stubReason(message),
    });
    return;
  }
  if (message.message) batch.context.undecryptable?.decrypted(key.id);
  if (!message.message || message.messageStubType) {
    batch.logger.debug(`${batch.context.instanceId}: ${key.id} not a message (stub ${String(message.messageStubType ?? 'none')})`);
    return;
  }
  const read = await readMessage(batch, message);
  if (read.kind === 'edit') rememberEdit(batch, message, read);
  const known = await batch.ledger.known(key);
  if (!known && (read.kind !== 'ignored' || read.keep)) batch.ledger.keep(message);
  if (read.kind === 'ignored') batch.logger.debug(`${batch.context.instanceId}: ${key.id} not reported: ${read.reason}`);
  else if (!known && !(key.fromMe && batch.sentByGateway(key.id))) {
    await learnSender(batch, message);
    report(batch, read);
  }
  // A receipt the buffer folded into one of this account's messages is news even when the message is not.
  if (key.fromMe) ownMessageReceipts(batch, message);
}

/**
 * A message carries its sender's push name and, for a business, its verified name. A name that replaces the one
 * the gateway knew is announced first (`chat_push_name`), as the network's own clients show a renamed contact.
 */
async function learnSender(batch: InboundBatch, message: WAMessage): Promise<void> {
  if (message.key.fromMe || (!message.pushName && !message.verifiedBizName)) return;
  const sender = writerOf(batch, message);
  if (message.pushName && (await batch.memory.pushNames.changed(sender.jid, message.pushName)))
    batch.event(normalise.chatPushName({ user: sender, pushName: message.pushName }));
  batch.learnContacts([
    {
      jid: sender.jid,
      ...(sender.lid ? { lid: sender.lid } : {}),
      ...(message.pushName ? { pushName: message.pushName } : {}),
      ...(message.verifiedBizName ? { businessName: message.verifiedBizName } : {}),
    },
  ]);
}

function report(batch: InboundBatch, read: Exclude<ReadMessage, { kind: 'ignored' }>): void {
  switch (read.kind) {
    case 'message':
    case 'edit':
      return batch.event(normalise.message(read.input));
    case 'revoke':
      return batch.event(
        normalise.messageDelete({ id: read.targetId, chatId: read.chatId, sender: read.author, time: read.time, forEveryone: true }),
      );
    case 'ephemeral':
      return batch.event(
        normalise.chatSetting({ chatId: read.chatId, setting: { type: 'ephemeral', seconds: read.seconds, by: read.by } }),
      );
  }
}

/** A decryption failure stub carries the error as its first parameter (rc14 `decode-wa-message.js`). */
function stubReason(message: WAMessage): string {
  const [first] = (message.messageStubParameters ?? []) as unknown[];
  return typeof first === 'string' && first !== '' ? first : 'unknown';
}

/** Remembered even for the gateway's own edits and for edits met before, so their `messages.update` copy stays quiet. */
function rememberEdit(batch: InboundBatch, message: WAMessage, read: Extract<ReadMessage, { kind: 'edit' }>): void {
  batch.memory.edits.add(editKey(message.key.remoteJid ?? '', read.targetId, read.editedAt));
}

export function editKey(chat: string, targetId: string, editedAt: number | undefined): string {
  return `${chat}|${targetId}|${editedAt ?? ''}`;
}
