#!/usr/bin/env node
// Reads at the framework floor: GET /session/status and GET /account/instances (a page of 20) against a bare NestJS GET,
// measured one after the other in the same run with the same load (autocannon, keep-alive, loopback only).
//
//   npm run build && node bench/reads.mjs [--json]
//
//   (a) bare     GET /bare on a minimal Nest app (bench/bare-app.mjs, its own process)
//   (b) status   GET /session/status with an instance key (guard, live state from Redis, PostgreSQL fallback)
//   (c) list     GET /account/instances?pageSize=20 with the customer key, the customer having 25 instances (after the first
//                read, answered from the API's page cache once PostgreSQL confirms the customer's instances version)
// The built API runs in its own process with a fresh database and Redis prefix, a rate limit too high to be reached and
// LOG_LEVEL=warn (so no per-request log lines). Prints req/s, p50/p99 and the ratios (b)/(a) (goal >= 0.8) and (c)/(b)
// (goal >= 0.5). Settings (environment): BENCH_DURATION seconds per case (10), BENCH_WARMUP (3), BENCH_CONNECTIONS (50),
// BENCH_ROUNDS (3): the three cases are repeated with their order rotated, ratios are taken within a round and the
// medians reported, so load from elsewhere on the machine hits every case alike. Everything created is removed at the end.
import { randomBytes } from 'node:crypto';
import autocannon from 'autocannon';
import * as gw from './gateway.mjs';

const { environmentLine, fixed, table } = gw;

const { log, jsonOutput } = gw.benchStart();
const env = gw.envInt;
const duration = env('BENCH_DURATION', 10, 1, 600);
const warmup = env('BENCH_WARMUP', 3, 0, 600);
const connections = env('BENCH_CONNECTIONS', 50, 1, 10_000);
const roundCount = env('BENCH_ROUNDS', 3, 1, 20);
const { cleanups, control } = gw.boundedRun(log, (3 * (warmup + roundCount * duration) + 240) * 1000);
let current = null;
control.onStop(() => current?.stop());

async function load(url, headers, seconds) {
  current = autocannon({ url, headers, connections, duration: seconds, pipelining: 1, timeout: 10 });
  try {
    return await current;
  } finally {
    current = null;
  }
}

const { median } = gw;

let exitCode = 1;
const processes = [];
try {
  const gateway = await gw.startGateway({ cleanups, control, log, label: 'reads', processes });
  const bare = await gw.startBareApp({ cleanups, env: gw.inheritedEnv() });
  const bareUrl = bare.url;
  await bare.ready();
  const { customer, instances } = await gw.pairedInstances(gateway, 1, { control, log });
  for (let n = 1; n < 25; n += 1) {
    gw.expectStatus(
      'POST /account/instances',
      await gw.request(`${gateway.apiUrl}/account/instances`, {
        method: 'POST',
        headers: { 'X-Api-Key': customer.apiKey },
        body: { name: `reads ${n} ${randomBytes(2).toString('hex')}`, sandbox: true },
      }),
      201,
    );
  }
  const cases = [
    { label: '(a) bare Nest', url: `${bareUrl}/bare`, headers: {} },
    { label: '(b) session status', url: `${gateway.apiUrl}/session/status`, headers: instances[0].headers },
    { label: '(c) instance list, 20', url: `${gateway.apiUrl}/account/instances?pageSize=20`, headers: { 'X-Api-Key': customer.apiKey } },
  ];
  const listed = gw.expectStatus('list', await gw.request(cases[2].url, { headers: cases[2].headers }), 200);
  if (listed.items?.length !== 20 || listed.totalCount !== 25)
    throw new Error(`the list page is not 20 of 25: ${JSON.stringify(listed).slice(0, 200)}`);
  gw.expectStatus('status', await gw.request(cases[1].url, { headers: cases[1].headers }), 200);

  const rounds = [];
  for (let round = 0; round < roundCount; round += 1) {
    const measured = new Map();
    for (let i = 0; i < cases.length; i += 1) {
      const item = cases[(i + round) % cases.length];
      control.check();
      if (round === 0 && warmup > 0) await load(item.url, item.headers, warmup);
      log(`round ${round + 1}: ${item.label}`);
      const result = await load(item.url, item.headers, duration);
      measured.set(item, {
        requestsPerSecond: result.requests.average,
        p50: result.latency.p50,
        p99: result.latency.p99,
        failures: result.non2xx + result.errors + result.timeouts,
      });
    }
    const [bareResult, statusResult, listResult] = cases.map((item) => measured.get(item));
    rounds.push({
      results: [bareResult, statusResult, listResult],
      statusToBare: statusResult.requestsPerSecond / bareResult.requestsPerSecond,
      listToStatus: listResult.requestsPerSecond / statusResult.requestsPerSecond,
    });
  }
  const summary = {
    environment: environmentLine(),
    connections,
    durationSeconds: duration,
    rounds: roundCount,
    results: cases.map((item, index) => ({
      label: item.label,
      requestsPerSecond: median(rounds.map((round) => round.results[index].requestsPerSecond)),
      p50: median(rounds.map((round) => round.results[index].p50)),
      p99: median(rounds.map((round) => round.results[index].p99)),
      failures: rounds.reduce((sum, round) => sum + round.results[index].failures, 0),
    })),
    statusToBare: median(rounds.map((round) => round.statusToBare)),
    listToStatus: median(rounds.map((round) => round.listToStatus)),
  };
  if (jsonOutput) console.log(JSON.stringify({ ...summary, perRound: rounds }, null, 2));
  else {
    console.log(`\nreads: ${duration} s per case, ${connections} connections, ${roundCount} round(s), medians; ${environmentLine()}\n`);
    console.log(
      table(
        [
          ['case', 'req/s', 'p50 ms', 'p99 ms', 'failed'],
          ...summary.results.map((r) => [r.label, fixed(r.requestsPerSecond), fixed(r.p50, 1), fixed(r.p99, 1), String(r.failures)]),
        ],
        [0],
      ),
    );
    console.log(
      `\n(b)/(a) session status vs bare Nest: ${fixed(summary.statusToBare, 2)} (goal >= 0.8)   ` +
        `(c)/(b) list of 20 vs session status: ${fixed(summary.listToStatus, 2)} (goal >= 0.5)   ` +
        `per round: ${rounds.map((round) => `${fixed(round.statusToBare, 2)}/${fixed(round.listToStatus, 2)}`).join(', ')}\n`,
    );
  }
  const failed = summary.results.filter((r) => r.failures > 0);
  exitCode = gw.verdict(
    log,
    failed.length > 0 ? [`some requests failed (${failed.map((r) => r.label).join(', ')}); the numbers are not valid`] : [],
  );
} catch (error) {
  gw.logFailure(log, error, processes);
} finally {
  await gw.endRun({ control, cleanups }, exitCode);
}
