import { Client } from 'pg';
import { Redis } from 'ioredis';
import { startApi, type RunningApi } from './support/api-harness';
import { subPrefix, testEnv } from './support/environment';
import { eventually } from './support/event-log';
import { createCustomer, createInstance, type CreatedInstance } from './support/fixtures';
import { Http } from './support/http';
import { ownsAllShards, spawnApp, type AppProcess } from './support/processes';

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

  // Not the shared world: the test kills and replaces the worker and wipes Redis, so it owns its processes and queue prefix.
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
    await ownsAllShards(workers[0], api.config.shardCount, 15_000);
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

    /** Accepted sends: id → the text that was sent. */
    const accepted = new Map<string, string>();
    /** Every refusal as answered: status and body. */
    const refusals: { status: number; body: unknown }[] = [];
    let issued = 0;
    let killed = false;
    let wiped = false;
    const sender = async () => {
      while (issued < SENDS) {
        const n = issued;
        issued += 1;
        const instance = instances[n % INSTANCES];
        const text = `chaos ${n}`;
        const response = await http.post(
          '/messages/text',
          { to: '447700900123', message: text },
          { 'X-Api-Key': instance.apiKey, 'X-Instance-Id': instance.id },
        );
        if (response.status === 201) accepted.set((response.body as { id: string }).id, text);
        else refusals.push({ status: response.status, body: response.body as unknown });
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
    expect(accepted.size).toBeGreaterThan(SENDS * 0.9);
    // A send is refused only while its instance has no live session (the killed worker's shards are not yet taken over).
    const unavailable = { status: 503, body: { status: 503, detail: 'instance not available' } };
    expect(refusals.filter((refusal) => JSON.stringify(refusal) !== JSON.stringify(unavailable))).toEqual([]);

    const ids = [...accepted.keys()];
    const instanceIds = instances.map((instance) => instance.id);
    const delivered = await eventually(
      async () => (await db.query<{ n: number }>('SELECT count(*)::int AS n FROM sandbox_messages WHERE id = ANY($1)', [ids])).rows[0].n,
      (n) => n === accepted.size,
      240_000,
    );
    // Everything the network holds from these instances, in the order it first received it.
    const network = (
      await db.query<{ instance_id: string; id: string; text: string; duplicates: number }>(
        `SELECT instance_id, id, content->>'text' AS text, duplicates FROM sandbox_messages
         WHERE instance_id = ANY($1) AND direction = 'outbound' ORDER BY instance_id, seq`,
        [instanceIds],
      )
    ).rows;
    const duplicated = network.filter((row) => row.duplicates > 0);
    const duplicates = duplicated.reduce((sum, row) => sum + row.duplicates, 0);
    console.log(
      `chaos: ${accepted.size} accepted, ${delivered} reached the network, ${refusals.length} refused (all 503 instance not available), ` +
        `${duplicates} duplicate deliveries of ${duplicated.length} messages (each the same id again)`,
    );
    // A duplicate at the network is only ever the same id again (counted on its row): no message arrived under an id
    // that was not accepted, none carries another send's text, and no send's text arrived twice.
    expect(network.filter((row) => accepted.get(row.id) !== row.text)).toEqual([]);
    expect(network).toHaveLength(accepted.size);

    // Each instance's messages reached the network in the order they were accepted.
    const acceptance = (
      await db.query<{ instance_id: string; id: string }>(
        'SELECT instance_id, id FROM messages WHERE id = ANY($1) ORDER BY instance_id, seq',
        [ids],
      )
    ).rows;
    const byInstance = (rows: { instance_id: string; id: string }[]) => {
      const lists = new Map<string, string[]>();
      for (const row of rows) lists.set(row.instance_id, [...(lists.get(row.instance_id) ?? []), row.id]);
      return lists;
    };
    const received = byInstance(network);
    const outOfOrder = [...byInstance(acceptance)]
      .map(([instanceId, order]) => ({ instanceId, at: order.findIndex((id, index) => received.get(instanceId)?.[index] !== id) }))
      .filter((instance) => instance.at >= 0);
    expect(outOfOrder).toEqual([]);
  }, 600_000);
});
