import { createHash, timingSafeEqual } from 'node:crypto';

/** Constant-time equality of two secrets of any length (compares their SHA-256 digests). */
export function secretsEqual(a: string, b: string): boolean {
  const digest = (value: string) => createHash('sha256').update(value, 'utf8').digest();
  return timingSafeEqual(digest(a), digest(b));
}
