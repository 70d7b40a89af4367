import { createHmac, randomBytes } from 'node:crypto';
import { Webhook } from 'standardwebhooks';
import { signingKey, webhookSignatureHeaders } from './webhook-signature';

describe('webhook signatures', () => {
  const body = JSON.stringify({ eventId: 'evt_1_0123456789abcdef', eventType: 'message', eventData: { text: 'héllo' } });
  const eventId = 'evt_1_0123456789abcdef';
  const now = Math.floor(Date.now() / 1000);

  it('signs whsec_ secrets so the Standard Webhooks library verifies them, and X-Webhook-Signature over the body', () => {
    const secret = `whsec_${randomBytes(32).toString('base64')}`;
    const headers = webhookSignatureHeaders(secret, eventId, now, body);
    expect(new Webhook(secret).verify(body, headers)).toEqual(JSON.parse(body));
    const key = Buffer.from(secret.slice(6), 'base64');
    expect(headers['X-Webhook-Signature']).toBe(`sha256=${createHmac('sha256', key).update(body).digest('hex')}`);
    expect(() => new Webhook(secret).verify(`${body} `, headers)).toThrow();
  });

  it('uses any other secret as its UTF-8 bytes', () => {
    const secret = 'plain-secret-ünïcode-1234';
    expect(signingKey(secret)).toEqual(Buffer.from(secret, 'utf8'));
    const headers = webhookSignatureHeaders(secret, eventId, now, body);
    const expected = createHmac('sha256', Buffer.from(secret, 'utf8')).update(`${eventId}.${now}.${body}`).digest('base64');
    expect(headers).toEqual({
      'X-Webhook-Signature': `sha256=${createHmac('sha256', Buffer.from(secret, 'utf8')).update(body).digest('hex')}`,
      'webhook-id': eventId,
      'webhook-timestamp': String(now),
      'webhook-signature': `v1,${expected}`,
    });
  });
});
