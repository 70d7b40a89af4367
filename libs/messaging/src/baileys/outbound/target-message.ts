import { jidKind, PermanentSendError, type MessageActionKind, type OutboundMessage } from '@app/contracts';
import type { BaileysContext } from '../baileys-context';
import type { WAMessageKey } from '../baileys-library';
import { protocolKey, int64, storedMessage } from './network-store';
import { isSelf } from './self-identity';

/** The message an operation acts on. */
export interface TargetMessage {
  key: WAMessageKey;
  /** When it was sent, in unix seconds, if known. */
  timestamp?: number;
}

type ActionMessage = OutboundMessage<MessageActionKind>;

function requestTimestamp(message: ActionMessage): number | undefined {
  const text = message.kind === 'delete_for_me' ? message.payload.timestamp : undefined;
  const millis = text ? Date.parse(text) : NaN;
  return Number.isNaN(millis) ? undefined : Math.floor(millis / 1000);
}

/**
 * Finds the message an operation targets. A message this instance keeps gives its exact key: whether it is ours, and
 * its author in the form the group addresses them (LID or phone number). Older messages are no longer kept but the
 * network still knows them, so their key is built from what the request says: chat, id and author (`senderId`, or
 * `isFromMe`; edits are always of our own messages). Only a request that cannot tell who wrote the message, or which
 * member in a group, fails for good.
 */
export async function targetMessage(context: BaileysContext, message: ActionMessage): Promise<TargetMessage> {
  const id = message.payload.targetId;
  const chatJid = message.chatJid;
  const stored = await storedMessage(context, chatJid, id);
  if (stored) return { key: protocolKey(stored.key), timestamp: int64(stored.messageTimestamp) ?? requestTimestamp(message) };

  const senderId = 'senderId' in message.payload ? message.payload.senderId : undefined;
  const isFromMe = message.kind === 'delete_for_me' ? message.payload.isFromMe : undefined;
  const fromMe = senderId ? isSelf(context, senderId) : (isFromMe ?? (message.kind === 'edit' ? true : undefined));
  const group = jidKind(chatJid) === 'group';
  if (fromMe === undefined || (group && !fromMe && !senderId)) {
    throw new PermanentSendError(`message ${id} of ${chatJid} is no longer kept and the request does not say who sent it (senderId)`);
  }
  return {
    key: { remoteJid: chatJid, fromMe, id, ...(group && !fromMe ? { participant: senderId } : {}) },
    timestamp: requestTimestamp(message),
  };
}
