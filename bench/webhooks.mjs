#!/usr/bin/env node
// Webhook delivery: how many signed deliveries per second reach a local receiver, and how long an event takes from
// being recorded (envelope receivedAt, written by the worker) to arriving at the receiver, at a fixed event rate.
//
//   npm run build && node bench/webhooks.mjs [--events=10000] [--rate=500] [--duration=15] [--instances=10] [--batch=100] [--json]
//
// The built API and one worker run in their own processes (dist/) with a fresh database, their own Redis key prefix
// and WEBHOOK_ALLOWED_HOSTS=127.0.0.1. A receiver in this process (HTTP/1.1 keep-alive, 127.0.0.1) checks every
// X-Webhook-Signature with its own HMAC and answers 200. Events are inbound text messages injected through
// POST /sandbox/inbound/batch (--batch messages per request; POST /sandbox/inbound one by one when the API has no batch
// route, e.g. an older build) on paired sandbox instances, each with its own webhook URL and signing secret.
//   (1) burst: --events events injected as fast as --concurrency requests allow; ingested/s is events over the time
//       the injection took, deliveries/s the number of distinct events received divided by the time from the first to
//       the last arrival.
//   (2) fixed rate: --rate events/s for --duration s (open loop: every 50 ms the events due, as one request to the next
//       instance in turn); event-to-receiver latency p50/p99/max over every event.
//   (3) backlog: the deliveries of the burst's events are set pending again in PostgreSQL and their jobs queued at
//       once (as after a receiver outage), so only delivery is measured: signed deliveries/s from first to last arrival.
// Phases (1) and (3) also print the CPU each process (API, worker, PostgreSQL backends of the bench database, Redis)
// spent per delivered event (from /proc), the figure to compare on a machine shared with other work.
// Exit status 0, 2 when an event was not delivered or a signature did not verify, 1 on failure, 130 when stopped.
import { createHmac, randomBytes } from 'node:crypto';
import http from 'node:http';
import * as gw from './gateway.mjs';

const { CpuMeter, environmentLine, fixed, intSetting, percentile, table } = gw;

const { log, argv, jsonOutput } = gw.benchStart();
const burstEvents = intSetting(argv, 'events', 'BENCH_EVENTS', 10_000, 1, 1_000_000);
const rate = intSetting(argv, 'rate', 'BENCH_RATE', 500, 1, 100_000);
const batchSize = intSetting(argv, 'batch', 'BENCH_BATCH', 100, 1, 1000);
const duration = intSetting(argv, 'duration', 'BENCH_DURATION', 15, 1, 3600);
const instanceCount = intSetting(argv, 'instances', 'BENCH_INSTANCES', 10, 1, 1000);
const concurrency = intSetting(argv, 'concurrency', 'BENCH_CONCURRENCY', 16, 1, 10_000);
const deliverTimeout = intSetting(argv, 'deliver-timeout', 'BENCH_DELIVER_TIMEOUT', 120, 1, 3600);
const { cleanups, control } = gw.boundedRun(log, gw.timeoutSetting(argv, duration + 2 * deliverTimeout + 300));

/** The receiver: verifies each signature independently and keeps the first arrival per event id. */
function startReceiver(secrets) {
  const arrivals = new Map();
  const stats = { requests: 0, badSignatures: 0, duplicates: 0 };
  const log = [];
  const server = http.createServer((req, res) => {
    const chunks = [];
    req.on('data', (chunk) => chunks.push(chunk));
    req.on('end', () => {
      const at = Date.now();
      const raw = Buffer.concat(chunks).toString('utf8');
      stats.requests += 1;
      const secret = secrets.get(req.headers['x-instance-id']);
      const expected = secret ? `sha256=${createHmac('sha256', Buffer.from(secret, 'utf8')).update(raw).digest('hex')}` : '';
      if (req.headers['x-webhook-signature'] !== expected) stats.badSignatures += 1;
      const envelope = JSON.parse(raw);
      log.push({ eventId: envelope.eventId, at });
      if (arrivals.has(envelope.eventId)) stats.duplicates += 1;
      else arrivals.set(envelope.eventId, { at, receivedAt: Date.parse(envelope.receivedAt), text: envelope.eventData?.text });
      res.writeHead(200, { 'content-type': 'application/json' }).end('{}');
    });
  });
  return new Promise((resolve) =>
    server.listen(0, '127.0.0.1', () => resolve({ server, arrivals, stats, log, port: server.address().port })),
  );
}

const postJson = async (agent, url, headers, body) => (await gw.postJson(agent, url, headers, body)).status;

let batchRoute = true;

/** Injects `texts` as inbound text messages of one instance; resolves the number refused. */
async function inject(agent, apiUrl, instance, texts) {
  if (batchRoute) {
    const messages = texts.map((text) => ({ from: '447700900123', type: 'text', text }));
    const status = await postJson(agent, `${apiUrl}/sandbox/inbound/batch`, instance.headers, { messages });
    if (status === 201) return 0;
    if (status !== 404) return texts.length;
    batchRoute = false;
    log('no POST /sandbox/inbound/batch on this build: injecting one request per event');
  }
  let refused = 0;
  for (const text of texts)
    if ((await postJson(agent, `${apiUrl}/sandbox/inbound`, instance.headers, { from: '447700900123', type: 'text', text })) !== 201)
      refused += 1;
  return refused;
}

async function waitForTexts(receiver, texts) {
  const deadline = Date.now() + deliverTimeout * 1000;
  const seen = () => {
    let count = 0;
    for (const arrival of receiver.arrivals.values()) if (texts.has(arrival.text)) count += 1;
    return count;
  };
  while (seen() < texts.size && Date.now() < deadline) await control.sleep(100);
  return [...receiver.arrivals.values()].filter((arrival) => texts.has(arrival.text));
}

function latencies(arrivals) {
  const sorted = arrivals.map((arrival) => arrival.at - arrival.receivedAt).sort((a, b) => a - b);
  return { p50: percentile(sorted, 50), p99: percentile(sorted, 99), max: sorted.at(-1) ?? NaN };
}

let exitCode = 1;
const processes = [];
try {
  const gateway = await gw.startGateway({
    cleanups,
    control,
    log,
    label: 'webhooks',
    processes,
    env: { WEBHOOK_ALLOWED_HOSTS: '127.0.0.1' },
  });
  const { instances } = await gw.pairedInstances(gateway, instanceCount, { control, log });
  const secrets = new Map(instances.map((instance) => [instance.id, randomBytes(24).toString('base64url')]));
  const receiver = await startReceiver(secrets);
  cleanups.push('stopped the receiver', () => gw.closeReceiver(receiver));
  await gw.pointWebhooks(gateway, instances, receiver.port, (instance) => secrets.get(instance.id));
  const agent = new http.Agent({ keepAlive: true, maxSockets: concurrency });
  const groups = await gw.gatewayCpuGroups(gateway);
  /** CPU ms each process spent per event over a phase: the figure that carries over from a machine shared with others. */
  const cpuPerEvent = (cpu, events) =>
    Object.fromEntries(
      Object.entries(cpu.groups).map(([group, percent]) => [group, ((percent / 100) * cpu.seconds * 1000) / Math.max(1, events)]),
    );

  // (1) burst
  const burstMeter = new CpuMeter(groups);
  await burstMeter.start();
  log(`burst: injecting ${burstEvents} events, ${batchSize} per request, ${concurrency} requests in flight`);
  const burstTexts = new Set();
  let next = 0;
  let refused = 0;
  let call = 0;
  const injectStarted = Date.now();
  await Promise.all(
    Array.from({ length: concurrency }, async () => {
      while (next < burstEvents) {
        const first = next;
        next = Math.min(burstEvents, next + batchSize);
        const texts = [];
        for (let index = first; index < next; index += 1) texts.push(`burst ${index}`);
        for (const text of texts) burstTexts.add(text);
        const instance = instances[call % instances.length];
        call += 1;
        refused += await inject(agent, gateway.apiUrl, instance, texts);
      }
    }),
  );
  const injectSeconds = (Date.now() - injectStarted) / 1000;
  const burst = await waitForTexts(receiver, burstTexts);
  const burstCpu = await burstMeter.stop();
  const firstAt = Math.min(...burst.map((arrival) => arrival.at));
  const lastAt = Math.max(...burst.map((arrival) => arrival.at));
  const burstResult = {
    events: burstEvents,
    refused,
    delivered: burst.length,
    injectRate: burstEvents / injectSeconds,
    deliveryRate: burst.length / Math.max(0.001, (lastAt - firstAt) / 1000),
    ...latencies(burst),
    cpuMsPerEvent: cpuPerEvent(burstCpu, burst.length),
  };

  // (2) fixed rate
  log(`fixed rate: ${rate} events/s for ${duration} s`);
  const rateTexts = new Set();
  const t0 = performance.now();
  const total = rate * duration;
  const inFlight = new Set();
  let skipped = 0;
  let issued = 0;
  for (let tick = 1; issued < total; tick += 1) {
    const wait = t0 + tick * 50 - performance.now();
    if (wait > 0) await control.sleep(wait);
    const due = Math.min(total, Math.floor(((performance.now() - t0) / 1000) * rate));
    const texts = [];
    for (; issued < due; issued += 1) texts.push(`rate ${issued}`);
    if (inFlight.size >= concurrency) {
      skipped += texts.length;
      continue;
    }
    if (texts.length === 0) continue;
    for (const text of texts) rateTexts.add(text);
    const request = inject(agent, gateway.apiUrl, instances[tick % instances.length], texts).then((count) => {
      refused += count;
      inFlight.delete(request);
    });
    inFlight.add(request);
  }
  await Promise.all(inFlight);
  const fixedRate = await waitForTexts(receiver, rateTexts);
  const rateResult = { events: rateTexts.size, skipped, delivered: fixedRate.length, ...latencies(fixedRate) };

  // (3) backlog
  const burstIds = [...receiver.arrivals.entries()].filter(([, arrival]) => burstTexts.has(arrival.text)).map(([eventId]) => eventId);
  log(`backlog: ${burstIds.length} deliveries pending again at once`);
  const { rows: reset } = await gateway.db.query(
    `UPDATE webhook_deliveries SET state = 'pending', schedule_step = 0, next_attempt_at = now() WHERE event_id = ANY($1) RETURNING event_id, attempts`,
    [burstIds],
  );
  const { Queue } = await import('bullmq');
  const { Redis } = await import('ioredis');
  const connection = new Redis(gateway.infra.redisUrl, { maxRetriesPerRequest: null });
  const queue = new Queue('{webhooks}', { connection, prefix: gateway.infra.queuePrefix }); // WEBHOOK_QUEUE
  const backlogMeter = new CpuMeter(groups);
  await backlogMeter.start();
  const backlogStart = Date.now();
  const logMark = receiver.log.length;
  await queue.addBulk(
    reset.map((row) => ({
      name: 'deliver',
      data: { eventId: row.event_id, attempts: row.attempts },
      opts: { jobId: `${row.event_id}.${row.attempts}`, removeOnComplete: true, removeOnFail: true },
    })),
  );
  await queue.close();
  connection.disconnect();
  const backlogDeadline = Date.now() + deliverTimeout * 1000;
  while (receiver.log.length - logMark < reset.length && Date.now() < backlogDeadline) await control.sleep(50);
  const backlogCpu = await backlogMeter.stop();
  const backlogArrivals = receiver.log.slice(logMark);
  const backlogLast = Math.max(...backlogArrivals.map((entry) => entry.at));
  const backlogResult = {
    events: reset.length,
    delivered: new Set(backlogArrivals.map((entry) => entry.eventId)).size,
    deliveryRate: backlogArrivals.length / Math.max(0.001, (backlogLast - backlogStart) / 1000),
    cpuMsPerEvent: cpuPerEvent(backlogCpu, backlogArrivals.length),
  };

  const summary = {
    environment: environmentLine(),
    instances: instanceCount,
    burst: burstResult,
    fixedRate: { rate, duration, ...rateResult },
    backlog: backlogResult,
    receiver: receiver.stats,
  };
  if (jsonOutput) console.log(JSON.stringify(summary, null, 2));
  else {
    console.log(`\nwebhooks: ${instanceCount} instances, each its own URL and secret on one local receiver; ${environmentLine()}\n`);
    console.log(
      table(
        [
          ['phase', 'events', 'delivered', 'deliveries/s', 'ingested/s', 'p50 ms', 'p99 ms', 'max ms'],
          [
            '(1) burst',
            String(burstResult.events),
            String(burstResult.delivered),
            fixed(burstResult.deliveryRate),
            fixed(burstResult.injectRate),
            fixed(burstResult.p50),
            fixed(burstResult.p99),
            fixed(burstResult.max),
          ],
          [
            `(2) ${rate}/s for ${duration} s`,
            String(rateResult.events),
            String(rateResult.delivered),
            '-',
            '-',
            fixed(rateResult.p50),
            fixed(rateResult.p99),
            fixed(rateResult.max),
          ],
          [
            '(3) backlog',
            String(backlogResult.events),
            String(backlogResult.delivered),
            fixed(backlogResult.deliveryRate),
            '-',
            '-',
            '-',
            '-',
          ],
        ],
        [0],
      ),
    );
    console.log(
      `\nlatency = receiver arrival - envelope receivedAt (same clock). Receiver: ${receiver.stats.requests} requests, ` +
        `${receiver.stats.badSignatures} bad signatures, ${receiver.stats.duplicates} repeats (phase 3 delivers the burst again); ${refused} injections refused, ${skipped} not sent (rate not met)\n`,
    );
    const cpuGroups = Object.keys(burstResult.cpuMsPerEvent);
    console.log(
      table(
        [
          ['CPU ms per delivered event', ...cpuGroups],
          ['(1) burst (ingest + deliver)', ...cpuGroups.map((group) => fixed(burstResult.cpuMsPerEvent[group], 2))],
          ['(3) backlog (deliver only)', ...cpuGroups.map((group) => fixed(backlogResult.cpuMsPerEvent[group], 2))],
        ],
        [0],
      ),
    );
  }
  const problems = [];
  if (burstResult.delivered < burstEvents - refused || rateResult.delivered < rateResult.events)
    problems.push('some events were not delivered');
  if (receiver.stats.badSignatures > 0) problems.push(`${receiver.stats.badSignatures} signatures did not verify`);
  exitCode = gw.verdict(log, problems);
} catch (error) {
  gw.logFailure(log, error, processes);
} finally {
  await gw.endRun({ control, cleanups }, exitCode);
}
