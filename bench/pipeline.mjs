#!/usr/bin/env node
// Does the worker drain as fast as the API accepts? Sends over many paired sandbox instances, measured end to end.
//
//   npm run build && node bench/pipeline.mjs [--instances=100] [--duration=20] [--workers=1] [--topologies=single,cluster] [--json]
//
// --topologies: the whole run once per Redis topology, one after the other, with its ratio printed for each at the
// end: `single` (REDIS_URL's server, or a private one) and `cluster` (a private 6-node Redis Cluster on loopback,
// started and removed by the bench, REDIS_MODE=cluster). Compare the ratios of one run, not absolute figures.
//
// The built API and --workers workers run in their own processes (dist/) against a fresh database and Redis prefix
// (RATE_LIMIT_REQUESTS=1000000, LOG_LEVEL=warn); --instances sandbox instances are paired. Then:
//   (0) probe: POST /messages/text closed-loop with --concurrency requests in flight for --probe seconds, round-robin
//       over the instances: the highest rate the API accepts right now (R).
//   (1) saturation: open loop at R for --duration s (request n at t0 + n/R). Accepted/s counts messages committed
//       (messages.accepted_at) and reached-network/s messages the simulated network stored (sandbox_messages.at), both
//       in the same window of the database clock (the send window without its first 2 s): the ratio is >= 1.0 when
//       the worker keeps up, below 1.0 when a backlog grows.
//   (2) half rate: open loop at R/2 for --duration s; accept -> network latency p50/p99 over every message.
// CPU per message of the API and of each worker comes from /proc (see gateway.mjs), for docs/scaling.md.
// BENCH_CPU_PROF=<dir> makes the API and the workers write V8 CPU profiles there when they stop.
// Exit status 0, 2 when accepted messages did not reach the network, 1 on failure, 130 when stopped. Everything created
// is removed at the end: the child processes, the database, the Redis keys.
import http from 'node:http';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import * as services from '../scripts/lib/services.mjs';
import * as gw from './gateway.mjs';

const { CpuMeter, cpuTable, environmentLine, fixed, intSetting, percentile, table } = gw;

const { log, argv, jsonOutput } = gw.benchStart();
const instanceCount = intSetting(argv, 'instances', 'BENCH_INSTANCES', 100, 1, 2000);
const duration = intSetting(argv, 'duration', 'BENCH_DURATION', 20, 2, 3600);
const probeSeconds = intSetting(argv, 'probe', 'BENCH_PROBE', 5, 1, 600);
const concurrency = intSetting(argv, 'concurrency', 'BENCH_CONCURRENCY', 64, 1, 10_000);
const workerCount = intSetting(argv, 'workers', 'BENCH_WORKERS', 1, 1, 16);
const deliverTimeout = intSetting(argv, 'deliver-timeout', 'BENCH_DELIVER_TIMEOUT', 180, 1, 3600);
const fixedRate = intSetting(argv, 'rate', 'BENCH_RATE', 0, 0, 100_000); // 0: probe
const topologies = (
  argv.find((arg) => arg.startsWith('--topologies='))?.slice('--topologies='.length) ??
  process.env.BENCH_TOPOLOGIES ??
  'single,cluster'
)
  .split(',')
  .map((name) => name.trim())
  .filter(Boolean);
if (topologies.length === 0 || topologies.some((name) => name !== 'single' && name !== 'cluster')) {
  throw new Error(`--topologies (or BENCH_TOPOLOGIES) must list single and/or cluster, got ${JSON.stringify(topologies.join(','))}`);
}
const { cleanups, control } = gw.boundedRun(
  log,
  gw.timeoutSetting(argv, topologies.length * (probeSeconds + 2 * duration + 2 * deliverTimeout + 600)),
);

const post = (agent, url, headers, body) => gw.postJson(agent, url, headers, body, { timeoutMs: 10_000 });

function record(result, answer) {
  const outcome = answer.status === 0 ? `error ${answer.error}` : String(answer.status);
  result.statuses[outcome] = (result.statuses[outcome] ?? 0) + 1;
  if (answer.status === 201 && typeof answer.body?.id === 'string') result.accepted.push(answer.body.id);
}

/** Closed loop: `concurrency` requests in flight for `seconds`. */
async function closedLoop({ agent, url, instances, seconds, phase }) {
  const result = { accepted: [], statuses: {}, issued: 0 };
  const end = performance.now() + seconds * 1000;
  let n = 0;
  await Promise.all(
    Array.from({ length: concurrency }, async () => {
      while (performance.now() < end && !control.interrupted) {
        const index = n;
        n += 1;
        result.issued += 1;
        record(
          result,
          await post(agent, url, instances[index % instances.length].headers, { to: '447700900123', message: `${phase} ${index}` }),
        );
      }
    }),
  );
  return result;
}

/** Open loop: request n at start + n / rate for `seconds`, at most `concurrency` in flight (what cannot start is counted). */
async function openLoop({ agent, url, instances, seconds, rate, phase }) {
  const result = { accepted: [], statuses: {}, issued: 0, notIssued: 0 };
  const intervalMs = 1000 / rate;
  const total = Math.round(rate * seconds);
  const outstanding = new Set();
  const start = performance.now();
  await new Promise((resolve) => {
    const tick = () => {
      const now = performance.now();
      const due = Math.min(total, Math.floor((now - start) / intervalMs) + 1);
      while (result.issued < due && outstanding.size < concurrency) {
        const index = result.issued;
        result.issued += 1;
        const request = post(agent, url, instances[index % instances.length].headers, {
          to: '447700900123',
          message: `${phase} ${index}`,
        }).then((answer) => {
          outstanding.delete(request);
          record(result, answer);
        });
        outstanding.add(request);
      }
      if (now - start >= seconds * 1000 || result.issued >= total || control.interrupted) {
        clearInterval(timer);
        resolve();
      }
    };
    const timer = setInterval(tick, 1);
  });
  result.notIssued = total - result.issued;
  await Promise.all(outstanding);
  return result;
}

async function waitForNetwork(gateway, ids) {
  const count = async () =>
    (
      await gateway.db.query(
        `SELECT count(*)::int AS n FROM sandbox_messages s JOIN messages m ON m.instance_id = s.instance_id AND m.id = s.id WHERE m.id = ANY($1::text[])`,
        [ids],
      )
    ).rows[0].n;
  const deadline = Date.now() + deliverTimeout * 1000;
  let reached = await count();
  while (reached < ids.length && Date.now() < deadline) {
    await control.sleep(250);
    reached = await count();
  }
  return reached;
}

/** Starts a private Redis Cluster for the run (removed with the run's cleanups); the env the gateway needs for it. */
async function clusterSetting() {
  const dir = mkdtempSync(join(tmpdir(), 'mgw-bench-cluster-'));
  const cluster = await services.startRedisCluster({ dir, log });
  cleanups.push('stopped the private Redis Cluster', () => cluster.stop());
  const seeds = cluster.nodes.map(({ host, port }) => `${host}:${port}`).join(',');
  return {
    env: { REDIS_MODE: 'cluster', REDIS_CLUSTER_NODES: seeds, REDIS_URL: `redis://${cluster.nodes[0].host}:${cluster.nodes[0].port}` },
    pids: cluster.pids,
  };
}

/** One whole run (probe, saturation, half rate) on one topology; resolves to its summary. */
async function runOn(topology, processes) {
  const redis = topology === 'cluster' ? await clusterSetting() : { env: {}, pids: undefined };
  const gateway = await gw.startGateway({ cleanups, control, log, label: 'pipeline', processes, env: redis.env });
  if (redis.pids) gateway.redisPids = redis.pids;
  const extraWorkers = await gw.addWorkers(gateway, workerCount - 1, { cleanups, control, log, processes });
  const { instances } = await gw.pairedInstances(gateway, instanceCount, { control, log, concurrency: 20 });
  const agent = new http.Agent({ keepAlive: true, maxSockets: concurrency });
  cleanups.push('closed the HTTP client', () => agent.destroy());
  const url = `${gateway.apiUrl}/messages/text`;
  const groups = await gw.gatewayCpuGroups(
    gateway,
    Object.fromEntries(extraWorkers.map((w, n) => [`worker ${n + 2}`, w.process.child.pid])),
  );
  const dbNow = async () => (await gateway.db.query("SELECT (clock_timestamp() AT TIME ZONE 'UTC')::text AS t")).rows[0].t;

  let rate = fixedRate;
  if (rate === 0) {
    log(`probe: ${concurrency} requests in flight for ${probeSeconds} s`);
    const probe = await closedLoop({ agent, url, instances, seconds: probeSeconds, phase: 'probe' });
    rate = Math.max(1, Math.floor(probe.accepted.length / probeSeconds));
    log(`probe: ${probe.accepted.length} accepted (${rate}/s), answers ${JSON.stringify(probe.statuses)}`);
    await waitForNetwork(gateway, probe.accepted);
  }

  // (1) saturation
  log(`saturation: ${rate} req/s for ${duration} s over ${instanceCount} instances`);
  const meter = new CpuMeter(groups);
  const windowStart = await dbNow();
  await meter.start();
  const saturation = await openLoop({ agent, url, instances, seconds: duration, rate, phase: 'saturation' });
  const windowEnd = await dbNow();
  const cpu = await meter.stop();
  control.check();
  const { rows: counts } = await gateway.db.query(
    `WITH w AS (SELECT $1::timestamp + interval '2 seconds' AS a, $2::timestamp AS b)
     SELECT (SELECT count(*) FROM messages, w WHERE accepted_at >= w.a AND accepted_at < w.b)::int AS accepted,
            (SELECT count(*) FROM sandbox_messages, w WHERE direction = 'outbound' AND at >= w.a AND at < w.b)::int AS reached,
            (SELECT extract(epoch FROM w.b - w.a) FROM w)::float8 AS seconds`,
    [windowStart, windowEnd],
  );
  const window = counts[0];
  const { rows: pendingRows } = await gateway.db.query(`SELECT count(*)::int AS n FROM messages WHERE status = 'accepted'`);
  const backlogAtEnd = pendingRows[0].n;
  const reachedAll = await waitForNetwork(gateway, saturation.accepted);
  const cpuSeconds = cpu.seconds;
  const messagesInWindow = (window.reached / window.seconds) * cpuSeconds;
  const perMessage = (group) => ((cpu.groups[group] / 100) * cpuSeconds * 1000) / Math.max(1, messagesInWindow);
  const workerGroups = ['worker', ...extraWorkers.map((_, n) => `worker ${n + 2}`)];

  // (2) half rate
  const half = Math.max(1, Math.floor(rate / 2));
  log(`half rate: ${half} req/s for ${duration} s`);
  const halfRun = await openLoop({ agent, url, instances, seconds: duration, rate: half, phase: 'half' });
  const reachedHalf = await waitForNetwork(gateway, halfRun.accepted);
  const { rows: latencyRows } = await gateway.db.query(
    `SELECT (extract(epoch FROM s.at - m.accepted_at) * 1000)::float8 AS ms
     FROM messages m JOIN sandbox_messages s ON s.instance_id = m.instance_id AND s.id = m.id WHERE m.id = ANY($1::text[])`,
    [halfRun.accepted],
  );
  const latencies = latencyRows.map((row) => row.ms).sort((a, b) => a - b);

  const summary = {
    topology,
    environment: environmentLine(),
    instances: instanceCount,
    workers: workerCount,
    probedRate: rate,
    saturation: {
      answers: saturation.statuses,
      notIssued: saturation.notIssued,
      acceptedPerSecond: window.accepted / window.seconds,
      reachedPerSecond: window.reached / window.seconds,
      ratio: window.reached / Math.max(1, window.accepted),
      backlogAtEnd,
      notReached: saturation.accepted.length - reachedAll,
      cpuMsPerMessage: Object.fromEntries(
        ['api', ...workerGroups, 'postgres (backends of this db)', 'redis'].map((g) => [g, perMessage(g)]),
      ),
    },
    halfRate: {
      rate: half,
      answers: halfRun.statuses,
      accepted: halfRun.accepted.length,
      reached: reachedHalf,
      p50: percentile(latencies, 50),
      p99: percentile(latencies, 99),
      max: latencies.at(-1),
    },
    cpu,
  };
  if (!jsonOutput) {
    const s = summary.saturation;
    const h = summary.halfRate;
    console.log(
      `\npipeline on ${topology === 'cluster' ? 'a 6-node Redis Cluster' : 'one Redis node'}: ${instanceCount} sandbox instances, ${workerCount} worker(s), ${environmentLine()}\n`,
    );
    console.log(
      table(
        [
          ['', 'value'],
          ['probed API rate (closed loop)', `${rate} req/s`],
          ['(1) accepted/s (open loop at the probed rate)', fixed(s.acceptedPerSecond, 1)],
          ['(1) reached network/s (same window)', fixed(s.reachedPerSecond, 1)],
          ['(1) reached / accepted (goal >= 1.0)', fixed(s.ratio, 2)],
          ['(1) answers', JSON.stringify(s.answers)],
          ['(1) not yet sent when the window closed', String(s.backlogAtEnd)],
          [
            '(1) CPU ms per message: api / worker(s)',
            `${fixed(s.cpuMsPerMessage.api, 2)} / ${workerGroups.map((g) => fixed(s.cpuMsPerMessage[g], 2)).join(' / ')}`,
          ],
          [
            '(1) CPU ms per message: postgres / redis',
            `${fixed(s.cpuMsPerMessage['postgres (backends of this db)'], 2)} / ${fixed(s.cpuMsPerMessage.redis, 2)}`,
          ],
          [`(2) half rate ${h.rate}/s: accepted / reached`, `${h.accepted} / ${h.reached}`],
          ['(2) accept -> network p50 / p99 / max (goal p99 <= 250 ms)', `${fixed(h.p50, 1)} / ${fixed(h.p99, 1)} / ${fixed(h.max, 1)} ms`],
        ],
        [0, 1],
      ),
    );
    console.log('\nCPU during (1) (% of one CPU):');
    console.log(cpuTable({ saturation: cpu }));
    console.log('');
  }
  // This topology's processes end before the next starts, so the runs do not share the machine.
  for (const child of processes.splice(0)) await child.stop();
  return summary;
}

let exitCode = 1;
const processes = [];
try {
  const summaries = [];
  for (const topology of topologies) {
    log(`--- topology: ${topology}`);
    summaries.push(await runOn(topology, processes));
    control.check();
  }
  if (jsonOutput) console.log(JSON.stringify(summaries.length === 1 ? summaries[0] : summaries, null, 2));
  else if (summaries.length > 1) {
    console.log('reached / accepted at the probed rate, per topology (same run):');
    console.log(
      table(
        [
          ['topology', 'probed req/s', 'reached / accepted', 'half-rate p99 ms'],
          ...summaries.map((s) => [s.topology, String(s.probedRate), fixed(s.saturation.ratio, 2), fixed(s.halfRate.p99, 1)]),
        ],
        [0],
      ),
    );
    console.log('');
  }
  const problems = [];
  for (const summary of summaries) {
    if (summary.saturation.notReached > 0)
      problems.push(`${summary.topology}: ${summary.saturation.notReached} accepted messages did not reach the network`);
    if (h2problem(summary))
      problems.push(
        `${summary.topology}: ${summary.halfRate.accepted - summary.halfRate.reached} half-rate messages did not reach the network`,
      );
  }
  exitCode = gw.verdict(log, problems);
} catch (error) {
  gw.logFailure(log, error, processes);
} finally {
  await gw.endRun({ control, cleanups }, exitCode);
}

function h2problem(summary) {
  return summary.halfRate.reached < summary.halfRate.accepted;
}
