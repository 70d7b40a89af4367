import { createHmac, randomBytes } from 'node:crypto';
import { verifyWebhook, WebhookVerificationError, type WebhookScheme } from './webhooks.js';

const NOW_SECONDS = 1_767_225_600;
const BODY = JSON.stringify({
  eventId: 'evt_1',
  instanceId: 'ins_1',
  eventType: 'message',
  receivedAt: '2026-01-01T00:00:00.000Z',
  eventData: { text: 'hi' },
});

const SECRETS = [
  ['a Standard Webhooks secret', `whsec_${randomBytes(32).toString('base64')}`],
  ['a plain secret', 'a plain shared secret, 16+ characters'],
] as const;

/** The headers of a delivery as the gateway's docs/decisions.md defines them (computed here with node:crypto, independently of the client). */
function signed(secret: string, body = BODY, timestamp = NOW_SECONDS): Record<string, string> {
  const key = secret.startsWith('whsec_') ? Buffer.from(secret.slice('whsec_'.length), 'base64') : Buffer.from(secret, 'utf8');
  return {
    'X-Webhook-Signature': `sha256=${createHmac('sha256', key).update(body).digest('hex')}`,
    'webhook-id': 'evt_1',
    'webhook-timestamp': String(timestamp),
    'webhook-signature': `v1,${createHmac('sha256', key).update(`evt_1.${timestamp}.${body}`).digest('base64')}`,
  };
}

async function rejection(promise: Promise<unknown>): Promise<string> {
  try {
    await promise;
  } catch (error) {
    expect(error).toBeInstanceOf(WebhookVerificationError);
    return (error as Error).message;
  }
  throw new Error('expected a rejection');
}

describe('verifyWebhook', () => {
  describe.each(SECRETS)('with %s', (_label, secret) => {
    it.each<WebhookScheme>(['standard', 'body', 'both'])(
      'accepts what the gateway signs (scheme %s), from a string or bytes',
      async (scheme) => {
        const headers = signed(secret);
        const now = NOW_SECONDS * 1000;
        await expect(verifyWebhook({ secret, body: BODY, headers, scheme, now })).resolves.toEqual(JSON.parse(BODY));
        await expect(verifyWebhook({ secret, body: Buffer.from(BODY), headers: new Headers(headers), scheme, now })).resolves.toEqual(
          JSON.parse(BODY),
        );
      },
    );

    it('rejects a body altered by one character under either scheme', async () => {
      const headers = signed(secret);
      const tampered = BODY.replace('"hi"', '"hI"');
      const now = NOW_SECONDS * 1000;
      expect(await rejection(verifyWebhook({ secret, body: tampered, headers, now }))).toBe('no webhook-signature matches');
      expect(await rejection(verifyWebhook({ secret, body: tampered, headers, scheme: 'body', now }))).toBe(
        'X-Webhook-Signature does not match',
      );
    });
  });

  it('rejects a correctly signed body that is not an event envelope, naming the field', async () => {
    const [, secret] = SECRETS[0];
    const body = JSON.stringify({ ...(JSON.parse(BODY) as object), eventData: 'not an object' });
    expect(await rejection(verifyWebhook({ secret, body, headers: signed(secret, body), now: NOW_SECONDS * 1000 }))).toBe(
      'eventData: expected an object',
    );
  });

  it('rejects another key, a stale or future timestamp, and missing headers, naming the reason', async () => {
    const [, secret] = SECRETS[0];
    const headers = signed(secret);
    const at = (seconds: number) => seconds * 1000;
    expect(await rejection(verifyWebhook({ secret: 'another secret of enough length', body: BODY, headers, now: at(NOW_SECONDS) }))).toBe(
      'no webhook-signature matches',
    );
    expect(await rejection(verifyWebhook({ secret, body: BODY, headers, now: at(NOW_SECONDS + 301) }))).toMatch(/outside the tolerance/);
    expect(await rejection(verifyWebhook({ secret, body: BODY, headers, now: at(NOW_SECONDS - 301) }))).toMatch(/outside the tolerance/);
    await expect(verifyWebhook({ secret, body: BODY, headers, now: at(NOW_SECONDS + 299) })).resolves.toBeDefined();
    await expect(verifyWebhook({ secret, body: BODY, headers, now: at(NOW_SECONDS + 900), toleranceSeconds: 1000 })).resolves.toBeDefined();
    const { 'webhook-signature': _dropped, ...withoutStandard } = headers;
    expect(await rejection(verifyWebhook({ secret, body: BODY, headers: withoutStandard, now: at(NOW_SECONDS) }))).toBe(
      'missing webhook-id, webhook-timestamp or webhook-signature',
    );
    const { 'X-Webhook-Signature': _gone, ...withoutBody } = headers;
    expect(await rejection(verifyWebhook({ secret, body: BODY, headers: withoutBody, scheme: 'both', now: at(NOW_SECONDS) }))).toBe(
      'missing X-Webhook-Signature',
    );
  });

  it('accepts when any one of several v1 signatures matches (a key rotation), and ignores other versions', async () => {
    const [, secret] = SECRETS[1];
    const headers = signed(secret);
    const rotated = { ...headers, 'webhook-signature': `v2,${randomBytes(32).toString('base64')} v1,bad ${headers['webhook-signature']}` };
    await expect(verifyWebhook({ secret, body: BODY, headers: rotated, now: NOW_SECONDS * 1000 })).resolves.toEqual(JSON.parse(BODY));
  });
});
