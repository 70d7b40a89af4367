import { refusedByNetwork } from '@app/contracts';
import { normalise } from '../../events/normalise';
import type { BaileysEvents, WAMessageKey } from '../baileys-library';
import type { InboundBatch } from './inbound-batch';
import { readContent } from './message-content';
import { authorOf, chatOf, storedAuthor, writerOf } from './people';
import { ReceiptRun, statusReceipt } from './receipts';
import { fromSeconds, toNumber } from './timestamps';
import { editKey } from './upserts';

type MessageUpdate = BaileysEvents['messages.update'][number];

/**
 * `messages.update`, one entry per message, each possibly several changes at once (Baileys' buffer merges them):
 * - edits (`message.editedMessage`) and deletes for everyone (`messageStubType` REVOKE, `message: null`) that their
 *   own message already reported are left out; the rest are reported from here;
 * - `status`: 1:1 receipts (delivered, read, played; `readSelf` when this account read on another device), and ERROR
 *   (the network refused one of this account's messages after taking it) as `message_status` failed;
 * - `starred` from the phone.
 */
export async function mapUpdates(batch: InboundBatch, updates: BaileysEvents['messages.update']): Promise<void> {
  const receipts = new ReceiptRun(batch);
  for (const entry of updates) {
    const key = entry.key;
    if (!key?.id || !key.remoteJid) continue;
    const update = entry.update;
    if (isRevoke(batch, update)) {
      receipts.flush();
      await revoked(batch, key, update);
    }
    if (update.message?.editedMessage?.message) {
      receipts.flush();
      await edited(batch, entry);
    }
    if (typeof update.starred === 'boolean') {
      receipts.flush();
      await starred(batch, key, update.starred);
    }
    if (typeof update.status === 'number') {
      if (update.status === batch.lib.proto.WebMessageInfo.Status.ERROR) {
        receipts.flush();
        failed(batch, entry);
        continue;
      }
      const receipt = statusReceipt(batch, key, update.status, fromSeconds(update.messageTimestamp) ?? new Date());
      if (receipt) receipts.add(receipt);
    }
  }
  receipts.flush();
}

/** `messages.delete` with keys: the phone deleted messages for this account only. Clearing a whole chat is no event. */
export async function mapDeletes(batch: InboundBatch, deleted: BaileysEvents['messages.delete']): Promise<void> {
  if (!('keys' in deleted)) return;
  for (const key of deleted.keys) {
    if (!key.id || !key.remoteJid) continue;
    const author = await authorOf(batch, key);
    if (!author) {
      batch.logger.debug(`${batch.context.instanceId}: delete-for-me of ${key.id} not reported: its author is unknown`);
      continue;
    }
    batch.event(normalise.messageDelete({ id: key.id, chatId: chatOf(batch, key), sender: author, time: new Date(), forEveryone: false }));
  }
}

function isRevoke(batch: InboundBatch, update: MessageUpdate['update']): boolean {
  return update.message === null && update.messageStubType === batch.lib.proto.WebMessageInfo.StubType.REVOKE;
}

/** `update.key` is the revoking message's own key: met already when its upsert reported the delete. */
async function revoked(batch: InboundBatch, key: WAMessageKey, update: MessageUpdate['update']): Promise<void> {
  const revoking = update.key;
  if (revoking && (await batch.ledger.known(revoking))) return;
  if (revoking?.fromMe && batch.sentByGateway(revoking.id)) return;
  const stored = await batch.ledger.find(key.id ?? '', [key.remoteJid, key.remoteJidAlt]);
  const author = stored ? await storedAuthor(batch, stored) : writerOf(batch, { key: revoking ?? key });
  batch.event(
    normalise.messageDelete({ id: key.id ?? '', chatId: chatOf(batch, key), sender: author, time: new Date(), forEveryone: true }),
  );
}

/**
 * An edit Baileys derived from an edit message: reported only when that message was not (its id is lost here, so the
 * event carries the edited message's id).
 */
async function edited(batch: InboundBatch, { key, update }: MessageUpdate): Promise<void> {
  const editedAt = toNumber(update.messageTimestamp);
  if (batch.memory.edits.has(editKey(key.remoteJid ?? '', key.id ?? '', editedAt))) return;
  const id = key.id ?? '';
  const content = batch.lib.normalizeMessageContent(update.message?.editedMessage?.message);
  const reading = readContent(batch.lib, content, { mediaId: id });
  if (reading.kind !== 'content') return;
  const original = await batch.ledger.find(id, [key.remoteJid, key.remoteJidAlt]);
  batch.event(
    normalise.message({
      id,
      time: fromSeconds(update.messageTimestamp) ?? new Date(),
      chatId: chatOf(batch, key),
      sender: writerOf(batch, { key }),
      content: reading.content,
      mentions: reading.info?.mentionedJid?.length ? reading.info.mentionedJid.map((jid) => batch.who.chatId(jid)) : undefined,
      edit: { originalMessageId: id, originalTime: original?.sentAt },
    }),
  );
}

async function starred(batch: InboundBatch, key: WAMessageKey, isStarred: boolean): Promise<void> {
  const author = await authorOf(batch, key);
  if (!author) {
    batch.logger.debug(`${batch.context.instanceId}: star of ${key.id ?? ''} not reported: its author is unknown`);
    return;
  }
  batch.event(
    normalise.messageStar({ id: key.id ?? '', chatId: chatOf(batch, key), sender: author, time: new Date(), starred: isStarred }),
  );
}

/**
 * `messageStubParameters`: the network's error code, and for a restricted account Baileys' explanation. A refusal the
 * send is waiting for (or already reported) is the send's to report, with the message's stored outcome; this reports
 * the others: acks later than the send's wait, and refusals of stanzas no send waits for (a text fallback's copy).
 */
function failed(batch: InboundBatch, { key, update }: MessageUpdate): void {
  if (!key.fromMe) return;
  if (key.id && batch.context.acks?.reportedBySend(key.id)) return;
  const details = ((update.messageStubParameters ?? []) as unknown[]).filter(
    (part): part is string => typeof part === 'string' && part !== '',
  );
  const code = Number(details[0]);
  const known = Number.isInteger(code) && code > 0;
  const error = known
    ? refusedByNetwork(code).message
    : details.length > 0
      ? `refused by the network: ${details.join(': ')}`
      : 'refused by the network';
  batch.event(
    normalise.messageStatus({ id: key.id ?? '', chatId: chatOf(batch, key), status: 'failed', error, ...(known ? { code } : {}) }),
  );
}
