import type { ChatDto, LoggedMessage } from '../api/peer-types';

export interface ChatSummary {
  id: string;
  name: string;
  chat?: ChatDto;
  last?: LoggedMessage;
  /** Incoming messages since the account last wrote in the chat. */
  unread: number;
  activity: string | undefined;
}

export const phoneOf = (jid: string) => jid.replace(/@.*$/, '').replace(/:\d+$/, '');

export function chatName(id: string, chat?: ChatDto): string {
  if (chat?.fullName) return chat.fullName;
  if (chat?.pushName) return chat.pushName;
  if (chat?.businessName) return chat.businessName;
  return id.endsWith('@s.whatsapp.net') ? `+${phoneOf(id)}` : phoneOf(id);
}

/**
 * The chat list: every chat the instance knows, plus any the loaded history mentions, with its newest message and
 * how many came in since the account's last message there, most recent first.
 */
export function summarizeChats(chats: ChatDto[], messages: LoggedMessage[]): ChatSummary[] {
  const byChat = new Map<string, LoggedMessage[]>();
  for (const item of messages) {
    if (item.message.isStatus) continue;
    const list = byChat.get(item.message.chatId) ?? [];
    list.push(item);
    byChat.set(item.message.chatId, list);
  }
  const ids = new Set([...chats.map((chat) => chat.id), ...byChat.keys()]);
  const known = new Map(chats.map((chat) => [chat.id, chat]));
  return [...ids]
    .map((id) => {
      // Newest first, as the log pages are.
      const history = (byChat.get(id) ?? []).sort((a, b) => b.seq - a.seq);
      const lastOwn = history.findIndex((item) => item.message.sender.isMe);
      const incoming = (lastOwn === -1 ? history : history.slice(0, lastOwn)).filter((item) => item.message.type !== 'reaction');
      const chat = known.get(id);
      const last = history[0];
      return {
        id,
        name: chatName(id, chat),
        chat,
        last,
        unread: incoming.length,
        activity: last ? last.message.time || last.receivedAt : chat?.lastActivity,
      };
    })
    .sort((a, b) => (b.activity ?? '').localeCompare(a.activity ?? ''));
}
