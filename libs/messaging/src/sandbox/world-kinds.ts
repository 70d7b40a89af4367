/** Kinds of the simulated network's keyed documents (SandboxWorldRepository) kept for people, keyed by user JID. */
export const WORLD_KINDS = {
  /** A business account's public profile. */
  businessProfile: 'business-profile',
  /** A person's current profile picture and whether they hide it from this account. */
  profilePicture: 'profile-picture',
  /** People this account blocked. */
  blocklist: 'blocklist',
  /** Address-book details the contacts table has no column for (first names). */
  addressBook: 'address-book',
} as const;

export interface StoredBusinessProfile {
  name: string;
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

export interface StoredProfilePicture {
  pictureId: string;
  hidden: boolean;
}

export interface StoredBlock {
  at: string;
}

export interface StoredAddressBookDetails {
  firstName?: string;
}
