import { randomBytes } from 'node:crypto';
import { SecretBox } from './secret-box';

describe('SecretBox', () => {
  const box = new SecretBox(randomBytes(32));

  it('round-trips a secret and never stores it readable', () => {
    const stored = box.encrypt('whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw');
    expect(stored).toMatch(/^v1\.[\w-]{16}\.[\w-]{22}\.[\w-]+$/);
    expect(stored).not.toContain('MfKQ9r8');
    expect(box.decrypt(stored)).toBe('whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw');
  });

  it('uses a fresh IV for every encryption', () => {
    expect(box.encrypt('same')).not.toBe(box.encrypt('same'));
  });

  it('refuses tampered ciphertext and a wrong key', () => {
    const stored = box.encrypt('secret value');
    const [version, iv, tag, ciphertext] = stored.split('.');
    const flipped = Buffer.from(ciphertext, 'base64url');
    flipped[0] ^= 1;
    expect(() => box.decrypt([version, iv, tag, flipped.toString('base64url')].join('.'))).toThrow();
    expect(() => new SecretBox(randomBytes(32)).decrypt(stored)).toThrow();
    expect(() => box.decrypt('plaintext')).toThrow('unrecognised encrypted value');
  });

  it('refuses a truncated authentication tag, which GCM would otherwise check only as far as it goes', () => {
    const [version, iv, tag, ciphertext] = box.encrypt('secret value').split('.');
    for (const bytes of [4, 8, 12, 15]) {
      const short = Buffer.from(tag, 'base64url').subarray(0, bytes).toString('base64url');
      expect(() => box.decrypt([version, iv, short, ciphertext].join('.'))).toThrow('unrecognised encrypted value');
    }
  });

  it('maps absent values to null', () => {
    expect(box.encryptOptional('')).toBeNull();
    expect(box.decryptOptional(null)).toBeNull();
  });

  it('insists on a 32-byte key', () => {
    expect(() => new SecretBox(randomBytes(16))).toThrow('32-byte');
  });
});
