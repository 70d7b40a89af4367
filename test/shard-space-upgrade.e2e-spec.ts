import { Client } from 'pg';
import { shardOf } from '@app/contracts';
import { startApi, type RunningApi } from './support/api-harness';
import { subPrefix } from './support/environment';
import { eventually } from './support/event-log';
import { createCustomer, createInstance, type CreatedInstance } from './support/fixtures';
import { Http } from './support/http';
import { spawnApp, type AppProcess } from './support/processes';
import { ScratchDatabase } from './repositories/scratch-database';

const LEASE_MS = 3_000;
const OLD_SHARDS = 16;
const NEW_SHARDS = 4096;
const INSTANCES = 10;
const SENDS_EACH = 3;

async function ownedShards(worker: AppProcess): Promise<number | undefined> {
  try {
    const response = await fetch(`${worker.url}/status`);
    return response.ok ? ((await response.json()) as { shards: number[] }).shards.length : undefined;
  } catch {
    return undefined;
  }
}

const headersOf = (instance: CreatedInstance) => ({ 'X-Api-Key': instance.apiKey, 'X-Instance-Id': instance.id });

// The in-place upgrade of a 16-shard deployment to 4,096 virtual shards (README, Operations): the old deployment is
// stopped, the new one started with the new count. Sends accepted just before the old worker died must be delivered once.
describe('upgrading a 16-shard deployment to 4,096 shards in place', () => {
  const scratch = new ScratchDatabase('vshards');
  const workers: AppProcess[] = [];
  let db: Client;
  let api: RunningApi | undefined;
  const prefix = subPrefix('upgrade');

  const startWorker = async (shardCount: number) => {
    const worker = await spawnApp('worker', {
      DATABASE_URL: scratch.url,
      QUEUE_PREFIX: prefix,
      SHARD_LEASE_MS: String(LEASE_MS),
      SHARD_COUNT: String(shardCount),
    });
    workers.push(worker);
    return worker;
  };

  beforeAll(async () => {
    await scratch.create();
    await scratch.migrate();
    db = new Client({ connectionString: scratch.url });
    await db.connect();
  });

  afterAll(async () => {
    await Promise.all(workers.splice(0).map((worker) => worker.stop('SIGKILL')));
    await api?.close();
    await db?.end();
    await scratch.drop();
  });

  it('re-shards every instance, refuses beside live old-count leases, and delivers the pending sends once, none lost', async () => {
    // The 16-shard deployment: paired instances, one worker owning all 16 shards.
    api = await startApi({ databaseUrl: scratch.url, queuePrefix: prefix, shardCount: OLD_SHARDS });
    let http = new Http(api.url, { checkSpec: false });
    const old = await startWorker(OLD_SHARDS);
    await eventually(
      () => ownedShards(old),
      (owned) => owned === OLD_SHARDS,
      15_000,
    );
    const customer = await createCustomer(http, 'Upgrade Co');
    const instances: CreatedInstance[] = [];
    for (let i = 0; i < INSTANCES; i += 1) instances.push(await createInstance(http, customer.apiKey, { name: `up-${i}`, sandbox: true }));
    for (const instance of instances) expect((await http.post('/sandbox/pair', {}, headersOf(instance))).status).toBe(200);
    await eventually(
      async () => (await db.query<{ n: number }>("SELECT count(*)::int AS n FROM instances WHERE status = 'connected'")).rows[0].n,
      (n) => n === INSTANCES,
      20_000,
    );
    const before = (await db.query<{ id: string; shard: number }>('SELECT id, shard FROM instances ORDER BY id')).rows;
    expect(before.map((row) => row.shard)).toEqual(before.map((row) => shardOf(row.id, OLD_SHARDS)));

    // The old worker freezes with sends accepted but not yet sent; then it dies (kill -9).
    old.child.kill('SIGSTOP');
    // A frozen worker renews nothing, so its leases stay live only for what is left of their period; on a loaded CI
    // machine the sends, the API's stop and the new worker's start once took longer than a 30 s period. The leases are
    // held live here (as a longer period would) until the old worker is killed below.
    await db.query(`UPDATE shard_leases SET expires_at = clock_timestamp() + interval '10 minutes' WHERE worker_id IS NOT NULL`);
    const accepted: string[] = [];
    for (const instance of instances) {
      for (let n = 0; n < SENDS_EACH; n += 1) {
        const response = await http.post('/messages/text', { to: '447700900123', message: `pending ${n}` }, headersOf(instance));
        expect(response.status).toBe(201);
        accepted.push((response.body as { id: string }).id);
      }
    }
    // A database of a build before virtual shards has no record of its shard count, only the marker the shard-spaces
    // migration leaves when it finds instances (its last statement, run again here).
    await db.query('DELETE FROM shard_spaces');
    await db.query(`INSERT INTO shard_spaces (scope, shard_count) SELECT '', 0 WHERE EXISTS (SELECT 1 FROM instances)`);
    await api.close();
    api = undefined;

    // The new build beside a worker of the old count that still holds leases: it refuses, and changes nothing.
    const refused = await startWorker(NEW_SHARDS).then(
      () => 'started',
      (error: Error) => error.message,
    );
    expect(refused).toContain('stop every worker of the old shard count first');
    expect((await db.query<{ id: string; shard: number }>('SELECT id, shard FROM instances ORDER BY id')).rows).toEqual(before);

    // Stop-then-start: the old worker is gone (its leases expire), the new API and worker start with 4,096 shards.
    await old.stop('SIGKILL');
    // Its leases run out one period after the kill, as a dead worker's do.
    await db.query(`UPDATE shard_leases SET expires_at = clock_timestamp() + make_interval(secs => $1) WHERE worker_id IS NOT NULL`, [
      LEASE_MS / 1000,
    ]);
    await eventually(
      async () =>
        (
          await db.query<{ n: number }>(
            'SELECT count(*)::int AS n FROM shard_leases WHERE worker_id IS NOT NULL AND expires_at > clock_timestamp()',
          )
        ).rows[0].n,
      (n) => n === 0,
      LEASE_MS + 5_000,
    );
    api = await startApi({ databaseUrl: scratch.url, queuePrefix: prefix, shardCount: NEW_SHARDS });
    http = new Http(api.url, { checkSpec: false });
    const upgraded = await startWorker(NEW_SHARDS);
    await eventually(
      () => ownedShards(upgraded),
      (owned) => owned === NEW_SHARDS,
      30_000,
    );

    const after = (await db.query<{ id: string; shard: number }>('SELECT id, shard FROM instances ORDER BY id')).rows;
    expect(after.map((row) => row.shard)).toEqual(after.map((row) => shardOf(row.id, NEW_SHARDS)));
    // Each new shard lies inside the old one: the 16-shard space nests in the 4,096-shard one.
    expect(after.map((row) => row.shard % OLD_SHARDS)).toEqual(before.map((row) => row.shard));
    expect((await db.query('SELECT scope, shard_count FROM shard_spaces')).rows).toEqual([{ scope: prefix, shard_count: NEW_SHARDS }]);

    // Every pending send goes out exactly once, and the new owner takes new sends and commands.
    await eventually(
      async () =>
        (await db.query<{ n: number }>("SELECT count(*)::int AS n FROM messages WHERE id = ANY($1) AND status = 'sent'", [accepted]))
          .rows[0].n,
      (n) => n === accepted.length,
      30_000,
    );
    const network = (
      await db.query<{ id: string; duplicates: number }>(
        `SELECT id, duplicates FROM sandbox_messages WHERE id = ANY($1) AND direction = 'outbound' ORDER BY id`,
        [accepted],
      )
    ).rows;
    expect(network).toEqual([...accepted].sort().map((id) => ({ id, duplicates: 0 })));
    const fresh = await http.post('/messages/text', { to: '447700900123', message: 'after the upgrade' }, headersOf(instances[0]));
    expect(fresh.status).toBe(201);
    const freshId = (fresh.body as { id: string }).id;
    await eventually(
      async () =>
        (await db.query<{ status: string }>('SELECT status::text AS status FROM messages WHERE id = $1', [freshId])).rows[0].status,
      (status) => status === 'sent',
      10_000,
    );
    expect((await http.post('/session/flush-history', undefined, headersOf(instances[0]))).status).toBe(202);
  }, 180_000);
});
