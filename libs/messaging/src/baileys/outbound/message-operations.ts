import type { AnyMessageContent, ChatModification, MessageReceiptType } from '@whiskeysockets/baileys';
import { jidKind, PermanentSendError, type MessageKind, type OutboundMessage } from '@app/contracts';
import type { BaileysContext } from '../baileys-context';
import type { WAMessageKey } from '../baileys-library';
import { keepSent } from './network-store';
import { flag, optionalText, requiredText, texts } from './payload-fields';
import { targetMessage, type TargetMessage } from './target-message';

type Operation = (context: BaileysContext, message: OutboundMessage, target: TargetMessage) => Promise<void>;

/** Pin durations the network offers, in seconds (Baileys' `time`). */
const PIN_SECONDS = new Map<string, 86_400 | 604_800 | 2_592_000>([
  ['24h', 86_400],
  ['7d', 604_800],
  ['30d', 2_592_000],
]);

/** Receipts other than `read`; `delivered` is the receipt without a type. */
const RECEIPT_TYPES = new Map<string, MessageReceiptType>([
  ['delivered', undefined],
  ['sender', 'sender'],
  ['played', 'played'],
]);

/** Edits, revokes, reactions and pins are messages too: sent under our id and kept for retry receipts. */
async function sendOperation(context: BaileysContext, message: OutboundMessage, content: AnyMessageContent): Promise<void> {
  context.sent?.add(message.id);
  const sent = await context.socket.sendMessage(message.chatJid, content, { messageId: message.id });
  if (sent) await keepSent(context, sent);
}

const edit: Operation = async (context, message, target) => {
  if (!target.key.fromMe) {
    throw new PermanentSendError(`message ${target.key.id} was not sent by this instance; only own messages are edited`);
  }
  const mentions = texts(message.payload, 'mentions');
  await sendOperation(context, message, {
    text: requiredText(message.payload, 'text'),
    linkPreview: null,
    edit: target.key,
    ...(mentions ? { mentions } : {}),
  });
};

/**
 * Someone else's message can only be revoked in a group, by an admin: Baileys sends that as an admin revoke
 * (`edit="8"`) because the key is not ours, and the key's `participant` names the author.
 */
const revoke: Operation = async (context, message, target) => {
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
const deleteForMe: Operation = async (context, message, target) => {
  if (target.timestamp === undefined) {
    throw new PermanentSendError(`message ${target.key.id} is no longer kept; give its timestamp to delete it for me`);
  }
  // The files the phone saved stay: the request removes the message from the chat, not the user's media.
  const mod = { deleteForMe: { deleteMedia: false, key: target.key, timestamp: target.timestamp } };
  await messagePatch(context, mod, message.chatJid, target.key);
};

/** An empty reaction removes ours. */
const react: Operation = async (context, message, target) => {
  await sendOperation(context, message, { react: { text: optionalText(message.payload, 'reaction') ?? '', key: target.key } });
};

const read: Operation = async (context, message, target) => {
  if (target.key.fromMe) {
    throw new PermanentSendError(`message ${target.key.id} was sent by this instance; only received messages are read`);
  }
  const receiptType = optionalText(message.payload, 'receiptType') ?? 'read';
  if (receiptType === 'read') {
    // Sends `read` or `read-self` depending on the account's read-receipt privacy setting, as the phone does.
    await context.socket.readMessages([target.key]);
    return;
  }
  if (!RECEIPT_TYPES.has(receiptType)) throw new PermanentSendError(`unknown receipt type ${receiptType}`);
  await context.socket.sendReceipts([target.key], RECEIPT_TYPES.get(receiptType));
};

const star: Operation = async (context, message, target) => {
  const messages = [{ id: target.key.id ?? '', fromMe: target.key.fromMe ?? false }];
  await messagePatch(context, { star: { messages, star: flag(message.payload, 'starred') ?? true } }, message.chatJid, target.key);
};

const pin: Operation = async (context, message, target) => {
  const types = context.lib.proto.PinInChat.Type;
  if (flag(message.payload, 'pinned') === false) {
    await sendOperation(context, message, { pin: target.key, type: types.UNPIN_FOR_ALL });
    return;
  }
  const expiration = optionalText(message.payload, 'pinExpiration') ?? '7d';
  const time = PIN_SECONDS.get(expiration);
  if (!time) throw new PermanentSendError(`unknown pin duration ${expiration}`);
  await sendOperation(context, message, { pin: target.key, type: types.PIN_FOR_ALL, time });
};

const OPERATIONS: Partial<Record<MessageKind, Operation>> = {
  edit,
  delete: revoke,
  delete_for_me: deleteForMe,
  reaction: react,
  read,
  star,
  pin,
};

export function isOperation(kind: MessageKind): boolean {
  return OPERATIONS[kind] !== undefined;
}

/** Carries out an operation on an existing message: edit, delete, reaction, receipt, star or pin. */
export async function performOperation(context: BaileysContext, message: OutboundMessage): Promise<void> {
  const operation = OPERATIONS[message.kind];
  if (!operation) throw new PermanentSendError(`${message.kind} is not a message operation`);
  await operation(context, message, await targetMessage(context, message));
}
