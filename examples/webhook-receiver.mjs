// A webhook receiver that checks both signatures the gateway puts on every delivery:
//   webhook-id, webhook-timestamp, webhook-signature   Standard Webhooks (HMAC-SHA256 of `id.timestamp.body`, with a
//                                                      5-minute replay window), verified with the `standardwebhooks` package
//   X-Webhook-Signature: sha256=<hex>                  HMAC-SHA256 of the raw body, verified with node:crypto
// Either one is enough; this checks both to show how. The key is the instance's `eventSigningSecret`: for a secret
// that starts with `whsec_` the bytes are the base64 after the prefix, for any other secret its UTF-8 bytes.
//
//   npm install standardwebhooks
//   WEBHOOK_SECRET='whsec_...' PORT=4000 node webhook-receiver.mjs
import { createHmac, timingSafeEqual } from 'node:crypto';
import { createServer } from 'node:http';
import { Webhook } from 'standardwebhooks';

const secret = process.env.WEBHOOK_SECRET;
if (!secret) throw new Error('set WEBHOOK_SECRET to the instance eventSigningSecret');
const key = secret.startsWith('whsec_') ? Buffer.from(secret.slice('whsec_'.length), 'base64') : Buffer.from(secret, 'utf8');
const standardWebhooks = new Webhook(key, { format: 'raw' });

function bodySignatureMatches(rawBody, header) {
  const expected = Buffer.from(`sha256=${createHmac('sha256', key).update(rawBody).digest('hex')}`);
  const given = Buffer.from(String(header ?? ''));
  return given.length === expected.length && timingSafeEqual(given, expected);
}

const server = createServer((request, response) => {
  const chunks = [];
  request.on('data', (chunk) => chunks.push(chunk));
  request.on('end', () => {
    // Verify the exact bytes received, before any JSON parsing.
    const rawBody = Buffer.concat(chunks);
    try {
      const event = standardWebhooks.verify(rawBody.toString('utf8'), request.headers); // throws when invalid or stale
      if (!bodySignatureMatches(rawBody, request.headers['x-webhook-signature'])) throw new Error('X-Webhook-Signature does not match');
      console.log(`verified ${request.headers['webhook-id']} ${event.eventType}: ${JSON.stringify(event.eventData)}`);
      response.writeHead(204).end(); // any 2xx acknowledges; deliveries are retried otherwise
    } catch (error) {
      console.log(`rejected: ${error.message}`);
      response.writeHead(401).end();
    }
  });
});
server.listen(Number(process.env.PORT ?? 4000), '127.0.0.1', () => console.log(`listening on http://127.0.0.1:${server.address().port}`));
