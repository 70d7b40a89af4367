import type { Operation } from './common';

/** A channel as the network describes it to this account; the viewer fields are left out when it does not follow it. */
export interface NewsletterInfo {
  id: string;
  name: string;
  description: string;
  subscriberCount: number;
  verificationState: 'VERIFIED' | 'UNVERIFIED';
  state: 'ACTIVE' | 'SUSPENDED';
  createdAt: string;
  inviteCode?: string;
  pictureUrl?: string;
  /** This account's role: OWNER, ADMIN or SUBSCRIBER. */
  role?: string;
  mute?: 'MUTED' | 'UNMUTED';
}

/**
 * Channel (newsletter) operations. They map onto Baileys' newsletterCreate, newsletterMetadata('invite' | 'jid'),
 * newsletterFollow / newsletterUnfollow and newsletterMute / newsletterUnmute.
 */
export interface NewsletterOperations {
  'newsletters.followed': Operation<Record<string, never>, { newsletters: NewsletterInfo[] }>;
  'newsletters.create': Operation<{ name: string; description?: string; picture?: string }, NewsletterInfo>;
  'newsletters.metadata': Operation<{ by: 'invite' | 'jid'; key: string }, NewsletterInfo>;
  'newsletters.subscription': Operation<{ id: string; subscribed: boolean }>;
  'newsletters.mute': Operation<{ id: string; muted: boolean }>;
}
