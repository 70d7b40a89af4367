import { Client } from 'pg';
import { Redis } from 'ioredis';
import { startApi, type RunningApi } from './support/api-harness';
import { subPrefix, testEnv } from './support/environment';
import { eventually } from './support/event-log';
import { createCustomer, createInstance, type CreatedInstance } from './support/fixtures';
import { Http } from './support/http';
import { spawnApp, type AppProcess } from './support/processes';

const INSTANCES = 4;
const CLIENTS = 30;
const FLUSH_ROUNDS = 5;
const SENDS_PER_FLUSH_ROUND = 150;
const KILL_SENDS = 600;
// Renewed every 4 s: after a flush, Redis leases left that long for a second worker to take a shard its owner still served.
const LEASE_MS = '12000';

/** What a flush of this deployment's Redis does: every key under its prefix is gone (the shared server serves other runs too). */
async function flushPrefix(redisUrl: string, prefix: string): Promise<number> {
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

interface NetworkRow {
  instance_id: string;
  id: string;
  text: string;
  duplicates: number;
}

describe('sends under Redis loss and a killed worker (two workers, several instances)', () => {
  const workers: AppProcess[] = [];
  let api: RunningApi;
  let db: Client;
  let prefix: string;
  let http: Http;
  let instances: CreatedInstance[];
  /** Accepted sends: id → the text that was sent. */
  const accepted = new Map<string, string>();
  /** Every refusal as answered: status and body. */
  const refusals: { status: number; body: unknown }[] = [];

  const workerEnv = () => ({ QUEUE_PREFIX: prefix, SHARD_LEASE_MS: LEASE_MS });

  beforeAll(async () => {
    prefix = subPrefix('rchaos');
    api = await startApi({ queuePrefix: prefix, shardLeaseMs: Number(LEASE_MS) });
    workers.push(await spawnApp('worker', workerEnv()), await spawnApp('worker', workerEnv()));
    db = new Client({ connectionString: testEnv().DATABASE_URL });
    await db.connect();
    http = new Http(api.url, { checkSpec: false });
    // Both workers share the shards before the instances exist, so every instance is served while sends flow.
    await eventually(
      async () =>
        Promise.all(
          workers.map(async (worker) => ((await (await fetch(`${worker.url}/status`)).json()) as { shards: number[] }).shards.length),
        ),
      (owned) => owned.every((count) => count > 0) && owned[0] + owned[1] === api.config.shardCount,
      20_000,
    );
    const customer = await createCustomer(http, 'Redis Chaos Co');
    instances = [];
    for (let i = 0; i < INSTANCES; i += 1)
      instances.push(await createInstance(http, customer.apiKey, { name: `rchaos-${i}`, sandbox: true }));
    for (const instance of instances) {
      const paired = await http.post('/sandbox/pair', {}, { 'X-Api-Key': instance.apiKey, 'X-Instance-Id': instance.id });
      expect({ status: paired.status, body: paired.body as unknown }).toEqual({ status: 200, body: { deviceId: expect.any(String) } });
    }
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
  }, 120_000);

  afterAll(async () => {
    await db?.end();
    await Promise.all(workers.map((worker) => worker.stop('SIGKILL')));
    await api?.close();
  });

  /** Sends `count` messages from CLIENTS concurrent clients round-robin over the instances; `at(n)` runs after the n-th issue. */
  async function sendWhile(count: number, label: string, at: (issued: number) => Promise<void>): Promise<void> {
    let issued = 0;
    const sender = async () => {
      while (issued < count) {
        const n = issued;
        issued += 1;
        const instance = instances[n % INSTANCES];
        const text = `${label} ${n}`;
        const response = await http.post(
          '/messages/text',
          { to: '447700900123', message: text },
          { 'X-Api-Key': instance.apiKey, 'X-Instance-Id': instance.id },
        );
        if (response.status === 201) accepted.set((response.body as { id: string }).id, text);
        else refusals.push({ status: response.status, body: response.body as unknown });
        await at(issued);
      }
    };
    await Promise.all(Array.from({ length: CLIENTS }, sender));
  }

  /** Waits until every accepted send reached the network, then returns what the network holds, in its receiving order. */
  async function networkOnceDelivered(): Promise<NetworkRow[]> {
    const ids = [...accepted.keys()];
    await eventually(
      async () => (await db.query<{ n: number }>('SELECT count(*)::int AS n FROM sandbox_messages WHERE id = ANY($1)', [ids])).rows[0].n,
      (n) => n === accepted.size,
      60_000,
    );
    return (
      await db.query<NetworkRow>(
        `SELECT instance_id, id, content->>'text' AS text, duplicates FROM sandbox_messages
         WHERE instance_id = ANY($1) AND direction = 'outbound' ORDER BY instance_id, seq`,
        [instances.map((instance) => instance.id)],
      )
    ).rows;
  }

  /** No send lost or foreign, every refusal a 503 while no session was live, and each instance's sends in acceptance order. */
  async function expectComplete(network: NetworkRow[]): Promise<void> {
    const unavailable = { status: 503, body: { status: 503, detail: 'instance not available' } };
    expect(refusals.filter((refusal) => JSON.stringify(refusal) !== JSON.stringify(unavailable))).toEqual([]);
    expect(network.filter((row) => accepted.get(row.id) !== row.text)).toEqual([]);
    expect(network).toHaveLength(accepted.size);
    const acceptance = (
      await db.query<{ instance_id: string; id: string }>(
        'SELECT instance_id, id FROM messages WHERE id = ANY($1) ORDER BY instance_id, seq',
        [[...accepted.keys()]],
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
  }

  it('sends nothing twice when Redis loses every key of the deployment, round after round', async () => {
    let flushes = 0;
    await sendWhile(FLUSH_ROUNDS * SENDS_PER_FLUSH_ROUND, 'flush', async (issued) => {
      if (issued >= (flushes + 0.5) * SENDS_PER_FLUSH_ROUND && flushes < FLUSH_ROUNDS) {
        flushes += 1;
        await flushPrefix(testEnv().REDIS_URL, prefix);
      }
    });
    expect(flushes).toBe(FLUSH_ROUNDS);
    expect(accepted.size).toBeGreaterThan(FLUSH_ROUNDS * SENDS_PER_FLUSH_ROUND * 0.9);
    const network = await networkOnceDelivered();
    const duplicated = network.filter((row) => row.duplicates > 0).map((row) => ({ id: row.id, duplicates: row.duplicates }));
    console.log(`redis chaos, flush: ${accepted.size} accepted, ${refusals.length} refused, ${duplicated.length} sent twice or more`);
    expect(duplicated).toEqual([]);
    await expectComplete(network);
    // The crash window: from the network taking a message (the sandbox's row) to its outcome statement (sent_at, same
    // process clock); a worker killed inside it leaves a message the next owner sends again under the same id.
    const [window] = (
      await db.query<{ p50: number; p99: number; max: number }>(
        `SELECT round(percentile_cont(0.5) WITHIN GROUP (ORDER BY ms)::numeric, 1)::float AS p50,
                round(percentile_cont(0.99) WITHIN GROUP (ORDER BY ms)::numeric, 1)::float AS p99, round(max(ms)::numeric, 1)::float AS max
         FROM (SELECT extract(epoch FROM m.sent_at - s.at) * 1000 AS ms FROM messages m
               JOIN sandbox_messages s ON s.instance_id = m.instance_id AND s.id = m.id WHERE m.id = ANY($1)) AS t`,
        [[...accepted.keys()]],
      )
    ).rows;
    console.log(`crash window (network took it → outcome statement): p50 ${window.p50} ms, p99 ${window.p99} ms, max ${window.max} ms`);
  }, 120_000);

  it('after kill -9 of a worker sends again only what was in the crash window, under the same id', async () => {
    const before = new Set(accepted.keys());
    let killed = false;
    await sendWhile(KILL_SENDS, 'kill', async (issued) => {
      if (!killed && issued >= KILL_SENDS / 3) {
        killed = true;
        await workers[0].stop('SIGKILL');
        workers.push(await spawnApp('worker', workerEnv()));
      }
    });
    expect(killed).toBe(true);
    const network = await networkOnceDelivered();
    const duplicated = network.filter((row) => row.duplicates > 0);
    console.log(`redis chaos, kill -9: ${accepted.size - before.size} accepted, ${duplicated.length} sent again`);
    // Each drain has at most one message at the network at a time: only those of the killed worker's instances can repeat,
    // each once, and a repeat is the same id again (counted on its row, so no second row exists: checked by expectComplete).
    expect(duplicated.filter((row) => before.has(row.id) || row.duplicates !== 1)).toEqual([]);
    expect(duplicated.length).toBeLessThanOrEqual(INSTANCES);
    await expectComplete(network);
  }, 120_000);
});
