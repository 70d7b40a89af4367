import { shardOf } from '@app/contracts';
import { startApi, type RunningApi } from './support/api-harness';
import { subPrefix } from './support/environment';
import { eventually } from './support/event-log';
import { createCustomer, createInstance, type CreatedInstance, type Customer } from './support/fixtures';
import { Http } from './support/http';
import { headersOf, waitForStatus } from './support/instance-world';
import { expectErrorBody } from './support/openapi';
import { spawnApp, type AppProcess } from './support/processes';
import { SseClient } from './support/sse-client';
import { WebhookReceiver, type ReceivedWebhook } from './support/webhook-receiver';

const LEASE_MS = 3_000;
const SHARDS = 4;
const TO = '447700900123';
const PNG = Buffer.from('89504e470d0a1a0a0000000d4948445200000001000000010806000000', 'hex').toString('base64');
const BYTES = Buffer.from('some bytes').toString('base64');

/** One valid request of every send kind. */
const SENDS: [string, Record<string, unknown>][] = [
  ['text', { to: TO, message: 'hello' }],
  ['buttons', { to: TO, text: 'Confirm?', buttons: [{ id: 'yes', text: 'Yes' }] }],
  ['list', { to: TO, text: 'Pick', buttonText: 'Slots', sections: [{ rows: [{ id: 'r1', title: '9:00' }] }] }],
  ['image', { to: TO, data: PNG, mimeType: 'image/png', caption: 'pixel' }],
  ['video', { to: TO, data: BYTES, mimeType: 'video/mp4' }],
  ['audio', { to: TO, data: BYTES, mimeType: 'audio/mpeg' }],
  ['voice', { to: TO, data: BYTES }],
  ['document', { to: TO, data: BYTES, filename: 'notes.txt', mimeType: 'text/plain' }],
  ['sticker', { to: TO, data: BYTES }],
  ['contact', { to: TO, displayName: 'Ann' }],
  ['location', { to: TO, latitude: 51.5, longitude: -0.12, name: 'London' }],
  ['link', { to: TO, text: 'See https://example.com', url: 'https://example.com' }],
];

function poolerUrl(): string {
  const url = process.env.TEST_PGBOUNCER_URL;
  if (!url)
    throw new Error('TEST_PGBOUNCER_URL is not set: scripts/test.mjs starts PgBouncer when it is installed (apt-get install -y pgbouncer)');
  return url;
}

async function shardsOf(worker: AppProcess): Promise<number[]> {
  try {
    const response = await fetch(`${worker.url}/status`);
    return response.ok ? ((await response.json()) as { shards: number[] }).shards : [];
  } catch {
    return [];
  }
}

/**
 * Issue 24 goal 3: the core flows with every process connected through PgBouncer 1.18 in transaction-pooling mode
 * (started by scripts/test.mjs), `DATABASE_POOLER=transaction`, and small pools. Without that mode the hot statements
 * go out named and PgBouncer answers `prepared statement "…" already exists`.
 */
describe('behind PgBouncer in transaction mode', () => {
  let api: RunningApi;
  let workers: AppProcess[] = [];
  let http: Http;
  let customer: Customer;
  let receiver: WebhookReceiver;
  let workerEnv: Record<string, string>;

  beforeAll(async () => {
    const databaseUrl = poolerUrl();
    const prefix = subPrefix('pgb');
    receiver = await WebhookReceiver.start();
    workerEnv = {
      DATABASE_URL: databaseUrl,
      DATABASE_POOLER: 'transaction',
      DATABASE_POOL_SIZE: '4',
      QUEUE_PREFIX: prefix,
      SHARD_COUNT: String(SHARDS),
      SHARD_LEASE_MS: String(LEASE_MS),
      WEBHOOK_ALLOWED_HOSTS: '127.0.0.1',
    };
    let first: AppProcess;
    let second: AppProcess;
    [api, first, second] = await Promise.all([
      startApi({
        databaseUrl,
        databasePooler: 'transaction',
        databasePoolSize: 4,
        queuePrefix: prefix,
        shardCount: SHARDS,
        webhookAllowedHosts: ['127.0.0.1'],
      }),
      spawnApp('worker', workerEnv),
      spawnApp('worker', workerEnv),
    ]);
    workers = [first, second];
    http = new Http(api.url, { checkSpec: false });
    await eventually(
      () => Promise.all(workers.map(shardsOf)),
      (owned) => owned.flat().length === SHARDS && owned.every((shards) => shards.length > 0),
      20_000,
    );
    customer = await createCustomer(http, 'Pooled');
  });

  afterAll(async () => {
    await Promise.all(workers.map((worker) => worker.stop('SIGKILL')));
    await Promise.all([api?.close(), receiver?.close()]);
  });

  async function pairedInstance(phone: string, webhookPath?: string): Promise<CreatedInstance> {
    const instance = await createInstance(http, customer.apiKey);
    if (webhookPath) {
      const settings = { useCustomDefaults: false, webhookUrl: receiver.url(webhookPath) };
      expect((await http.put('/instance/settings', settings, headersOf(instance))).status).toBe(204);
    }
    expect((await http.post('/sandbox/pair', { phone }, headersOf(instance))).status).toBe(200);
    await waitForStatus(http, instance, (status) => status.isConnected);
    return instance;
  }

  const outboxIds = async (instance: CreatedInstance) =>
    ((await http.get('/sandbox/outbox', headersOf(instance))).body as { id: string }[]).map((entry) => entry.id);

  it('pairs, sends every kind, delivers webhooks and streams events', async () => {
    const instance = await pairedInstance('15550001001', '/pooled');
    const stream = await SseClient.open(api.url, '/events/stream?after=0', headersOf(instance));
    try {
      const ids: string[] = [];
      for (const [kind, body] of SENDS) {
        const sent = await http.post(`/messages/${kind}`, body, headersOf(instance));
        expect([kind, sent.status]).toEqual([kind, 201]);
        ids.push((sent.body as { id: string }).id);
      }
      // The same request again with an idempotency key is answered with the first send, not sent twice.
      const keyed = { 'Idempotency-Key': 'pooled-1', ...headersOf(instance) };
      const first = await http.post('/messages/text', { to: TO, message: 'once' }, keyed);
      const again = await http.post('/messages/text', { to: TO, message: 'once' }, keyed);
      expect([first.status, (again.body as { id: string }).id]).toEqual([201, (first.body as { id: string }).id]);
      ids.push((first.body as { id: string }).id);

      const delivered = await eventually(
        () => outboxIds(instance),
        (outbox) => outbox.length >= ids.length,
        20_000,
      );
      expect([...delivered].sort()).toEqual([...ids].sort());

      // Inbound: logged, streamed, and delivered by webhook.
      expect((await http.post('/sandbox/inbound', { from: TO, type: 'text', text: 'hi there' }, headersOf(instance))).status).toBe(201);
      const inboundHook = (hooks: ReceivedWebhook[]) =>
        hooks.some((hook) => hook.envelope.eventType === 'message' && hook.envelope.eventData.text === 'hi there');
      await eventually(() => Promise.resolve(receiver.at('/pooled')), inboundHook, 15_000);
      await stream.waitFor((client) => client.messages.some((m) => m.event.eventData.text === 'hi there'), 10_000);
      const streamed = stream.messages.map((m) => m.id);
      expect(streamed).toEqual(streamed.map((_, i) => i + 1));
      const page = (await http.get('/events?after=0&limit=1000', headersOf(instance))).body as { items: { seq: number }[] };
      expect(streamed).toEqual(page.items.map((item) => item.seq).slice(0, streamed.length));
      // Each webhook-id once: nothing delivered twice.
      const hookIds = receiver.at('/pooled').map((hook) => hook.envelope.eventId);
      expect(new Set(hookIds).size).toBe(hookIds.length);
    } finally {
      stream.close();
    }
  });

  it('refuses the old key at once after rotation and ends the streams it opened', async () => {
    const rotating = await createCustomer(http, 'Rotating');
    const instance = await createInstance(http, rotating.apiKey);
    const headers = { 'X-Api-Key': rotating.apiKey, 'X-Instance-Id': instance.id };
    const stream = await SseClient.open(api.url, '/events/stream', headers);
    try {
      expect(stream.status).toBe(200);
      const rotated = await http.post('/account/apikey/rotate', undefined, { 'X-Api-Key': rotating.apiKey });
      expect(rotated.status).toBe(200);
      expectErrorBody(await http.get('/account/instances', { 'X-Api-Key': rotating.apiKey }), 401, 'unauthorized');
      expect((await http.get('/account/instances', { 'X-Api-Key': rotated.body as string })).status).toBe(200);
      await stream.waitFor((client) => client.ended, 5_000);
    } finally {
      stream.close();
    }
  });

  it("moves a killed worker's shards to the survivor, which sends for the instance", async () => {
    const instance = await pairedInstance('15550001002');
    const shard = shardOf(instance.id, SHARDS);
    const owned = await Promise.all(workers.map(shardsOf));
    const owner = workers[owned.findIndex((shards) => shards.includes(shard))];
    const survivor = workers.find((worker) => worker !== owner) as AppProcess;
    await owner.stop('SIGKILL');
    await eventually(
      () => shardsOf(survivor),
      (shards) => shards.length === SHARDS,
      LEASE_MS + 10_000,
    );
    const sent = await eventually(
      () => http.post('/messages/text', { to: TO, message: 'after failover' }, headersOf(instance)),
      (response) => response.status === 201,
      15_000,
    );
    const id = (sent.body as { id: string }).id;
    await eventually(
      () => outboxIds(instance),
      (outbox) => outbox.includes(id),
      15_000,
    );
    expect(survivor.output()).not.toMatch(/prepared statement/);
  });
});
