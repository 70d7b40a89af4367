#!/usr/bin/env node
// How many connected real-network (Baileys) instances one worker holds, and their memory each: every instance is
// paired by QR through the fake WhatsApp Web network (test/support/protocol-network) over the real protocol (Noise
// handshake, login, pre-key upload), then the worker restarts and resumes all of them from PostgreSQL.
// Bounded, loopback only; needs `npm run build` first.
//
// Per-instance memory, freshly paired and resumed: resident memory (as the process holds it, and again after a forced full
// collection) and the V8 heap in use after that collection, through the worker's inspector (bench/inspector.mjs).
// With --snapshots=DIR it also writes a heap snapshot of the worker with every instance paired and one after the resume
// (compare them with `node bench/heap-diff.mjs A B`); none of the idle worker, which then pairs (a snapshot leaves the
// process larger).
//
//   node bench/real-driver.mjs [instances=50] [parallel pairings=8] [--snapshots=DIR]
import { spawn } from 'node:child_process';
import { existsSync, mkdirSync } from 'node:fs';
import { loadavg } from 'node:os';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { findFreePort, waitForHttp } from '../scripts/lib/services.mjs';
import { attachInspector, inspectorArgs } from './inspector.mjs';
import { root, scratchServices, settledRssKb, stopper } from './worker-bench.mjs';

const positional = process.argv.slice(2).filter((arg) => !arg.startsWith('--'));
const count = Number(positional[0] ?? 50);
const parallel = Number(positional[1] ?? 8);
const snapshotDir = process.argv.find((arg) => arg.startsWith('--snapshots='))?.slice('--snapshots='.length);
if (snapshotDir) mkdirSync(snapshotDir, { recursive: true });
const workerMain = join(root, 'dist/apps/worker/src/main.js');
const apiMain = join(root, 'dist/apps/api/src/main.js');
if (!existsSync(workerMain) || !existsSync(apiMain)) throw new Error('run `npm run build` first');

const { env, adminKey, db, migrate, dispose } = await scratchServices({
  LOG_LEVEL: 'error',
  SHARD_LEASE_MS: '15000',
  MAX_INSTANCES_PER_CUSTOMER: String(Math.max(count, 100)),
});
const children = [];

async function startFakeNetwork() {
  const child = spawn(process.execPath, [join(root, 'test/support/protocol-network/main.mjs')], { stdio: ['ignore', 'pipe', 'inherit'] });
  children.push(child);
  const line = await new Promise((done) => createInterface({ input: child.stdout }).once('line', done));
  return { ...JSON.parse(line), stop: stopper(child) };
}

async function startApp(main, portVariable, extra = {}, inspected = false) {
  const port = await findFreePort();
  const child = spawn(process.execPath, [...(inspected ? inspectorArgs : []), main], {
    env: { ...env, PORT: '0', WORKER_HEALTH_PORT: '0', [portVariable]: String(port), ...extra },
    // The API's log (errors only) is shown: on a loaded machine its 500s are the first thing to explain.
    stdio: ['ignore', inspected ? 'ignore' : 'inherit', inspected ? 'pipe' : 'inherit'],
  });
  children.push(child);
  const inspector = inspected ? await attachInspector(child) : undefined;
  await waitForHttp(`http://127.0.0.1:${port}/health/ready`, 60_000);
  return { child, inspector, url: `http://127.0.0.1:${port}`, stop: stopper(child) };
}

async function call(url, method, path, headers, body) {
  const response = await fetch(`${url}${path}`, {
    method,
    headers: { ...headers, ...(body ? { 'content-type': 'application/json' } : {}) },
    body: body ? JSON.stringify(body) : undefined,
  });
  const text = await response.text();
  if (response.status >= 300) throw new Error(`${method} ${path}: ${response.status} ${text}`);
  return text ? JSON.parse(text) : undefined;
}

async function connectedCount() {
  const { rows } = await db.query("SELECT count(*)::int AS n FROM instances WHERE status = 'connected'");
  return rows[0].n;
}

async function until(check, limitMs, what) {
  const started = Date.now();
  while (Date.now() - started < limitMs) {
    if (await check()) return (Date.now() - started) / 1000;
    await new Promise((r) => setTimeout(r, 200));
  }
  throw new Error(`${what} not within ${limitMs / 1000} s (${await connectedCount()} connected)`);
}

const settledRss = (pid) => settledRssKb(pid, 5000);

/**
 * The worker's memory as it stands (resident, KiB), then after two forced full collections: the heap in use (KiB) and the
 * resident memory once more (V8 gives freed pages back after a collection; what malloc keeps stays resident).
 */
async function measure(worker, snapshotName) {
  const rss = await settledRss(worker.child.pid);
  const heap = (await worker.inspector.collectedHeap()) / 1024;
  const collectedRss = await settledRssKb(worker.child.pid, 2000);
  const external = (await worker.inspector.memoryUsage()).external / 1024;
  // Last: taking a snapshot makes the process larger for a while.
  if (snapshotDir && snapshotName) await worker.inspector.snapshot(join(snapshotDir, `${snapshotName}.heapsnapshot`));
  return { rss, heap, collectedRss, external };
}

try {
  migrate();
  await db.connect();
  const network = await startFakeNetwork();
  const workerEnv = { BAILEYS_WS_URL: network.webSocketUrl, BAILEYS_TEST_NETWORK_ROOT_KEY: network.rootPublicKey };

  const idle = await startApp(workerMain, 'WORKER_HEALTH_PORT', workerEnv, true);
  const idleMemory = await measure(idle);
  const idleRss = idleMemory.rss;
  const api = await startApp(apiMain, 'PORT');
  const customer = await call(api.url, 'POST', '/admin/customers', { 'X-Admin-Key': adminKey }, { name: 'bench' });

  // Pairing: each instance shows the QR the fake network issued, and the fake phone scans it. On a loaded machine a
  // pairing now and then does not complete (the pairing socket timed out and the worker opened a new one, with a new
  // QR): as a user would, the phone scans the new QR, up to 5 times per instance.
  const pairStarted = Date.now();
  let next = 0;
  let rescans = 0;
  const qrOf = async (headers) => {
    // Right after the worker starts (shards being claimed, Baileys loading) a QR request may find no session yet.
    for (let attempt = 1; ; attempt += 1) {
      try {
        return (await call(api.url, 'GET', '/session/qr/text', headers)).code;
      } catch (error) {
        if (attempt >= 10 || !String(error.message).includes(' 503 ')) throw error;
        await new Promise((r) => setTimeout(r, 1000));
      }
    }
  };
  const connectedWithin = async (id, limitMs) => {
    const started = Date.now();
    while (Date.now() - started < limitMs) {
      const { rows } = await db.query('SELECT status FROM instances WHERE id = $1', [id]);
      if (rows[0]?.status === 'connected') return true;
      await new Promise((r) => setTimeout(r, 500));
    }
    return false;
  };
  const pairOne = async () => {
    while (next < count) {
      const n = next++;
      const instance = await call(
        api.url,
        'POST',
        '/account/instances',
        { 'X-Api-Key': customer.apiKey },
        { name: `bench ${n}`, sandbox: false },
      );
      const headers = { 'X-Api-Key': instance.apiKey, 'X-Instance-Id': instance.id };
      for (let scan = 1; scan <= 5; scan += 1) {
        if (scan > 1) rescans += 1;
        try {
          const code = await qrOf(headers);
          await call(network.controlUrl, 'POST', '/phone/scan', {}, { qr: code, phone: `4477${String(n).padStart(8, '0')}` });
        } catch (error) {
          // A QR that went stale between reading and scanning, or a link completing meanwhile: look again.
          if (scan === 1 && !String(error.message).includes(' 40')) throw error;
        }
        if (await connectedWithin(instance.id, 30_000)) break;
      }
    }
  };
  await Promise.all(Array.from({ length: parallel }, pairOne));
  // An instance still not connected after 5 scans is left out: the figures are per instance that did connect.
  const pairSeconds = await until(async () => (await connectedCount()) >= count, 180_000, `all ${count} instances connected`).catch(
    (error) => (console.error(`bench: ${error.message}`), NaN),
  );
  const connected = await connectedCount();
  const pairedIn = (Date.now() - pairStarted) / 1000;
  const paired = await measure(idle, 'paired');
  const loadedRss = paired.rss;
  idle.inspector.close();
  await idle.stop();

  // Resume: a fresh worker logs every instance in again from the credentials in PostgreSQL.
  await db.query("UPDATE instances SET status = 'disconnected' WHERE status = 'connected'");
  const restarted = await startApp(workerMain, 'WORKER_HEALTH_PORT', workerEnv, true);
  const resumeSeconds = await until(async () => (await connectedCount()) >= connected, 300_000, `all ${connected} instances resumed`);
  const resumed = await measure(restarted, 'resumed');
  const resumedRss = resumed.rss;
  restarted.inspector.close();
  await Promise.all([restarted.stop(), api.stop(), network.stop()]);

  console.log('');
  console.log(`real instances (Baileys over the fake network)  ${count} (${connected} connected after pairing)`);
  console.log(
    `paired by QR (${parallel} at a time)               ${pairedIn.toFixed(1)} s (last link up ${pairSeconds.toFixed(1)} s after the last scan; ${rescans} QR scanned again)`,
  );
  console.log(`worker RSS idle                                ${(idleRss / 1024).toFixed(1)} MiB`);
  console.log(`worker RSS with all connected                  ${(loadedRss / 1024).toFixed(1)} MiB`);
  // The idle worker has not loaded Baileys yet (it loads on the first connect): the figure includes its share of that.
  console.log(
    `memory per connected real instance             ${((loadedRss - idleRss) / connected).toFixed(0)} KiB (Baileys' own load included)`,
  );
  console.log(
    `all resumed after a worker restart             ${resumeSeconds.toFixed(1)} s (${(connected / resumeSeconds).toFixed(1)} instances/s)`,
  );
  console.log(
    `worker RSS after the resume                    ${(resumedRss / 1024).toFixed(1)} MiB (${((resumedRss - idleRss) / connected).toFixed(0)} KiB each)`,
  );
  // Per instance, against the idle worker (which has not loaded Baileys: its share is in every figure).
  const each = (value, base) => ((value - base) / connected / 1024).toFixed(2);
  console.log('per connected instance, MiB                    fresh (paired)   resumed');
  console.log(
    `  resident memory as it stands                 ${each(paired.rss, idleMemory.rss).padEnd(17)}${each(resumed.rss, idleMemory.rss)}`,
  );
  console.log(
    `  resident memory after a full collection      ${each(paired.collectedRss, idleMemory.collectedRss).padEnd(17)}${each(resumed.collectedRss, idleMemory.collectedRss)}`,
  );
  console.log(
    `  V8 heap in use after a full collection       ${each(paired.heap, idleMemory.heap).padEnd(17)}${each(resumed.heap, idleMemory.heap)}`,
  );
  console.log(
    `  memory outside the V8 heap (buffers, ...)    ${each(paired.external, idleMemory.external).padEnd(17)}${each(resumed.external, idleMemory.external)}`,
  );
  console.log(
    `load average (1, 5, 15 min)                    ${loadavg()
      .map((n) => n.toFixed(2))
      .join(' ')}`,
  );
} finally {
  for (const child of children) if (child.exitCode === null) child.kill('SIGKILL');
  await dispose();
}
