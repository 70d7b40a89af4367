import type { WAPresence } from '@whiskeysockets/baileys';
import { Injectable } from '@nestjs/common';
import { AppError, type ChatOperations, type ChatPresenceState, type EphemeralTimer } from '@app/contracts';
import { ChatStoreRepository } from '@app/database';
import { chatIdentities } from '../lid-mapping';
import { businessProfileOf } from './business-profile';
import { keyOf, lastMessages, rangeOf, recentMessages } from './chat-ranges';
import { isGroupJid, isLidJid, isPhoneJid } from './jids';
import { UNSEEN, refused } from './network-errors';
import type { BaileysOperationHandlers } from './operation-handlers';
import { pictureOf } from './pictures';

/** The network lets an account pin at most this many chats; the phone enforces it, app-state patches do not. */
const MAX_PINNED_CHATS = 3;

/** Baileys' `fetchMessageHistory` asks the phone for at most this many messages at a time. */
const HISTORY_REQUEST_LIMIT = 50;

/** WhatsApp's mute value for "until unmuted". */
const MUTED_FOREVER = -1;

const EPHEMERAL_SECONDS: Record<EphemeralTimer, number> = { off: 0, '24h': 86_400, '7d': 604_800, '90d': 7_776_000 };

const PRESENCE: Record<ChatPresenceState, WAPresence> = { typing: 'composing', recording: 'recording', paused: 'paused' };

/**
 * Chat settings are app-state patches (`chatModify`): the phone and every linked device apply them, and the
 * socket's own `chats.update` follows, so these operations emit no events themselves.
 */
@Injectable()
export class BaileysChatOperations {
  constructor(private readonly chats: ChatStoreRepository) {}

  readonly handlers: BaileysOperationHandlers<ChatOperations> = {
    'chats.archive': async (context, { chatId, archived }) => {
      await context.socket.chatModify({ archive: archived, lastMessages: await lastMessages(context, chatId) }, chatId);
      return {};
    },

    'chats.mute': async ({ socket }, { chatId, muted, until }) => {
      await socket.chatModify({ mute: muted ? muteEnd(until) : null }, chatId);
      return {};
    },

    'chats.pin': async ({ instanceId, socket }, { chatId, pinned }) => {
      if (pinned) {
        const others = (await this.chats.list(instanceId)).filter((chat) => chat.pinned && chat.jid !== chatId);
        if (others.length >= MAX_PINNED_CHATS) throw AppError.validation(`at most ${MAX_PINNED_CHATS} chats can be pinned at a time`);
      }
      await socket.chatModify({ pin: pinned }, chatId);
      return {};
    },

    'chats.read': async (context, { chatId, read }) => {
      const records = await recentMessages(context, chatId);
      await context.socket.chatModify({ markRead: read, lastMessages: rangeOf(records) }, chatId);
      // Reading a chat on the phone also tells its senders; the network keeps no unread state to ask, so receipts
      // go for the received messages the store still holds (repeating one for a read message changes nothing).
      const received = records.filter((record) => !record.fromMe).map(keyOf);
      if (read && received.length > 0) await context.socket.readMessages(received);
      return {};
    },

    'chats.ephemeral': async ({ socket }, { chatId, expiration }) => {
      const seconds = EPHEMERAL_SECONDS[expiration];
      if (isGroupJid(chatId)) await refused(socket.groupToggleEphemeral(chatId, seconds), { forbidden: 'not a group admin' });
      else await socket.sendMessage(chatId, { disappearingMessagesInChat: seconds });
      return {};
    },

    'chats.delete': async (context, { chatId }) => {
      await context.socket.chatModify({ delete: true, lastMessages: await lastMessages(context, chatId) }, chatId);
      // The chat is gone from every device: its stored messages would only feed quotes and ranges of a chat that
      // no longer exists.
      await context.messages.forgetChat(context.instanceId, await chatIdentities(context, chatId));
      return {};
    },

    'chats.clear': async (context, { chatId }) => {
      await context.socket.chatModify({ clear: true, lastMessages: await lastMessages(context, chatId) }, chatId);
      return {};
    },

    'chats.presence': async ({ socket }, { chatId, state }) => {
      await socket.sendPresenceUpdate(PRESENCE[state], chatId);
      return {};
    },

    'chats.subscribePresence': async ({ socket }, { chatId }) => {
      await socket.presenceSubscribe(chatId);
      return {};
    },

    'chats.requestHistory': async (context, { chatId, lastMessageId, lastMessageSenderId, count }) => {
      // The phone finds the anchor by key and time; without the stored message there is no time to give it.
      const anchor = await context.messages.find(context.instanceId, lastMessageId, await chatIdentities(context, chatId));
      if (!anchor) throw new AppError('not_found');
      const key = keyOf(anchor);
      if (isGroupJid(chatId) && !key.fromMe && !key.participant) key.participant = lastMessageSenderId;
      // One request carries at most 50; the contract promises "up to count", and the next anchor is only known
      // once these arrive, so a larger count is asked as 50.
      await context.socket.fetchMessageHistory(Math.min(count, HISTORY_REQUEST_LIMIT), key, anchor.sentAt.getTime());
      return {};
    },

    'chats.picture': async (context, { chatId }) => pictureOf(context, chatId),

    'chats.businessProfile': async ({ socket }, { chatId }) => {
      if (!isPhoneJid(chatId) && !isLidJid(chatId)) throw new AppError('not_found');
      const profile = await refused(socket.getBusinessProfile(chatId), UNSEEN);
      if (!profile) throw new AppError('not_found');
      return businessProfileOf(chatId, profile);
    },
  };
}

/** Baileys puts the value straight into the patch's `muteEndTimestamp`: an absolute time in epoch milliseconds. */
function muteEnd(until: string | undefined): number {
  if (until === undefined) return MUTED_FOREVER;
  const end = Date.parse(until);
  if (Number.isNaN(end)) throw AppError.validation('until must be an ISO time');
  return end;
}
