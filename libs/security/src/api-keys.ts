import { createHash, randomBytes } from 'node:crypto';
import { crc32 } from 'node:zlib';

export type ApiKeyKind = 'customer' | 'instance';

const KIND_PREFIX: Record<ApiKeyKind, string> = { customer: 'mgw_ck_', instance: 'mgw_ik_' };
const BASE62 = '0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz';
const BODY_LENGTH = 43; // 32 random bytes in base62
const CHECKSUM_LENGTH = 6;
const KEY_PATTERN = /^mgw_(ck|ik)_([0-9A-Za-z]{43})([0-9A-Za-z]{6})$/;

export interface IssuedApiKey {
  /** Shown to the caller exactly once. */
  key: string;
  /** SHA-256 (hex) of the key: the only form that is stored. */
  hash: string;
  /** Non-secret beginning of the key, for display and support. */
  prefix: string;
}

function toBase62(bytes: Buffer, length: number): string {
  let value = BigInt(`0x${bytes.toString('hex') || '0'}`);
  let out = '';
  while (out.length < length) {
    out = BASE62[Number(value % 62n)] + out;
    value /= 62n;
  }
  return out;
}

/** Base62 of the body's CRC-32, six digits (what `toBase62` gives for its four bytes, in plain number arithmetic: every request checks one). */
function checksum(body: string): string {
  let value = crc32(body) >>> 0;
  let out = '';
  while (out.length < CHECKSUM_LENGTH) {
    out = BASE62[value % 62] + out;
    value = Math.floor(value / 62);
  }
  return out;
}

export function hashApiKey(key: string): string {
  return createHash('sha256').update(key, 'utf8').digest('hex');
}

export function issueApiKey(kind: ApiKeyKind): IssuedApiKey {
  const body = toBase62(randomBytes(32), BODY_LENGTH);
  const key = `${KIND_PREFIX[kind]}${body}${checksum(body)}`;
  return { key, hash: hashApiKey(key), prefix: key.slice(0, KIND_PREFIX[kind].length + 6) };
}

/** The kind of a syntactically valid key, or undefined: malformed or mistyped keys never reach the database. */
export function apiKeyKind(key: string): ApiKeyKind | undefined {
  const match = KEY_PATTERN.exec(key);
  if (!match || checksum(match[2]) !== match[3]) return undefined;
  return match[1] === 'ck' ? 'customer' : 'instance';
}
