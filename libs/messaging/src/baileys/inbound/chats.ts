import type { ChatFact } from '@app/contracts';
import { normalise, type ChatSettingInput } from '../../events/normalise';
import type { BaileysEvents } from '../baileys-library';
import type { InboundBatch } from './inbound-batch';
import { fromSeconds, toNumber, type ProtoInteger } from './timestamps';

type ChatUpdate = BaileysEvents['chats.update'][number];

/** `chats.upsert` (and history sync's chats): the phone's chat list, learned as facts. */
export function mapChatList(batch: InboundBatch, chats: ChatUpdate[]): void {
  const listed = chats.filter((chat): chat is ChatUpdate & { id: string } => !!chat.id && isChat(batch, chat.id));
  batch.learnChats(listed.map((chat) => chatFact(batch, chat)));
}

/**
 * `chats.update`: the phone archived, pinned, muted or marked a chat read or unread (`chat_setting` events). Baileys
 * also reports every message's effect on its chat here (`conversationTimestamp`, a growing `unreadCount`, and, with
 * "keep chats archived" off, `archived: false`); those are no settings changed on the phone, so an entry carrying
 * message activity gives its `archived` to the store as a fact instead of an event. Disappearing-message changes are
 * reported from their own message.
 */
export function mapChatUpdates(batch: InboundBatch, updates: ChatUpdate[]): void {
  for (const update of updates) {
    if (!update.id || !isChat(batch, update.id)) continue;
    const chatId = batch.who.chatId(update.id);
    const settings: ChatSettingInput[] = [];
    const activity = update.conversationTimestamp !== undefined || update.messages !== undefined;
    if (typeof update.archived === 'boolean' && activity) batch.learnChats([chatFact(batch, { id: update.id, archived: update.archived })]);
    else if (typeof update.archived === 'boolean') settings.push({ type: 'archive', archived: update.archived });
    if ('pinned' in update) settings.push({ type: 'pin', pinned: !!update.pinned });
    if ('muteEndTime' in update) {
      const mute = muteOf(update.muteEndTime);
      settings.push({ type: 'mute', muted: mute.muted, until: mute.until });
    }
    // Marked read is 0, marked unread -1; a message's increment is positive and an initial-sync "read" is null.
    if (update.unreadCount === 0 || update.unreadCount === -1) settings.push({ type: 'read', read: update.unreadCount === 0 });
    for (const setting of settings) batch.event(normalise.chatSetting({ chatId, setting }));
  }
}

function chatFact(batch: InboundBatch, chat: ChatUpdate & { id: string }): ChatFact {
  const party = batch.who.party(chat.id);
  const fact: ChatFact = { jid: party.jid, ...(party.lid ? { lid: party.lid } : {}), isGroup: batch.lib.isJidGroup(chat.id) === true };
  if (typeof chat.archived === 'boolean') fact.archived = chat.archived;
  if ('pinned' in chat) fact.pinned = !!chat.pinned;
  if ('muteEndTime' in chat) {
    const mute = muteOf(chat.muteEndTime);
    fact.muted = mute.muted;
    fact.muteEndTime = mute.until ? mute.until.toISOString() : null;
  }
  if (typeof chat.unreadCount === 'number' || chat.markedAsUnread) fact.read = !chat.markedAsUnread && (chat.unreadCount ?? 0) <= 0;
  if (typeof chat.ephemeralExpiration === 'number') fact.ephemeralSeconds = chat.ephemeralExpiration;
  const lastActivity = fromSeconds(chat.conversationTimestamp ?? chat.lastMessageRecvTimestamp);
  if (lastActivity) fact.lastActivity = lastActivity.toISOString();
  return fact;
}

/**
 * A mute's end as the phone states it: absent, null or 0 when not muted, -1 for "always", otherwise a time (the app
 * state gives milliseconds, older chat lists seconds). A mute that already ended is no mute.
 */
function muteOf(value: ProtoInteger): { muted: boolean; until?: Date } {
  const end = toNumber(value);
  if (!end) return { muted: false };
  if (end < 0) return { muted: true };
  const until = new Date(end > 1e11 ? end : end * 1000);
  return until.getTime() > Date.now() ? { muted: true, until } : { muted: false };
}

/** People and groups have chats in the store; broadcasts and channels do not. */
function isChat(batch: InboundBatch, jid: string): boolean {
  const { lib } = batch;
  return !!(lib.isJidGroup(jid) || lib.isLidUser(jid) || lib.isPnUser(jid));
}
