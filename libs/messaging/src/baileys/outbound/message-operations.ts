import type { AnyMessageContent, ChatModification, MessageReceiptType } from '@whiskeysockets/baileys';
import {
  jidKind,
  PermanentSendError,
  type MessageActionKind,
  type OutboundMessage,
  type PinExpiration,
  type SendReceiptType,
} from '@app/contracts';
import type { BaileysContext } from '../baileys-context';
import type { WAMessageKey } from '../baileys-library';
import { keepSent } from './network-store';
import { targetMessage, type TargetMessage } from './target-message';

type Operation<K extends MessageActionKind> = (
  context: BaileysContext,
  message: OutboundMessage<K>,
  target: TargetMessage,
) => Promise<void>;

/** Pin durations the network offers, in seconds (Baileys' `time`). */
const PIN_SECONDS: Record<PinExpiration, 86_400 | 604_800 | 2_592_000> = { '24h': 86_400, '7d': 604_800, '30d': 2_592_000 };

/** Receipts other than `read`; `delivered` is the receipt without a type. */
const RECEIPT_TYPES: Record<Exclude<SendReceiptType, 'read'>, MessageReceiptType> = {
  delivered: undefined,
  sender: 'sender',
  played: 'played',
};

/** Edits, revokes, reactions and pins are messages too: sent under our id and kept for retry receipts. */
async function sendOperation(context: BaileysContext, message: OutboundMessage, content: AnyMessageContent): Promise<void> {
  context.sent?.add(message.id);
  context.acks?.expect(message.id, message.chatJid);
  const sent = await context.socket.sendMessage(message.chatJid, content, { messageId: message.id });
  if (sent) await keepSent(context, sent);
}

const edit: Operation<'edit'> = async (context, message, target) => {
  if (!target.key.fromMe) {
    throw new PermanentSendError(`message ${target.key.id} was not sent by this instance; only own messages are edited`);
  }
  const mentions = message.payload.mentions?.length ? message.payload.mentions : undefined;
  await sendOperation(context, message, {
    text: message.payload.text,
    linkPreview: null,
    edit: target.key,
    ...(mentions ? { mentions } : {}),
  });
};

/**
 * Someone else's message can only be revoked in a group, by an admin: Baileys sends that as an admin revoke
 * (`edit="8"`) because the key is not ours, and the key's `participant` names the author.
 */
const revoke: Operation<'delete'> = async (context, message, target) => {
  if (!target.key.fromMe && jidKind(message.chatJid) !== 'group') {
    throw new PermanentSendError(`message ${target.key.id} was sent by the other person; only group admins delete others' messages`);
  }
  await sendOperation(context, message, { delete: target.key });
};

/**
 * Sends an app-state patch about one message. WhatsApp indexes a message by chat, id, whether it is ours, and, for
 * someone else's group message, its author; rc14's `chatModificationToAppPatch` always writes `'0'` in that last slot
 * (`Utils/chat-utils.js`), which matches no message of another member. Those patches get the author (without device),
 * as WhatsApp's own clients write it; every other one is what Baileys builds.
 */
async function messagePatch(context: BaileysContext, mod: ChatModification, chatJid: string, key: WAMessageKey): Promise<void> {
  const author =
    jidKind(chatJid) === 'group' && !key.fromMe && key.participant ? context.lib.jidNormalizedUser(key.participant) : undefined;
  if (!author) {
    await context.socket.chatModify(mod, chatJid);
    return;
  }
  const patch = context.lib.chatModificationToAppPatch(mod, chatJid);
  await context.socket.appPatch({ ...patch, index: [...patch.index.slice(0, AUTHOR_SLOT), author] });
}

/** The author's position in a message's app-state index: `[action, chat, id, fromMe, author]`. */
const AUTHOR_SLOT = 4;

/** An app-state patch for this account's devices only; the phone matches the message by chat, id, author and time. */
const deleteForMe: Operation<'delete_for_me'> = async (context, message, target) => {
  if (target.timestamp === undefined) {
    throw new PermanentSendError(`message ${target.key.id} is no longer kept; give its timestamp to delete it for me`);
  }
  // The files the phone saved stay: the request removes the message from the chat, not the user's media.
  const mod = { deleteForMe: { deleteMedia: false, key: target.key, timestamp: target.timestamp } };
  await messagePatch(context, mod, message.chatJid, target.key);
};

/** An empty reaction removes ours. */
const react: Operation<'reaction'> = async (context, message, target) => {
  await sendOperation(context, message, { react: { text: message.payload.reaction, key: target.key } });
};

const read: Operation<'read'> = async (context, message, target) => {
  if (target.key.fromMe) {
    throw new PermanentSendError(`message ${target.key.id} was sent by this instance; only received messages are read`);
  }
  const receiptType = message.payload.receiptType ?? 'read';
  if (receiptType === 'read') {
    // Sends `read` or `read-self` depending on the account's read-receipt privacy setting, as the phone does.
    await context.socket.readMessages([target.key]);
    return;
  }
  await context.socket.sendReceipts([target.key], RECEIPT_TYPES[receiptType]);
};

const star: Operation<'star'> = async (context, message, target) => {
  const messages = [{ id: target.key.id ?? '', fromMe: target.key.fromMe ?? false }];
  await messagePatch(context, { star: { messages, star: message.payload.starred ?? true } }, message.chatJid, target.key);
};

const pin: Operation<'pin'> = async (context, message, target) => {
  const types = context.lib.proto.PinInChat.Type;
  if (message.payload.pinned === false) {
    await sendOperation(context, message, { pin: target.key, type: types.UNPIN_FOR_ALL });
    return;
  }
  const time = PIN_SECONDS[message.payload.pinExpiration ?? '7d'];
  await sendOperation(context, message, { pin: target.key, type: types.PIN_FOR_ALL, time });
};

/** Carries out an operation on an existing message: edit, delete, reaction, receipt, star or pin. */
export async function performOperation(context: BaileysContext, message: OutboundMessage<MessageActionKind>): Promise<void> {
  const target = await targetMessage(context, message);
  switch (message.kind) {
    case 'edit':
      return edit(context, message, target);
    case 'delete':
      return revoke(context, message, target);
    case 'delete_for_me':
      return deleteForMe(context, message, target);
    case 'reaction':
      return react(context, message, target);
    case 'read':
      return read(context, message, target);
    case 'star':
      return star(context, message, target);
    case 'pin':
      return pin(context, message, target);
  }
}
