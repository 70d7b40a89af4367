// A webhook receiver that checks both signatures the gateway puts on every delivery, with the typed client:
//   webhook-id, webhook-timestamp, webhook-signature   Standard Webhooks (HMAC-SHA256 of `id.timestamp.body`, with a
//                                                      5-minute replay window)
//   X-Webhook-Signature: sha256=<hex>                  HMAC-SHA256 of the raw body
// Either one is enough (`scheme: 'standard'`, the default, is the replay-safe one); this checks both to show how. The
// secret is the instance's `eventSigningSecret`.
//
//   npm install @messaging-gateway/client
//   WEBHOOK_SECRET='whsec_...' PORT=4000 node webhook-receiver.mjs
import { createServer } from 'node:http';
import { verifyWebhook } from '@messaging-gateway/client';

const secret = process.env.WEBHOOK_SECRET;
if (!secret) throw new Error('set WEBHOOK_SECRET to the instance eventSigningSecret');

const server = createServer((request, response) => {
  const chunks = [];
  request.on('data', (chunk) => chunks.push(chunk));
  request.on('end', async () => {
    try {
      // Verify the exact bytes received, before any JSON parsing; throws WebhookVerificationError when invalid or stale.
      const event = await verifyWebhook({ secret, body: Buffer.concat(chunks), headers: request.headers, scheme: 'both' });
      console.log(`verified ${request.headers['webhook-id']} ${event.eventType}: ${JSON.stringify(event.eventData)}`);
      response.writeHead(204).end(); // any 2xx acknowledges; deliveries are retried otherwise
    } catch (error) {
      console.log(`rejected: ${error.message}`);
      response.writeHead(401).end();
    }
  });
});
server.listen(Number(process.env.PORT ?? 4000), '127.0.0.1', () => console.log(`listening on http://127.0.0.1:${server.address().port}`));
