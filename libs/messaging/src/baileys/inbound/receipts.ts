import type { ReceiptType } from '@app/contracts';
import type { proto } from '@whiskeysockets/baileys';
import { normalise, type Actor } from '../../events/normalise';
import type { BaileysEvents, WAMessage } from '../baileys-library';
import type { InboundBatch } from './inbound-batch';
import { authorOf, chatOf } from './people';
import { fromSeconds } from './timestamps';

interface Receipt {
  chatId: string;
  reader: Actor;
  messageSender?: Actor;
  messageId: string;
  time: Date;
  receiptType: ReceiptType;
}

/**
 * Receipts in the order they came, one `message_read` per run of receipts that differ only in the message (the network
 * acknowledges several messages in one receipt; Baileys hands them over one per id).
 */
export class ReceiptRun {
  private current?: { receipt: Receipt; ids: string[] };

  constructor(private readonly batch: InboundBatch) {}

  add(receipt: Receipt): void {
    if (this.current && sameRun(this.current.receipt, receipt)) {
      if (!this.current.ids.includes(receipt.messageId)) this.current.ids.push(receipt.messageId);
      return;
    }
    this.flush();
    this.current = { receipt, ids: [receipt.messageId] };
  }

  flush(): void {
    if (!this.current) return;
    const { receipt, ids } = this.current;
    this.current = undefined;
    this.batch.event(
      normalise.messageRead({
        chatId: receipt.chatId,
        reader: receipt.reader,
        messageSender: receipt.messageSender,
        messageIds: ids,
        time: receipt.time,
        receiptType: receipt.receiptType,
      }),
    );
  }
}

/**
 * A 1:1 status change from `messages.update`: the other side received, read or played one of this account's messages,
 * or this account read theirs on another device (`readSelf`). Sent and pending are no receipts.
 */
export function statusReceipt(
  batch: InboundBatch,
  key: WAMessage['key'],
  status: proto.WebMessageInfo.Status,
  time: Date,
): Receipt | undefined {
  const statuses = batch.lib.proto.WebMessageInfo.Status;
  const remote = key.remoteJid ?? '';
  // Groups and broadcasts report receipts per member, through `message-receipt.update`.
  if (!key.id || !remote || batch.lib.isJidGroup(remote) || batch.lib.isJidBroadcast(remote)) return undefined;
  const chatId = chatOf(batch, key);
  if (key.fromMe) {
    const receiptType: ReceiptType | undefined =
      status === statuses.DELIVERY_ACK
        ? 'delivered'
        : status === statuses.READ
          ? 'read'
          : status === statuses.PLAYED
            ? 'played'
            : undefined;
    if (!receiptType) return undefined;
    return { chatId, reader: batch.who.actor(remote), messageSender: batch.who.self(), messageId: key.id, time, receiptType };
  }
  if (status !== statuses.READ && status !== statuses.PLAYED) return undefined;
  return { chatId, reader: batch.who.self(), messageSender: batch.who.actor(remote), messageId: key.id, time, receiptType: 'readSelf' };
}

/**
 * A group or status receipt: one member received, read or played a message (played lands in `readTimestamp` in rc14).
 * `writer`: who wrote the message; the receipt's key names the reader, not the writer.
 */
export function userReceipt(batch: InboundBatch, key: WAMessage['key'], receipt: proto.IUserReceipt, writer?: Actor): Receipt | undefined {
  if (!key.id || !receipt.userJid) return undefined;
  const played = fromSeconds(receipt.playedTimestamp);
  const read = fromSeconds(receipt.readTimestamp);
  const delivered = fromSeconds(receipt.receiptTimestamp);
  const time = played ?? read ?? delivered;
  if (!time) return undefined;
  const self = batch.who.isSelf(receipt.userJid);
  const receiptType: ReceiptType = self ? 'readSelf' : played ? 'played' : read ? 'read' : 'delivered';
  return {
    chatId: chatOf(batch, key),
    reader: batch.who.actor(receipt.userJid),
    messageSender: writer,
    messageId: key.id,
    time,
    receiptType,
  };
}

/** `message-receipt.update`: receipts in groups and on status posts, one per member and message. */
export async function mapMessageReceipts(batch: InboundBatch, receipts: BaileysEvents['message-receipt.update']): Promise<void> {
  const run = new ReceiptRun(batch);
  for (const { key, receipt } of receipts) {
    const writer = key.fromMe ? batch.who.self() : await authorOf(batch, { remoteJid: key.remoteJid, id: key.id, fromMe: false });
    const mapped = userReceipt(batch, key, receipt, writer);
    if (mapped) run.add(mapped);
  }
  run.flush();
}

/**
 * Receipts that reached one of this account's messages while Baileys still buffered it: the buffer folds a
 * `messages.update` status, or a group's user receipts, into the message itself instead of emitting them.
 */
export function ownMessageReceipts(batch: InboundBatch, message: WAMessage): void {
  const run = new ReceiptRun(batch);
  if (typeof message.status === 'number') {
    const receipt = statusReceipt(batch, message.key, message.status, fromSeconds(message.messageTimestamp) ?? new Date());
    if (receipt) run.add(receipt);
  }
  for (const received of message.userReceipt ?? []) {
    const receipt = userReceipt(batch, message.key, received, batch.who.self());
    if (receipt) run.add(receipt);
  }
  run.flush();
}

function sameRun(a: Receipt, b: Receipt): boolean {
  return (
    a.chatId === b.chatId &&
    a.reader.jid === b.reader.jid &&
    a.messageSender?.jid === b.messageSender?.jid &&
    a.time.getTime() === b.time.getTime() &&
    a.receiptType === b.receiptType
  );
}
