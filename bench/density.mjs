#!/usr/bin/env node
// How many sandbox instances one worker holds: memory per connected instance, and how long until all of them
// are connected again after the worker restarts. Bounded, loopback only; needs `npm run build` first.
//
//   node bench/density.mjs [instances=2000]
import { spawn, spawnSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { existsSync, readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import pg from 'pg';
import {
  createDatabase,
  deleteRedisPrefix,
  dropDatabase,
  ensurePostgres,
  ensureRedis,
  findFreePort,
  waitForHttp,
  withDatabase,
} from '../scripts/lib/services.mjs';

const root = resolve(import.meta.dirname, '..');
const count = Number(process.argv[2] ?? 2000);
const workerMain = join(root, 'dist/apps/worker/src/main.js');
if (!existsSync(workerMain)) throw new Error('run `npm run build` first');

const tag = randomBytes(4).toString('hex');
const postgres = await ensurePostgres({
  url: [process.env.DATABASE_URL, 'postgresql://postgres@127.0.0.1:5432/postgres'].filter(Boolean),
  dataDir: join(root, '.test-tmp/pg'),
});
const redis = await ensureRedis({
  url: [process.env.REDIS_URL, 'redis://127.0.0.1:6379'].filter(Boolean),
  dir: join(root, '.test-tmp/redis'),
});
const database = `mgw_bench_${tag}`;
const prefix = `mgwbench${tag}`;
await createDatabase(postgres.url, database);
const databaseUrl = withDatabase(postgres.url, database);
const env = {
  ...process.env,
  DATABASE_URL: databaseUrl,
  REDIS_URL: redis.url,
  QUEUE_PREFIX: prefix,
  ADMIN_API_KEY: randomBytes(24).toString('hex'),
  ENCRYPTION_KEY: randomBytes(32).toString('base64'),
  LOG_LEVEL: 'warn',
  SHARD_LEASE_MS: '5000',
};
const db = new pg.Client({ connectionString: databaseUrl });

function rssKb(pid) {
  const line = readFileSync(`/proc/${pid}/status`, 'utf8')
    .split('\n')
    .find((l) => l.startsWith('VmRSS:'));
  return Number(line.replace(/\D/g, ''));
}

async function startWorker() {
  const port = await findFreePort();
  const child = spawn(process.execPath, ['--expose-gc', workerMain], {
    env: { ...env, WORKER_HEALTH_PORT: String(port), PORT: '0' },
    stdio: ['ignore', 'ignore', 'inherit'],
  });
  await waitForHttp(`http://127.0.0.1:${port}/health/ready`, 60_000);
  return {
    child,
    port,
    stop: () => new Promise((done) => (child.exitCode !== null ? done() : (child.once('exit', done), child.kill('SIGTERM')))),
  };
}

async function connectedSince(since) {
  const { rows } = await db.query("SELECT count(*)::int AS n FROM instances WHERE status = 'connected' AND status_changed_at >= $1", [
    since,
  ]);
  return rows[0].n;
}

async function timeUntilAllConnected(since, limitMs = 300_000) {
  while (Date.now() - since.getTime() < limitMs) {
    if ((await connectedSince(since)) >= count) return (Date.now() - since.getTime()) / 1000;
    await new Promise((r) => setTimeout(r, 100));
  }
  throw new Error(`not all ${count} instances connected within ${limitMs / 1000} s (${await connectedSince(since)} were)`);
}

async function settledRss(pid) {
  await new Promise((r) => setTimeout(r, 3000));
  return rssKb(pid);
}

try {
  const migrate = spawnSync(process.execPath, [join(root, 'scripts/migrate.mjs')], { env, stdio: 'inherit' });
  if (migrate.status !== 0) throw new Error('migration failed');
  await db.connect();

  const idle = await startWorker();
  const idleRss = await settledRss(idle.child.pid);
  await idle.stop();

  // Paired sandbox instances, written straight to the database: the bench measures the worker, not the API.
  await db.query("INSERT INTO customers (id, name) VALUES ('cus_bench', 'bench')");
  const { rows } = await db.query(
    `INSERT INTO instances (id, customer_id, name, status, device_id, shard, sandbox, updated_at)
     SELECT 'ins_bench' || g, 'cus_bench', 'bench ' || g, 'disconnected', '1555' || lpad(g::text, 7, '0') || ':2@s.whatsapp.net', g % 16, true, now()
     FROM generate_series(1, $1) AS g RETURNING id, device_id`,
    [count],
  );
  await db.query(
    `INSERT INTO sandbox_devices (instance_id, phone, device_id, online, paired_at)
     SELECT id, split_part(device_id, ':', 1), device_id, true, now() FROM instances WHERE customer_id = 'cus_bench'`,
  );
  console.log(`bench: ${rows.length} paired sandbox instances`);

  const firstStart = new Date();
  const worker = await startWorker();
  const coldSeconds = await timeUntilAllConnected(firstStart);
  const loadedRss = await settledRss(worker.child.pid);
  await worker.stop();

  const restartAt = new Date();
  const restarted = await startWorker();
  const restartSeconds = await timeUntilAllConnected(restartAt);
  await restarted.stop();

  const perInstanceKb = (loadedRss - idleRss) / count;
  console.log('');
  console.log(`instances                          ${count}`);
  console.log(`worker RSS idle                    ${(idleRss / 1024).toFixed(1)} MiB`);
  console.log(`worker RSS with all connected      ${(loadedRss / 1024).toFixed(1)} MiB`);
  console.log(`memory per connected instance      ${perInstanceKb.toFixed(1)} KiB`);
  console.log(`all connected after first start    ${coldSeconds.toFixed(2)} s (${(count / coldSeconds).toFixed(0)} instances/s)`);
  console.log(`all connected after a restart      ${restartSeconds.toFixed(2)} s (${(count / restartSeconds).toFixed(0)} instances/s)`);
} finally {
  await db.end().catch(() => {});
  await dropDatabase(postgres.url, database).catch(() => {});
  await deleteRedisPrefix(redis.url, prefix).catch(() => {});
  await postgres.stop?.();
  await redis.stop?.();
}
