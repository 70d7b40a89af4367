#!/usr/bin/env node
// Steady state under a mixed load: does anything grow without bound?
//
//   npm run build && node bench/soak.mjs [--minutes=10] [--sends=150] [--inbound=40] [--instances=20] [--receiver-delay=0] [--collect-at=5] [--snapshots=DIR] [--json]
//
// The built API and one worker (dist/) against a fresh database and Redis prefix; --instances paired sandbox instances,
// each with its own webhook URL on a local receiver (HTTP/1.1 keep-alive) that answers 200 after --receiver-delay ms.
// For --minutes: --sends POST /messages/text per second (open loop, round-robin) and --inbound inbound messages per
// second (POST /sandbox/inbound/batch every 250 ms to the next instance). Every 30 s it samples: deliveries pending
// in PostgreSQL (the webhook backlog), sends accepted but not yet sent, deliveries per second since the last sample
// (the receiver's count), and the resident memory (VmRSS) of the API and the worker.
// RSS is read every second and each sample shows the window's peak: a single reading lands anywhere on the garbage
// collector's saw-tooth (±20 % within a minute), the peak is the memory the process needed in that window.
// Verdict lines: after the first minute, the largest backlog (goal <= 1,000 with a receiver that answers at once) and each
// process's RSS growth: the median of the window peaks in the last third of the run against the median in the first third
// after the first minute (goal <= 10 %). The same comparison of each window's heap floor (the lowest V8 heap in use, from
// the process's /metrics every 5 s, i.e. what survives garbage collection) tells a leak from a heap V8 grows and returns. With --receiver-delay=2000
// the backlog grows by design; the worker's RSS must stay flat all the same (the backlog lives in PostgreSQL and Redis).
// The heap after a forced full collection (both processes run with an inspector, see bench/inspector.mjs): taken at
// --collect-at minutes (5, or the run's first sixth when shorter) and again at the end, under load both times; the
// verdict compares the two (goal within ±5 %). With --snapshots=DIR each checkpoint also writes a heap snapshot of
// each process there (compare them with `node bench/heap-diff.mjs A B`).
// Exit status 0, 1 on failure, 130 when stopped. Everything created is removed at the end.
import { mkdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import http from 'node:http';
import * as gw from './gateway.mjs';
import { connectInspector, inspectorArgs, inspectorUrlIn } from './inspector.mjs';

const { environmentLine, fixed, intSetting, table } = gw;

const { log, argv, jsonOutput } = gw.benchStart();
const minutes = intSetting(argv, 'minutes', 'BENCH_MINUTES', 10, 1, 24 * 60);
const sendRate = intSetting(argv, 'sends', 'BENCH_SENDS', 150, 0, 10_000);
const inboundRate = intSetting(argv, 'inbound', 'BENCH_INBOUND', 40, 0, 10_000);
const instanceCount = intSetting(argv, 'instances', 'BENCH_INSTANCES', 20, 1, 1000);
const receiverDelayMs = intSetting(argv, 'receiver-delay', 'BENCH_RECEIVER_DELAY', 0, 0, 60_000);
const sampleSeconds = intSetting(argv, 'sample', 'BENCH_SAMPLE', 30, 1, 3600);
const collectAt = intSetting(argv, 'collect-at', 'BENCH_COLLECT_AT', Math.min(5, Math.max(1, Math.floor(minutes / 6))), 1, 24 * 60);
const snapshotDir = argv.find((arg) => arg.startsWith('--snapshots='))?.slice('--snapshots='.length);
if (snapshotDir) mkdirSync(snapshotDir, { recursive: true });
const { cleanups, control } = gw.boundedRun(log, (minutes * 60 + 600) * 1000);

/** The V8 heap in use and reserved, from a process's Prometheus metrics, in MiB (NaN when it cannot be read). */
async function heapMiB(url) {
  try {
    const response = await fetch(`${url}/metrics`, { signal: AbortSignal.timeout(2000) });
    const text = await response.text();
    const read = (name) => Number(new RegExp(`^${name} (\\d+)`, 'm').exec(text)?.[1]) / 1024 / 1024;
    return { used: read('nodejs_heap_size_used_bytes'), total: read('nodejs_heap_size_total_bytes') };
  } catch {
    return { used: NaN, total: NaN };
  }
}

function rssMiB(pid) {
  try {
    const kb = Number(/VmRSS:\s+(\d+)/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'))?.[1]);
    return kb / 1024;
  } catch {
    return NaN;
  }
}

const post = async (agent, url, headers, body) => (await gw.postJson(agent, url, headers, body, { timeoutMs: 30_000 })).status;

let exitCode = 1;
const processes = [];
try {
  const gateway = await gw.startGateway({
    cleanups,
    control,
    log,
    label: 'soak',
    processes,
    env: { WEBHOOK_ALLOWED_HOSTS: '127.0.0.1' },
    nodeArgs: inspectorArgs,
  });
  const inspectors = {
    api: await connectInspector(inspectorUrlIn(gateway.api.output())),
    worker: await connectInspector(inspectorUrlIn(gateway.worker.output())),
  };
  cleanups.push('closed the inspectors', () => Object.values(inspectors).forEach((inspector) => inspector.close()));
  /** Both processes' V8 heap in use after two forced full collections, MiB; then their snapshots, when asked for. */
  const collectedHeaps = async (minute) => {
    const heaps = {
      api: (await inspectors.api.collectedHeap()) / 1024 / 1024,
      worker: (await inspectors.worker.collectedHeap()) / 1024 / 1024,
    };
    if (snapshotDir)
      for (const [name, inspector] of Object.entries(inspectors))
        await inspector.snapshot(join(snapshotDir, `soak-${name}-minute-${Math.round(minute)}.heapsnapshot`));
    return heaps;
  };
  const collected = [];
  const { instances } = await gw.pairedInstances(gateway, instanceCount, { control, log });
  const receiver = await gw.startCountingReceiver(cleanups, { delayMs: receiverDelayMs });
  await gw.pointWebhooks(gateway, instances, receiver.port, () => 'soak-signing-secret-0123456789');
  const agent = new http.Agent({ keepAlive: true, maxSockets: 256 });
  cleanups.push('closed the HTTP client', () => agent.destroy());
  const answers = {};
  const count = (status) => (answers[status] = (answers[status] ?? 0) + 1);
  const inFlight = new Set();
  const track = (promise) => {
    inFlight.add(promise);
    void promise.finally(() => inFlight.delete(promise));
  };

  log(
    `soak: ${sendRate} sends/s + ${inboundRate} inbound/s over ${instanceCount} instances for ${minutes} min, receiver delay ${receiverDelayMs} ms`,
  );
  const start = performance.now();
  const end = start + minutes * 60_000;
  let sends = 0;
  let inboundTicks = 0;
  let inboundSent = 0;
  const sendTimer = setInterval(() => {
    const due = Math.floor(((performance.now() - start) / 1000) * sendRate);
    for (; sends < due && inFlight.size < 1000; sends += 1) {
      const instance = instances[sends % instances.length];
      track(post(agent, `${gateway.apiUrl}/messages/text`, instance.headers, { to: '447700900123', message: `soak ${sends}` }).then(count));
    }
    sends = Math.max(sends, due);
  }, 5);
  const inboundTimer = setInterval(() => {
    const due = Math.floor(((performance.now() - start) / 1000) * inboundRate);
    const texts = [];
    for (; inboundSent < due; inboundSent += 1) texts.push({ from: '447700900123', type: 'text', text: `in ${inboundSent}` });
    if (texts.length === 0) return;
    const instance = instances[inboundTicks % instances.length];
    inboundTicks += 1;
    track(
      post(agent, `${gateway.apiUrl}/sandbox/inbound/batch`, instance.headers, { messages: texts }).then((status) =>
        count(`inbound ${status}`),
      ),
    );
  }, 250);
  cleanups.push('stopped the load', () => {
    clearInterval(sendTimer);
    clearInterval(inboundTimer);
  });

  // The peak RSS of each process since the last sample, read every second.
  const peaks = { api: 0, worker: 0 };
  const rssTimer = setInterval(() => {
    peaks.api = Math.max(peaks.api, rssMiB(gateway.api.child.pid) || 0);
    peaks.worker = Math.max(peaks.worker, rssMiB(gateway.worker.child.pid) || 0);
  }, 1000);
  cleanups.push('stopped reading RSS', () => clearInterval(rssTimer));
  // The lowest V8 heap in use since the last sample (from each process's /metrics every 5 s): what survives garbage
  // collection. A leak raises this floor; a heap that V8 grows and gives back only moves the RSS.
  // With it, the peak of the memory outside V8's heap (RSS less the heap V8 has reserved, read together): native
  // allocations, buffers, WebAssembly memory and code, which grow apart from the heap.
  const floors = { api: Infinity, worker: Infinity };
  const outside = { api: 0, worker: 0 };
  const readFloors = async () => {
    for (const [name, url, pid] of [
      ['api', gateway.apiUrl, gateway.api.child.pid],
      ['worker', gateway.workerUrl, gateway.worker.child.pid],
    ]) {
      const heap = await heapMiB(url);
      if (Number.isFinite(heap.used)) floors[name] = Math.min(floors[name], heap.used);
      const beside = rssMiB(pid) - heap.total;
      if (Number.isFinite(beside)) outside[name] = Math.max(outside[name], beside);
    }
  };
  const heapTimer = setInterval(() => void readFloors(), 5000);
  cleanups.push('stopped reading heap sizes', () => clearInterval(heapTimer));

  const samples = [];
  let lastRequests = 0;
  let lastAt = performance.now();
  while (performance.now() < end) {
    await control.sleep(Math.min(sampleSeconds * 1000, end - performance.now()));
    const now = performance.now();
    const minute = (now - start) / 60_000;
    if ((collected.length === 0 && minute >= collectAt) || now >= end - 1_000) {
      const heaps = await collectedHeaps(minute);
      collected.push({ minute, ...heaps });
      log(
        `t=${fixed(minute, 1)} min: heap after a forced full collection api ${fixed(heaps.api, 1)} MiB, worker ${fixed(heaps.worker, 1)} MiB`,
      );
    }
    const { rows } = await gateway.db.query(
      `SELECT (SELECT count(*) FROM webhook_deliveries WHERE state = 'pending')::int AS backlog,
              (SELECT count(*) FROM messages WHERE status = 'accepted')::int AS pending_sends`,
    );
    const sample = {
      minute: (now - start) / 60_000,
      backlog: rows[0].backlog,
      pendingSends: rows[0].pending_sends,
      deliveriesPerSecond: (receiver.stats.requests - lastRequests) / ((now - lastAt) / 1000),
      rss: {
        api: Math.max(peaks.api, rssMiB(gateway.api.child.pid) || 0),
        worker: Math.max(peaks.worker, rssMiB(gateway.worker.child.pid) || 0),
      },
    };
    sample.heapFloor = { api: floors.api, worker: floors.worker };
    sample.outsideHeap = { api: outside.api, worker: outside.worker };
    outside.api = 0;
    outside.worker = 0;
    peaks.api = 0;
    peaks.worker = 0;
    floors.api = Infinity;
    floors.worker = Infinity;
    lastRequests = receiver.stats.requests;
    lastAt = now;
    samples.push(sample);
    log(
      `t=${fixed(sample.minute, 1)} min: backlog ${sample.backlog}, pending sends ${sample.pendingSends}, ` +
        `${fixed(sample.deliveriesPerSecond)} deliveries/s, peak RSS api ${fixed(sample.rss.api)} MiB, worker ${fixed(sample.rss.worker)} MiB, ` +
        `heap floor api ${fixed(sample.heapFloor.api)} MiB, worker ${fixed(sample.heapFloor.worker)} MiB, ` +
        `outside the heap api ${fixed(sample.outsideHeap.api)} MiB, worker ${fixed(sample.outsideHeap.worker)} MiB`,
    );
  }
  clearInterval(sendTimer);
  clearInterval(inboundTimer);
  await Promise.all(inFlight);

  clearInterval(rssTimer);
  clearInterval(heapTimer);
  const steady = samples.filter((sample) => sample.minute > 1);
  // The trend, not one reading: the median of the window peaks in the first and in the last third after the first minute.
  const third = Math.max(1, Math.floor(steady.length / 3));
  const medianOf = (window, figure, name) => gw.median(window.map((sample) => sample[figure][name]));
  const growth = (figure, name) => {
    if (steady.length < 2) return NaN;
    const first = medianOf(steady.slice(0, third), figure, name);
    return (medianOf(steady.slice(-third), figure, name) - first) / first;
  };
  const summary = {
    environment: environmentLine(),
    minutes,
    sendRate,
    inboundRate,
    instances: instanceCount,
    receiverDelayMs,
    answers,
    samples,
    maxBacklogAfterFirstMinute: Math.max(...steady.map((sample) => sample.backlog)),
    rssGrowth: { api: growth('rss', 'api'), worker: growth('rss', 'worker') },
    heapFloorGrowth: { api: growth('heapFloor', 'api'), worker: growth('heapFloor', 'worker') },
    outsideHeapGrowth: { api: growth('outsideHeap', 'api'), worker: growth('outsideHeap', 'worker') },
    collectedHeaps: collected,
    collectedHeapGrowth:
      collected.length === 2
        ? { api: collected[1].api / collected[0].api - 1, worker: collected[1].worker / collected[0].worker - 1 }
        : null,
  };
  if (jsonOutput) console.log(JSON.stringify(summary, null, 2));
  else {
    console.log(
      `\nsoak: ${sendRate} sends/s + ${inboundRate} inbound/s over ${instanceCount} instances for ${minutes} min, ` +
        `receiver answers after ${receiverDelayMs} ms; ${environmentLine()}\n`,
    );
    console.log(
      table([
        [
          't (min)',
          'pending deliveries',
          'pending sends',
          'deliveries/s',
          'peak RSS api MiB',
          'peak RSS worker MiB',
          'heap floor api MiB',
          'heap floor worker MiB',
          'outside heap api MiB',
          'outside heap worker MiB',
        ],
        ...samples.map((s) => [
          fixed(s.minute, 1),
          String(s.backlog),
          String(s.pendingSends),
          fixed(s.deliveriesPerSecond),
          fixed(s.rss.api),
          fixed(s.rss.worker),
          fixed(s.heapFloor.api),
          fixed(s.heapFloor.worker),
          fixed(s.outsideHeap.api),
          fixed(s.outsideHeap.worker),
        ]),
      ]),
    );
    console.log(
      `\nafter the first minute: largest backlog ${summary.maxBacklogAfterFirstMinute} (goal <= 1000 with a prompt receiver); ` +
        `RSS growth (median window peak, last ${third} samples vs the first ${third}) api ${fixed(summary.rssGrowth.api * 100, 1)} %, ` +
        `worker ${fixed(summary.rssGrowth.worker * 100, 1)} % (goal <= 10 %); heap floor growth (same windows) ` +
        `api ${fixed(summary.heapFloorGrowth.api * 100, 1)} %, worker ${fixed(summary.heapFloorGrowth.worker * 100, 1)} %; ` +
        `outside-heap peak growth api ${fixed(summary.outsideHeapGrowth.api * 100, 1)} %, worker ${fixed(summary.outsideHeapGrowth.worker * 100, 1)} %`,
    );
    const [first, last] = collected;
    if (summary.collectedHeapGrowth)
      console.log(
        `heap after a forced full collection, minute ${fixed(first.minute, 1)} → ${fixed(last.minute, 1)}: ` +
          `api ${fixed(first.api, 1)} → ${fixed(last.api, 1)} MiB (${fixed(summary.collectedHeapGrowth.api * 100, 1)} %), ` +
          `worker ${fixed(first.worker, 1)} → ${fixed(last.worker, 1)} MiB (${fixed(summary.collectedHeapGrowth.worker * 100, 1)} %) (goal within ±5 %)`,
      );
    console.log(`answers: ${JSON.stringify(answers)}\n`);
  }
  exitCode = 0;
} catch (error) {
  gw.logFailure(log, error, processes);
} finally {
  await gw.endRun({ control, cleanups }, exitCode);
}
