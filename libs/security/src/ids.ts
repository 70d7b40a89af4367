import { randomBytes } from 'node:crypto';

const ALPHABET = '0123456789abcdefghjkmnpqrstvwxyz'; // Crockford base32, lower case

/** A random, URL-safe identifier with a readable type prefix, e.g. `ins_7k2m…`. */
export function newId(prefix: 'cus' | 'ins' | 'key' | 'usr' | 'ses' | 'lnk'): string {
  const bytes = randomBytes(20);
  let body = '';
  for (const byte of bytes) body += ALPHABET[byte & 31];
  return `${prefix}_${body}`;
}
