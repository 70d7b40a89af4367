/**
 * A fresh `Idempotency-Key`: the gateway stores a send under it, so repeating the request with the same key and body
 * returns the same message id and sends once (the same key with another body is 422). Keys are 1-255 visible ASCII
 * characters; a random UUID is one.
 */
export function newIdempotencyKey(): string {
  return globalThis.crypto.randomUUID();
}

/** What the gateway accepts as a key (messages.service.ts checks the same): checked here so a bad key never travels. */
export function isValidIdempotencyKey(key: string): boolean {
  return /^[\x21-\x7e]{1,255}$/.test(key);
}
