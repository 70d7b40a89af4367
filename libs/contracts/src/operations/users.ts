import type { Operation } from './common';

/** The privacy settings of an account, by the names the network uses for them. */
export const PRIVACY_SETTINGS = ['groupadd', 'last', 'status', 'profile', 'readreceipts', 'online', 'calladd'] as const;
export type PrivacySetting = (typeof PRIVACY_SETTINGS)[number];

/** The values the network accepts for each setting (the phone offers the same choices). */
export const PRIVACY_VALUES: Record<PrivacySetting, readonly string[]> = {
  groupadd: ['all', 'contacts', 'contact_blacklist'],
  last: ['all', 'contacts', 'contact_blacklist', 'none'],
  status: ['all', 'contacts', 'contact_blacklist', 'none'],
  profile: ['all', 'contacts', 'contact_blacklist', 'none'],
  readreceipts: ['all', 'none'],
  online: ['all', 'match_last_seen'],
  calladd: ['all', 'known'],
};

export type PrivacySettings = Record<PrivacySetting, string>;

export const PRESENCES = ['available', 'unavailable'] as const;
export type Presence = (typeof PRESENCES)[number];

/** The account's own profile as its other devices see it. */
export interface OwnProfile {
  jid: string;
  /** The device number of this linked device. */
  device: number;
  pushName?: string;
  status?: string;
  pictureId?: string;
  businessName?: string;
}

/** Another user's profile, as far as their privacy settings show it to this account. */
export interface UserProfile {
  jid: string;
  lid?: string;
  pushName?: string;
  status?: string;
  pictureId?: string;
  pictureUrl?: string;
  businessName?: string;
  isVerified: boolean;
}

/** One number asked about: its JID when it is registered on the network. */
export interface NumberCheck {
  phone: string;
  exists: boolean;
  jid?: string;
}

/** The account itself (profile, presence, privacy) and what it may learn about other users. */
export interface UserOperations {
  'users.ownProfile': Operation<Record<string, never>, OwnProfile>;
  /** `picture` is a JPEG, base64-encoded. */
  'users.updateProfile': Operation<{ name?: string; status?: string; picture?: string }>;
  'users.setPresence': Operation<{ presence: Presence }>;
  'users.privacy': Operation<Record<string, never>, PrivacySettings>;
  'users.setPrivacy': Operation<{ setting: PrivacySetting; value: string }, PrivacySettings>;
  /** `phones` are digits only, international format. */
  'users.check': Operation<{ phones: string[] }, { results: NumberCheck[] }>;
  /** Unknown to the network: not_found. */
  'users.profile': Operation<{ jid: string }, UserProfile>;
}
