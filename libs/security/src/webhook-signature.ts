import { createHmac } from 'node:crypto';

const STANDARD_PREFIX = 'whsec_';

/**
 * docs/decisions.md, Webhook delivery: a `whsec_` secret is base64 after the prefix (Standard Webhooks); any other
 * secret is its UTF-8 bytes.
 */
export function signingKey(secret: string): Buffer {
  return secret.startsWith(STANDARD_PREFIX) ? Buffer.from(secret.slice(STANDARD_PREFIX.length), 'base64') : Buffer.from(secret, 'utf8');
}

/**
 * Both signature schemes over the exact bytes sent: `X-Webhook-Signature` (HMAC of the body, what clients of this
 * API family verify) and the Standard Webhooks headers (HMAC of `id.timestamp.body`, replay-safe).
 */
export function webhookSignatureHeaders(secret: string, eventId: string, timestampSeconds: number, body: string): Record<string, string> {
  const key = signingKey(secret);
  const bodyHex = createHmac('sha256', key).update(body).digest('hex');
  const standard = createHmac('sha256', key).update(`${eventId}.${timestampSeconds}.${body}`).digest('base64');
  return {
    'X-Webhook-Signature': `sha256=${bodyHex}`,
    'webhook-id': eventId,
    'webhook-timestamp': String(timestampSeconds),
    'webhook-signature': `v1,${standard}`,
  };
}
