import type { ChatPresenceState, EphemeralTimer } from '../event-payloads';
import type { Operation } from './common';

/** A profile or group picture as the network serves it. */
export interface ChatPicture {
  pictureId: string;
  pictureUrl: string;
}

/** What a business shows on its profile; fields the business did not fill in are left out. */
export interface BusinessProfile {
  id: string;
  description?: string;
  address?: string;
  email?: string;
  website?: string;
  latitude?: number;
  longitude?: number;
  memberSince?: string;
  categories?: { id: string; name: string }[];
  businessHours?: { dayOfWeek: string; mode: string; openTime?: string; closeTime?: string }[];
  businessHoursTimeZone?: string;
}

/** Chat operations of the network (the owner's own view of a chat, synced to all its devices). */
export interface ChatOperations {
  'chats.archive': Operation<{ chatId: string; archived: boolean }>;
  /** `until` (ISO time) is when the mute ends; left out while muted means until unmuted. */
  'chats.mute': Operation<{ chatId: string; muted: boolean; until?: string }>;
  'chats.pin': Operation<{ chatId: string; pinned: boolean }>;
  'chats.read': Operation<{ chatId: string; read: boolean }>;
  'chats.ephemeral': Operation<{ chatId: string; expiration: EphemeralTimer }>;
  /** Removes the chat and its messages from every device of the account. */
  'chats.delete': Operation<{ chatId: string }>;
  /** Removes the chat's messages from every device of the account; the chat itself stays. */
  'chats.clear': Operation<{ chatId: string }>;
  /** What this account shows the chat: typing, recording a voice note, or stopped. */
  'chats.presence': Operation<{ chatId: string; state: ChatPresenceState }>;
  /** Asks the network to report the person's online status (`user_presence`) from now on. */
  'chats.subscribePresence': Operation<{ chatId: string }>;
  /**
   * Asks the phone for up to `count` messages older than the given one; they arrive later as
   * `message_history_sync` events.
   */
  'chats.requestHistory': Operation<{ chatId: string; lastMessageId: string; lastMessageSenderId: string; count: number }>;
  /** Fails with not_found when there is no picture or its owner hides it from this account. */
  'chats.picture': Operation<{ chatId: string }, ChatPicture>;
  /** Fails with not_found when the account is not a business. */
  'chats.businessProfile': Operation<{ chatId: string }, BusinessProfile>;
}
