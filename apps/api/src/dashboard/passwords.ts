import { hash, verify } from '@node-rs/argon2';
import { AppError } from '@app/contracts';
import { COMMON_PASSWORDS_TEXT } from './common-passwords';

export const MIN_PASSWORD_LENGTH = 12;
export const MAX_PASSWORD_LENGTH = 1024;

const COMMON = new Set(COMMON_PASSWORDS_TEXT.split('\n'));
/** Runs people type to reach a length: `123456789012`, `987654321098`, `abcdefghijkl`. */
const RUNS = ['0123456789'.repeat(4), 'abcdefghijklmnopqrstuvwxyz'.repeat(2)].flatMap((run) => [run, [...run].reverse().join('')]);
/** Argon2id (`@node-rs/argon2`'s `Algorithm.Argon2id`, a const enum) with its defaults: m=19456 KiB, t=2, p=1 (OWASP's choice). */
const ARGON2ID = 2;

/**
 * A common password, or one built from a common password the way people lengthen them: digits or symbols around it,
 * or repeated (`password2024!`, `qwertyqwerty`). Also anything of fewer than four distinct characters, and plain runs.
 */
export function isCommonPassword(password: string): boolean {
  const lower = password.toLowerCase();
  if (COMMON.has(lower) || new Set(lower).size < 4 || RUNS.some((run) => run.includes(lower))) return true;
  const core = lower.replace(/^[\d\W_]+|[\d\W_]+$/g, '');
  if (core.length > 0 && COMMON.has(core)) return true;
  for (let size = 1; size <= lower.length / 2; size += 1) {
    if (lower.length % size === 0 && lower.slice(0, size).repeat(lower.length / size) === lower && COMMON.has(lower.slice(0, size)))
      return true;
  }
  return false;
}

/** 400 unless the password is long enough and not common. Never echoes the password. */
export function assertAcceptablePassword(password: string): void {
  if ([...password].length < MIN_PASSWORD_LENGTH) throw AppError.validation(`password must be at least ${MIN_PASSWORD_LENGTH} characters`);
  if (isCommonPassword(password)) throw AppError.validation('password is too common');
}

export function hashPassword(password: string): Promise<string> {
  return hash(password, { algorithm: ARGON2ID });
}

let decoy: Promise<string> | undefined;

/**
 * Whether the password matches the stored hash. Without a hash (no such user, or invite not accepted) a decoy hash is
 * verified all the same, so the answer takes as long as for a real account and does not tell which emails exist.
 */
export async function passwordMatches(storedHash: string | null, password: string): Promise<boolean> {
  decoy ??= hashPassword('decoy password that matches no account');
  const matches = await verify(storedHash ?? (await decoy), password).catch(() => false);
  return storedHash !== null && matches;
}
