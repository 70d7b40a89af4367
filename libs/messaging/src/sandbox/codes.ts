import { randomBytes, randomInt } from 'node:crypto';

const PAIR_ALPHABET = 'ABCDEFGHJKLMNPQRSTVWXYZ23456789';

/** Same shape as the real network's QR payload: `<ref>,<noise key>,<identity key>,<adv secret>`. */
export function sandboxQrCode(): string {
  const part = (bytes: number) => randomBytes(bytes).toString('base64');
  return [`2@${part(36)}`, part(32), part(32), part(32)].join(',');
}

/** `XXXX-XXXX`, like the code the phone asks for when linking with a phone number. */
export function sandboxPairCode(): string {
  const chars = Array.from({ length: 8 }, () => PAIR_ALPHABET[randomInt(PAIR_ALPHABET.length)]);
  return `${chars.slice(0, 4).join('')}-${chars.slice(4).join('')}`;
}

export function groupJid(): string {
  return `120363${randomInt(100_000_000, 999_999_999)}${randomInt(100_000, 999_999)}@g.us`;
}

export function inviteCode(): string {
  return randomBytes(16).toString('base64url').slice(0, 22);
}

export function randomPhone(): string {
  return `1555${randomInt(1_000_000, 9_999_999)}`;
}

/** What a client would pass to download a file the simulated network carried. */
export function mediaId(): string {
  return randomBytes(24).toString('base64url');
}

/** Call ids as the network gives them: 32 upper-case hex digits. */
export function callId(): string {
  return randomBytes(16).toString('hex').toUpperCase();
}

export function newsletterJid(): string {
  return `120363${randomInt(100_000_000, 999_999_999)}${randomInt(100_000, 999_999)}@newsletter`;
}

/** Profile picture ids are numeric strings. */
export function pictureId(): string {
  return String(randomInt(1_000_000_000, 2_000_000_000));
}

/** Channel invite codes: the `0029Va` prefix the network uses, then 18 letters and digits. */
export function channelInviteCode(): string {
  const alphabet = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789';
  return `0029Va${Array.from({ length: 18 }, () => alphabet[randomInt(alphabet.length)]).join('')}`;
}
