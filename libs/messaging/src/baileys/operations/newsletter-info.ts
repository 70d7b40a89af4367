import type { NewsletterInfo } from '@app/contracts';
import { isoFromSeconds } from './jids';

/** Where the network serves channel pictures from their direct paths (Baileys' `getUrlFromDirectPath`). */
const MEDIA_HOST = 'https://mmg.whatsapp.net';

type Json = Record<string, unknown>;

function record(value: unknown): Json {
  return typeof value === 'object' && value !== null ? (value as Json) : {};
}

function scalar(value: unknown): string | undefined {
  return typeof value === 'string' ? value : typeof value === 'number' ? String(value) : undefined;
}

/** The network wraps names and descriptions as `{ text, id, update_time }`; Baileys' create answer has plain strings. */
function text(value: unknown): string | undefined {
  return typeof value === 'string' ? value : scalar(record(value).text);
}

/**
 * A channel from the network's GraphQL answer (`newsletterMetadata` and the followed list hand it over as it came:
 * `thread_metadata`, `viewer_metadata`, `state`) or from Baileys' parsed `newsletterCreate` answer. The viewer fields
 * are left out for a channel the account does not follow (role GUEST); `known` fills what an answer leaves out but
 * the operation knows (the creator is the owner).
 */
export function newsletterInfoOf(answer: unknown, known: { role?: string } = {}): NewsletterInfo {
  const channel = record(answer);
  const thread = record(channel.thread_metadata);
  const viewer = record(channel.viewer_metadata);
  const picturePath = scalar(record(thread.picture).direct_path) ?? scalar(record(channel.picture).directPath);
  const role = scalar(viewer.role) ?? known.role;
  const following = role !== undefined && role !== 'GUEST';
  const mute = scalar(viewer.mute) ?? scalar(channel.mute_state);
  const invite = scalar(thread.invite) ?? scalar(channel.invite);
  return {
    id: scalar(channel.id) ?? '',
    name: text(thread.name) ?? text(channel.name) ?? '',
    description: text(thread.description) ?? text(channel.description) ?? '',
    subscriberCount: Number(scalar(thread.subscribers_count) ?? scalar(channel.subscribers) ?? 0),
    verificationState: (scalar(thread.verification) ?? scalar(channel.verification)) === 'VERIFIED' ? 'VERIFIED' : 'UNVERIFIED',
    // The network also knows GEOSUSPENDED (suspended in some countries).
    state: /SUSPENDED/.test(scalar(record(channel.state).type) ?? '') ? 'SUSPENDED' : 'ACTIVE',
    createdAt: isoFromSeconds(scalar(thread.creation_time) ?? scalar(channel.creation_time)) ?? new Date(0).toISOString(),
    ...(invite ? { inviteCode: invite } : {}),
    ...(picturePath ? { pictureUrl: `${MEDIA_HOST}${picturePath}` } : {}),
    ...(following ? { role, mute: mute === 'ON' ? 'MUTED' : 'UNMUTED' } : {}),
  };
}
