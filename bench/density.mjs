#!/usr/bin/env node
// How many sandbox instances one worker holds: memory per connected instance, and how long until all of them
// are connected again after the worker restarts. Bounded, loopback only; needs `npm run build` first.
//
//   node bench/density.mjs [instances=2000]
import { spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { findFreePort, waitForHttp } from '../scripts/lib/services.mjs';
import { root, scratchServices, settledRssKb, stopper } from './worker-bench.mjs';

const count = Number(process.argv[2] ?? 2000);
const workerMain = join(root, 'dist/apps/worker/src/main.js');
if (!existsSync(workerMain)) throw new Error('run `npm run build` first');

const { env, db, migrate, dispose } = await scratchServices({ LOG_LEVEL: 'warn', SHARD_LEASE_MS: '5000' });

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
    stop: stopper(child),
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

const settledRss = (pid) => settledRssKb(pid, 3000);

try {
  migrate();
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
  await dispose();
}
