import type { Operation } from './common';

/** Who sees this account's status posts: all contacts, all but `list` (blacklist), or only `list` (whitelist). */
export interface StatusPrivacy {
  type: 'contacts' | 'blacklist' | 'whitelist';
  list: string[];
  isDefault: boolean;
}

/** The file of a media post: base64 bytes, or a public URL the network side downloads (as Baileys does for `{ url }`). */
export type StatusMedia = { data: string } | { url: string };

export type StatusPost =
  { kind: 'text'; text: string } | { kind: 'image' | 'video'; media: StatusMedia; mimeType?: string; caption?: string };

/**
 * Status (stories): messages to `status@broadcast`. A post maps onto Baileys' sendMessage('status@broadcast', content,
 * { messageId, statusJidList }) with the audience the privacy setting allows; a delete onto a revoke of that key.
 */
export interface StatusOperations {
  'status.privacy': Operation<Record<string, never>, { settings: StatusPrivacy[] }>;
  'status.post': Operation<{ id: string; post: StatusPost }, { audience: string[] }>;
  'status.delete': Operation<{ id: string }>;
}
