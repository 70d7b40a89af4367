import { Queue } from 'bullmq';
import { Redis } from 'ioredis';
import { Client } from 'pg';
import { liveStatusKey, shardOf, workerSendQueueName, type LiveStatus, type SendJob } from '@app/contracts';
import { startApi, type RunningApi } from './support/api-harness';
import { subPrefix, testEnv } from './support/environment';
import { createCustomer, createInstance, type CreatedInstance, type Customer } from './support/fixtures';
import { Http } from './support/http';
import { expectErrorBody, useServedOpenApi } from './support/openapi';

// The accept path under concurrency, without a worker: the live status is written to Redis by the test itself (as the
// owning worker would), so what is asserted is the API alone: the connection gate, the group commit and the doorbells.
describe('the send accept path', () => {
  let api: RunningApi;
  let http: Http;
  let redis: Redis;
  let db: Client;
  let customer: Customer;

  beforeAll(async () => {
    api = await startApi({ queuePrefix: subPrefix('accept') });
    http = new Http(api.url);
    await useServedOpenApi(api.url);
    redis = new Redis(testEnv().REDIS_URL);
    db = new Client({ connectionString: testEnv().DATABASE_URL });
    await db.connect();
    customer = await createCustomer(http, 'Accept Co');
  });

  afterAll(async () => {
    await db?.end();
    redis?.disconnect();
    await api?.close();
  });

  const headersOf = (instance: CreatedInstance, extra: Record<string, string> = {}) => ({
    'X-Api-Key': instance.apiKey,
    'X-Instance-Id': instance.id,
    ...extra,
  });
  const setLiveStatus = (instance: CreatedInstance, status: LiveStatus['status']) =>
    redis.set(liveStatusKey(api.config.queuePrefix, instance.id), JSON.stringify({ status, deviceId: 'd1', updatedAt: Date.now() }));
  const send = (instance: CreatedInstance, message: string, extra: Record<string, string> = {}) =>
    http.post('/messages/text', { to: '447700900123', message }, headersOf(instance, extra));
  const storedRows = async (instance: CreatedInstance) =>
    (
      await db.query<{ id: string; seq: number; text: string; idempotency_key: string | null }>(
        "SELECT id, seq::int AS seq, payload->>'text' AS text, idempotency_key FROM messages WHERE instance_id = $1 ORDER BY messages.seq",
        [instance.id],
      )
    ).rows;

  it('sees every live status change on the very next request', async () => {
    const instance = await createInstance(http, customer.apiKey);
    for (let round = 0; round < 15; round += 1) {
      await setLiveStatus(instance, 'connected');
      expect((await send(instance, `round ${round}`)).status).toBe(201);
      expect((await send(instance, `round ${round} again`)).status).toBe(201);
      await setLiveStatus(instance, round % 2 === 0 ? 'disconnected' : 'connecting');
      expectErrorBody(await send(instance, 'refused'), 503, 'instance not available');
      await redis.del(liveStatusKey(api.config.queuePrefix, instance.id));
      // No live copy: PostgreSQL's status of a never-paired instance decides.
      expectErrorBody(await send(instance, 'refused'), 403, 'device not paired');
    }
    expect(await storedRows(instance)).toHaveLength(30);
  });

  it('answers a burst right after a status change with the new status only', async () => {
    const instance = await createInstance(http, customer.apiKey);
    const burst = async () => (await Promise.all(Array.from({ length: 20 }, (_, i) => send(instance, `burst ${i}`)))).map((r) => r.status);
    for (let round = 0; round < 5; round += 1) {
      await setLiveStatus(instance, 'connected');
      expect(await burst()).toEqual(Array.from({ length: 20 }, () => 201));
      await setLiveStatus(instance, 'disconnected');
      expect(await burst()).toEqual(Array.from({ length: 20 }, () => 503));
    }
  });

  it('stores concurrent sends to one instance in acceptance order, each client in its own order, doorbells coalesced', async () => {
    const instance = await createInstance(http, customer.apiKey);
    // The owner a worker would be: doorbells go to the queue of the worker holding the instance's shard.
    const owner = `accept-owner-${instance.id}`;
    await db.query(
      `INSERT INTO shard_leases (scope, shard, worker_id, token, expires_at)
       VALUES ($1, $2, $3, nextval('shard_lease_token_seq'), clock_timestamp() + interval '1 hour')
       ON CONFLICT (scope, shard) DO UPDATE SET worker_id = EXCLUDED.worker_id, token = EXCLUDED.token, expires_at = EXCLUDED.expires_at`,
      [api.config.queuePrefix, shardOf(instance.id, api.config.shardCount), owner],
    );
    // The API's map of owners serves reads for up to a second; the earlier sends here saw none.
    await new Promise((resolve) => setTimeout(resolve, 1_100));
    await setLiveStatus(instance, 'connected');
    const clients = 25;
    const perClient = 12;
    const ids = new Map<string, string>();
    await Promise.all(
      Array.from({ length: clients }, async (_, client) => {
        for (let i = 0; i < perClient; i += 1) {
          const response = await send(instance, `c${client}-${i}`);
          expect(response.status).toBe(201);
          ids.set(`c${client}-${i}`, (response.body as { id: string }).id);
        }
      }),
    );
    const rows = await storedRows(instance);
    expect(rows).toHaveLength(clients * perClient);
    expect(rows.map((row) => row.seq)).toEqual(rows.map((_, index) => index + 1));
    for (const row of rows) expect(ids.get(row.text)).toBe(row.id);
    for (let client = 0; client < clients; client += 1) {
      const mine = rows.filter((row) => row.text.startsWith(`c${client}-`)).map((row) => row.text);
      expect(mine).toEqual(Array.from({ length: perClient }, (_, i) => `c${client}-${i}`));
    }
    const connection = redis.duplicate();
    const queue = new Queue<SendJob>(workerSendQueueName(owner), {
      connection,
      prefix: api.config.queuePrefix,
    });
    try {
      // A doorbell only kicks the instance's drain, which reads every committed row: the sends committed together share
      // one (named after one of them), rung after all of them committed. So: at least one, fewer than the sends, each
      // named after a send of this burst.
      const jobs = await queue.getJobs(['wait', 'prioritized', 'delayed', 'active', 'completed', 'failed']);
      const byId = new Map(rows.map((row) => [row.id, row]));
      expect(jobs.length).toBeGreaterThan(0);
      expect(jobs.length).toBeLessThan(rows.length);
      for (const job of jobs) {
        expect(job.data).toEqual({ v: 2, instanceId: instance.id, messageId: job.id });
        expect(byId.has(job.id!)).toBe(true);
      }
    } finally {
      await queue.close();
      connection.disconnect();
    }
  });

  it('keeps Idempotency-Key exact for concurrent requests with the same key', async () => {
    const instance = await createInstance(http, customer.apiKey);
    await setLiveStatus(instance, 'connected');
    const key = { 'Idempotency-Key': 'order-7' };
    const same = await Promise.all(Array.from({ length: 30 }, () => send(instance, 'once', key)));
    expect(same.map((response) => response.status)).toEqual(same.map(() => 201));
    const [{ id }] = same.map((response) => response.body as { id: string });
    for (const response of same) expect(response.body).toEqual({ id });

    // Later: the same request again, the key with another body, and unrelated sends, all at once.
    const mixed = await Promise.all([
      ...Array.from({ length: 10 }, () => send(instance, 'once', key)),
      ...Array.from({ length: 10 }, () => send(instance, 'another body', key)),
      ...Array.from({ length: 20 }, (_, i) => send(instance, `plain ${i}`)),
    ]);
    for (const response of mixed.slice(0, 10)) expect(response.body).toEqual({ id });
    for (const response of mixed.slice(10, 20)) expectErrorBody(response, 422, 'idempotency key reused with a different request');
    expect(mixed.slice(20).map((response) => response.status)).toEqual(mixed.slice(20).map(() => 201));

    const rows = await storedRows(instance);
    expect(rows.filter((row) => row.idempotency_key === 'order-7').map((row) => row.id)).toEqual([id]);
    expect(rows.filter((row) => row.text === 'once')).toHaveLength(1);
    expect(rows).toHaveLength(21);
  });
});
