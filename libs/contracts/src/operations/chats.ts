import type { Operation } from './common';

/** Chat operations of the network (the owner's own view of a chat, synced to all its devices). */
export interface ChatOperations {
  'chats.archive': Operation<{ chatId: string; archived: boolean }>;
}
