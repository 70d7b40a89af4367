import { Client } from 'pg';
import { Redis } from 'ioredis';
import { startApi, type RunningApi } from './support/api-harness';
import { subPrefix, testEnv } from './support/environment';
import { eventually } from './support/event-log';
import { createCustomer, createInstance, type CreatedInstance } from './support/fixtures';
import { Http } from './support/http';
import { spawnApp, type AppProcess } from './support/processes';

const INSTANCES = 50;
const SENDS = 10_000;
const CLIENTS = 50;

async function deleteKeys(redisUrl: string, prefix: string): Promise<number> {
  const redis = new Redis(redisUrl);
  let deleted = 0;
  try {
    let cursor = '0';
    do {
      const [next, keys] = await redis.scan(cursor, 'MATCH', `${prefix}:*`, 'COUNT', 1000);
      cursor = next;
      if (keys.length > 0) deleted += await redis.unlink(...keys);
    } while (cursor !== '0');
  } finally {
    redis.disconnect();
  }
  return deleted;
}

describe('send durability under failure', () => {
  const workers: AppProcess[] = [];
  let api: RunningApi;
  let db: Client;
  let prefix: string;

  beforeAll(async () => {
    prefix = subPrefix('chaos');
    api = await startApi({ queuePrefix: prefix, shardLeaseMs: 3_000 });
    workers.push(await spawnApp('worker', { QUEUE_PREFIX: prefix, SHARD_LEASE_MS: '3000' }));
    db = new Client({ connectionString: testEnv().DATABASE_URL });
    await db.connect();
  });

  afterAll(async () => {
    await db?.end();
    await Promise.all(workers.map((worker) => worker.stop('SIGKILL')));
    await api?.close();
  });

  it('delivers every accepted send although the worker is killed and Redis is wiped mid-run', async () => {
    const http = new Http(api.url, { checkSpec: false });
    await eventually(
      async () => ((await (await fetch(`${workers[0].url}/status`)).json()) as { shards: number[] }).shards.length,
      (owned) => owned === 16,
      15_000,
    );
    const customer = await createCustomer(http, 'Chaos Co');
    const instances: CreatedInstance[] = [];
    for (let i = 0; i < INSTANCES; i += 1)
      instances.push(await createInstance(http, customer.apiKey, { name: `chaos-${i}`, sandbox: true }));
    await Promise.all(
      instances.map(async (instance) => {
        const paired = await http.post('/sandbox/pair', {}, { 'X-Api-Key': instance.apiKey, 'X-Instance-Id': instance.id });
        expect({ status: paired.status, body: paired.body as unknown }).toEqual({ status: 200, body: { deviceId: expect.any(String) } });
      }),
    );
    await eventually(
      async () =>
        (
          await db.query<{ n: number }>("SELECT count(*)::int AS n FROM instances WHERE customer_id = $1 AND status = 'connected'", [
            customer.id,
          ])
        ).rows[0].n,
      (n) => n === INSTANCES,
      20_000,
    );

    const accepted: string[] = [];
    const refused = new Map<number, number>();
    let issued = 0;
    let killed = false;
    let wiped = false;
    const sender = async () => {
      while (issued < SENDS) {
        const n = issued;
        issued += 1;
        const instance = instances[n % INSTANCES];
        const response = await http.post(
          '/messages/text',
          { to: '447700900123', message: `chaos ${n}` },
          { 'X-Api-Key': instance.apiKey, 'X-Instance-Id': instance.id },
        );
        if (response.status === 201) accepted.push((response.body as { id: string }).id);
        else refused.set(response.status, (refused.get(response.status) ?? 0) + 1);
        if (!killed && issued >= SENDS / 3) {
          killed = true;
          await workers[0].stop('SIGKILL');
          workers.push(await spawnApp('worker', { QUEUE_PREFIX: prefix, SHARD_LEASE_MS: '3000' }));
        }
        if (!wiped && issued >= (2 * SENDS) / 3) {
          wiped = true;
          await deleteKeys(testEnv().REDIS_URL, prefix);
        }
      }
    };
    await Promise.all(Array.from({ length: CLIENTS }, sender));
    expect(killed && wiped).toBe(true);
    expect(accepted.length).toBeGreaterThan(SENDS * 0.9);

    const received = await eventually(
      async () =>
        (await db.query<{ id: string; duplicates: number }>('SELECT id, duplicates FROM sandbox_messages WHERE id = ANY($1)', [accepted]))
          .rows,
      (rows) => rows.length === accepted.length,
      240_000,
    );
    const missing = accepted.filter((id) => !received.some((row) => row.id === id));
    const duplicates = received.reduce((sum, row) => sum + row.duplicates, 0);
    console.log(
      `chaos: ${accepted.length} accepted, ${received.length} reached the network, ${missing.length} missing, ${duplicates} duplicate deliveries, refused ${JSON.stringify(Object.fromEntries(refused))}`,
    );
    expect(missing).toEqual([]);
  }, 600_000);
});
