import { createCipheriv, createDecipheriv, randomBytes } from 'node:crypto';

const VERSION = 'v1';
const IV_BYTES = 12;
/**
 * GCM accepts tags as short as 4 bytes unless told otherwise, and a short tag is far easier to forge: decryption
 * insists on the full 16 bytes that encryption writes.
 */
const TAG_BYTES = 16;

/** AES-256-GCM for secrets at rest. Stored form: `v1.<iv>.<tag>.<ciphertext>`, each base64url. */
export class SecretBox {
  constructor(private readonly key: Buffer) {
    if (key.length !== 32) throw new Error('SecretBox needs a 32-byte key');
  }

  encrypt(plaintext: string): string {
    const iv = randomBytes(IV_BYTES);
    const cipher = createCipheriv('aes-256-gcm', this.key, iv, { authTagLength: TAG_BYTES });
    const ciphertext = Buffer.concat([cipher.update(plaintext, 'utf8'), cipher.final()]);
    return [VERSION, iv, cipher.getAuthTag(), ciphertext]
      .map((part) => (typeof part === 'string' ? part : part.toString('base64url')))
      .join('.');
  }

  decrypt(stored: string): string {
    const [version, iv, tag, ciphertext] = stored.split('.');
    if (version !== VERSION || iv === undefined || tag === undefined || ciphertext === undefined) {
      throw new Error('unrecognised encrypted value');
    }
    const ivBytes = Buffer.from(iv, 'base64url');
    const tagBytes = Buffer.from(tag, 'base64url');
    if (ivBytes.length !== IV_BYTES || tagBytes.length !== TAG_BYTES) throw new Error('unrecognised encrypted value');
    const decipher = createDecipheriv('aes-256-gcm', this.key, ivBytes, { authTagLength: TAG_BYTES });
    decipher.setAuthTag(tagBytes);
    return Buffer.concat([decipher.update(Buffer.from(ciphertext, 'base64url')), decipher.final()]).toString('utf8');
  }

  encryptOptional(plaintext: string | null | undefined): string | null {
    return plaintext ? this.encrypt(plaintext) : null;
  }

  decryptOptional(stored: string | null | undefined): string | null {
    return stored ? this.decrypt(stored) : null;
  }
}
