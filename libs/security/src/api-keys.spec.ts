import fc from 'fast-check';
import { createHash } from 'node:crypto';
import { crc32 } from 'node:zlib';
import { apiKeyKind, hashApiKey, issueApiKey } from './api-keys';

describe('API keys', () => {
  it('issues prefixed keys with 256 random bits, a checksum and a display prefix', () => {
    const issued = issueApiKey('customer');
    expect(issued.key).toMatch(/^mgw_ck_[0-9A-Za-z]{49}$/);
    expect(issued.prefix).toBe(issued.key.slice(0, 13));
    expect(issued.hash).toBe(createHash('sha256').update(issued.key).digest('hex'));
    expect(issueApiKey('instance').key).toMatch(/^mgw_ik_/);
  });

  it('never issues the same key twice', () => {
    const keys = new Set(Array.from({ length: 2000 }, () => issueApiKey('instance').key));
    expect(keys.size).toBe(2000);
  });

  it('recognises its own keys and their kind', () => {
    expect(apiKeyKind(issueApiKey('customer').key)).toBe('customer');
    expect(apiKeyKind(issueApiKey('instance').key)).toBe('instance');
  });

  it('accepts every key whose checksum is the base62 of its CRC-32 (the format of keys issued so far)', () => {
    const alphabet = '0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz';
    // The original computation, with BigInt over the four bytes of the CRC.
    const reference = (body: string) => {
      let value = BigInt(crc32(body) >>> 0);
      let out = '';
      while (out.length < 6) {
        out = alphabet[Number(value % 62n)] + out;
        value /= 62n;
      }
      return out;
    };
    fc.assert(
      fc.property(fc.string({ unit: fc.constantFrom(...alphabet), minLength: 43, maxLength: 43 }), fc.boolean(), (body, customer) => {
        expect(apiKeyKind(`mgw_${customer ? 'ck' : 'ik'}_${body}${reference(body)}`)).toBe(customer ? 'customer' : 'instance');
      }),
      { numRuns: 2000 },
    );
  });

  it('rejects any single-character change without touching storage', () => {
    const { key } = issueApiKey('customer');
    const alphabet = '0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz';
    fc.assert(
      fc.property(fc.integer({ min: 7, max: key.length - 1 }), fc.constantFrom(...alphabet), (position, replacement) => {
        fc.pre(key[position] !== replacement);
        const mutated = key.slice(0, position) + replacement + key.slice(position + 1);
        expect(apiKeyKind(mutated)).toBeUndefined();
      }),
      { numRuns: 500 },
    );
  });

  it('rejects strings that are not keys', () => {
    for (const candidate of [
      '',
      'mgw_ck_',
      'sk_live_abc',
      `${issueApiKey('customer').key}x`,
      issueApiKey('customer').key.replace('mgw_ck_', 'mgw_xk_'),
    ]) {
      expect(apiKeyKind(candidate)).toBeUndefined();
    }
  });

  it('hashes deterministically', () => {
    expect(hashApiKey('abc')).toBe('ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad');
  });
});
