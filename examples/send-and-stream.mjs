// Sends a text once (with an Idempotency-Key) and follows the instance's events on the Server-Sent Events stream,
// resuming where it left off: run it again with the LAST_EVENT_ID it printed and nothing in between is missed.
//
//   npm install @messaging-gateway/client
//   GATEWAY_URL=http://127.0.0.1:3000 API_KEY=... INSTANCE_ID=... TO=447700900123 node send-and-stream.mjs
//   (optional: TEXT='...', IDEMPOTENCY_KEY=order-1042 to make a rerun send nothing new, LAST_EVENT_ID=<seq>)
import { createGatewayClient, GatewayError } from '@messaging-gateway/client';

const {
  GATEWAY_URL = 'http://127.0.0.1:3000',
  API_KEY,
  INSTANCE_ID,
  TO,
  TEXT = 'Hello from the typed client',
  IDEMPOTENCY_KEY,
} = process.env;
if (!API_KEY || !INSTANCE_ID || !TO) throw new Error('set API_KEY, INSTANCE_ID and TO');

const gateway = createGatewayClient({ baseUrl: GATEWAY_URL, apiKey: API_KEY, instanceId: INSTANCE_ID });

// Where to start reading: the position saved by an earlier run, else the newest event now (so the send's outcome,
// which arrives as a message_status event, is on the stream).
let position = process.env.LAST_EVENT_ID;
if (position === undefined) {
  const latest = await gateway.GET('/events', { params: { query: { order: 'desc', limit: 1 } } });
  position = latest.items[0]?.seq ?? 0;
}

try {
  const { id, idempotencyKey } = await gateway.send('/messages/text', { to: TO, message: TEXT }, { idempotencyKey: IDEMPOTENCY_KEY });
  console.log(`sent ${id} (Idempotency-Key ${idempotencyKey})`);
} catch (error) {
  if (!(error instanceof GatewayError)) throw error;
  console.log(`refused: ${error.status} ${error.detail}`);
  process.exit(1);
}

const stop = new AbortController();
process.once('SIGINT', () => stop.abort());
process.once('SIGTERM', () => stop.abort());
const stream = gateway.events({ lastEventId: Number(position), signal: stop.signal });
for await (const message of stream) {
  if (message.kind === 'gap') console.log(`events ${message.firstMissing}..${message.oldestKept - 1} were pruned before they were read`);
  else console.log(`event ${message.seq} ${message.event.eventType} ${JSON.stringify(message.event.eventData)}`);
}
console.log(`stopped; resume with LAST_EVENT_ID=${stream.lastEventId}`);
