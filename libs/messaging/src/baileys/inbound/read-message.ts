import type { proto } from '@whiskeysockets/baileys';
import type { Actor, MessageInput } from '../../events/normalise';
import type { WAMessage } from '../baileys-library';
import { bufferJson } from '../buffer-json';
import type { InboundBatch } from './inbound-batch';
import { offeredBy, type Offered } from './interactive-replies';
import { quotedText, readContent, type ContentReading } from './message-content';
import { chatOf, storedAuthor, writerOf } from './people';
import { fromMillis, fromSeconds, toNumber } from './timestamps';

/** What one network message means for the gateway. */
export type ReadMessage =
  | { kind: 'message'; input: MessageInput }
  /** `editedAt`: the edit's time in whole seconds, as Baileys repeats it in `messages.update`. */
  | { kind: 'edit'; input: MessageInput; targetId: string; editedAt?: number }
  | { kind: 'revoke'; targetId: string; chatId: string; author: Actor; time: Date }
  | { kind: 'ephemeral'; chatId: string; seconds: number; by: Actor }
  | { kind: 'ignored'; reason: string; keep: boolean };

interface Envelope {
  id: string;
  chatId: string;
  sender: Actor;
  time: Date;
}

const VIEW_ONCE_WRAPPERS = ['viewOnceMessage', 'viewOnceMessageV2', 'viewOnceMessageV2Extension'] as const;

export async function readMessage(batch: InboundBatch, message: WAMessage): Promise<ReadMessage> {
  const key = message.key;
  const envelope: Envelope = {
    id: key.id ?? '',
    chatId: chatOf(batch, key),
    sender: writerOf(batch, message),
    time: fromSeconds(message.messageTimestamp) ?? new Date(),
  };
  const content = batch.lib.normalizeMessageContent(message.message);
  const reading = readContent(batch.lib, content, { mediaId: envelope.id, offered: await offered(batch, message, content) });
  switch (reading.kind) {
    case 'content':
    case 'reply':
      return { kind: 'message', input: { ...input(batch, envelope, reading), viewOnce: viewOnce(message, content) || undefined } };
    case 'edit':
      return edit(batch, message, envelope, reading);
    case 'revoke':
      return revoke(batch, message, envelope, reading.target);
    case 'ephemeral':
      return { kind: 'ephemeral', chatId: envelope.chatId, seconds: reading.seconds, by: envelope.sender };
    case 'ignored':
      return reading;
  }
}

/** A message event's input from content that is a message (not an edit, revoke or setting). */
function input(batch: InboundBatch, envelope: Envelope, reading: Extract<ContentReading, { kind: 'content' | 'reply' }>): MessageInput {
  if (reading.kind === 'reply') {
    // The contract's interactive replies name only the message answered.
    const answers = reading.reply.answers;
    return { ...envelope, content: reading.reply.content, replyTo: answers ? { id: answers } : undefined };
  }
  const info = reading.info;
  const expiration = info?.expiration ?? 0;
  return {
    ...envelope,
    content: reading.content,
    isForwarded: info?.isForwarded || undefined,
    mentions: info?.mentionedJid?.length ? info.mentionedJid.map((jid) => batch.who.chatId(jid)) : undefined,
    replyTo: info?.stanzaId
      ? {
          id: info.stanzaId,
          sender: info.participant ? batch.who.actor(info.participant) : undefined,
          text: quotedText(batch.lib, info.quotedMessage),
        }
      : undefined,
    ephemeralSeconds: expiration > 0 ? expiration : undefined,
  };
}

async function edit(
  batch: InboundBatch,
  message: WAMessage,
  envelope: Envelope,
  reading: Extract<ContentReading, { kind: 'edit' }>,
): Promise<ReadMessage> {
  const edited = readContent(batch.lib, batch.lib.normalizeMessageContent(reading.edited), { mediaId: reading.targetId });
  if (edited.kind !== 'content' && edited.kind !== 'reply') return { kind: 'ignored', reason: `edit to ${edited.kind}`, keep: true };
  const editedAtMs = toNumber(reading.editedAtMs);
  const editedAt = editedAtMs ? Math.floor(editedAtMs / 1000) : toNumber(message.messageTimestamp);
  const original = await batch.ledger.find(reading.targetId, [message.key.remoteJid, message.key.remoteJidAlt]);
  const time = fromMillis(editedAtMs) ?? envelope.time;
  return {
    kind: 'edit',
    targetId: reading.targetId,
    editedAt,
    input: {
      ...input(batch, { ...envelope, time }, edited),
      edit: { originalMessageId: reading.targetId, originalTime: original?.sentAt },
    },
  };
}

/**
 * The deleted message's author: the stored copy says; else the revoke's key names the participant when an admin
 * deleted someone else's message, and otherwise the author deleted their own.
 */
async function revoke(batch: InboundBatch, message: WAMessage, envelope: Envelope, target: proto.IMessageKey): Promise<ReadMessage> {
  const targetId = target.id ?? '';
  const stored = await batch.ledger.find(targetId, [message.key.remoteJid, message.key.remoteJidAlt]);
  let author = envelope.sender;
  if (stored) author = await storedAuthor(batch, stored);
  else if (target.participant) author = batch.who.actor(target.participant);
  return { kind: 'revoke', targetId, chatId: envelope.chatId, author, time: envelope.time };
}

/** A native-flow reply does not say whether a row or a button was tapped; the message it answers does. */
async function offered(batch: InboundBatch, message: WAMessage, content: proto.IMessage | undefined): Promise<Offered> {
  const answers = content?.interactiveResponseMessage?.contextInfo?.stanzaId;
  if (!answers) return undefined;
  const stored = await batch.ledger.find(answers, [message.key.remoteJid, message.key.remoteJidAlt]);
  if (!stored) return undefined;
  const original = bufferJson.parse<WAMessage>(stored.data);
  return offeredBy(batch.lib.normalizeMessageContent(original.message));
}

function viewOnce(message: WAMessage, content: proto.IMessage | undefined): boolean {
  if (message.key.isViewOnce) return true;
  if (VIEW_ONCE_WRAPPERS.some((wrapper) => message.message?.[wrapper])) return true;
  return !!(content?.imageMessage?.viewOnce || content?.videoMessage?.viewOnce || content?.audioMessage?.viewOnce);
}
