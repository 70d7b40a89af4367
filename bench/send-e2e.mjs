#!/usr/bin/env node
// End-to-end send latency: from the moment the API commits a message (messages.accepted_at) to the moment the sandbox
// network receives it (sandbox_messages.at), at a fixed request rate spread over several paired instances.
//
//   npm run build && node bench/send-e2e.mjs [--rate=200] [--duration=20] [--instances=10] [--json]
//
// The built API and one worker run in their own processes (dist/), with a fresh database, their own Redis key prefix,
// RATE_LIMIT_REQUESTS=1000000 and LOG_LEVEL=warn. After a warm-up at the same rate (not counted), POST /messages/text
// requests are started on a fixed schedule (request n at t0 + n/rate, round-robin over the instances) by a timer,
// with at most --concurrency requests in flight: a request that is due while that many are outstanding waits for a
// free slot, and what is still due when the time is up is not sent (reported). No autocannon: the rate is open-loop.
// Every 201 id is recorded; afterwards the run waits (bounded) until each has reached the network and reads both
// timestamps from PostgreSQL: accepted_at is written by the database when the row is committed, `at` when the
// simulated network stores the message; both come from this machine's clock.
//
// Settings (argv --name=value or environment): --rate / BENCH_RATE requests per second (200), --duration /
// BENCH_DURATION seconds measured (20), --warmup / BENCH_WARMUP seconds sent before and not counted (3), --instances /
// BENCH_INSTANCES (10), --concurrency / BENCH_CONCURRENCY most requests in flight (64), --deliver-timeout /
// BENCH_DELIVER_TIMEOUT seconds to wait for the network (120), --timeout / BENCH_TIMEOUT seconds after which the
// watchdog stops the whole run (default: all of the above + 240). DATABASE_URL / REDIS_URL pick the servers. Exit
// status 0, 2 when the rate was not met (requests not sent or not accepted) or something accepted did not reach the
// network (the numbers are then printed but describe an overloaded run), 1 on failure, 130 when stopped. Everything
// created is removed at the end, also on failure, Ctrl-C or the watchdog: the child processes, the database, the Redis keys.
import http from 'node:http';
import * as gw from './gateway.mjs';

const { CpuMeter, cpuTable, environmentLine, fixed, intSetting, percentile, table } = gw;

const { log, argv, jsonOutput } = gw.benchStart();
const rate = intSetting(argv, 'rate', 'BENCH_RATE', 200, 1, 100_000);
const duration = intSetting(argv, 'duration', 'BENCH_DURATION', 20, 1, 3600);
const warmup = intSetting(argv, 'warmup', 'BENCH_WARMUP', 3, 0, 600);
const instanceCount = intSetting(argv, 'instances', 'BENCH_INSTANCES', 10, 1, 1000);
const concurrency = intSetting(argv, 'concurrency', 'BENCH_CONCURRENCY', 64, 1, 10_000);
const deliverTimeout = intSetting(argv, 'deliver-timeout', 'BENCH_DELIVER_TIMEOUT', 120, 1, 3600);
// Bounded whatever happens: setup, warm-up, sending, waiting for the network, and slack for slow starts.
const { cleanups, control } = gw.boundedRun(log, gw.timeoutSetting(argv, warmup + duration + deliverTimeout + 240));

const post = (agent, url, headers, body) => gw.postJson(agent, url, headers, body, { timeoutMs: 10_000 });

/**
 * Starts request n at start + n / rate (n = 0, 1, ...) for `seconds`, with at most `concurrency` in flight. Returns
 * the accepted ids, the answers by status, client-side response times and how far behind schedule requests started.
 */
async function sendAtRate({ agent, url, instances, seconds, phase }) {
  const intervalMs = 1000 / rate;
  const total = Math.round(rate * seconds);
  const accepted = [];
  const statuses = {};
  const responseMs = [];
  let issued = 0;
  let inFlight = 0;
  let maxLateMs = 0;
  let lateOver10Ms = 0;
  const outstanding = new Set();
  const start = performance.now();
  const end = start + seconds * 1000;
  let timer;
  let finish;
  const unregister = control.onStop(() => finish?.());
  await new Promise((resolve) => {
    finish = () => {
      clearInterval(timer);
      resolve();
    };
    const tick = () => {
      const now = performance.now();
      if (now >= end || issued >= total || control.interrupted) {
        finish();
        return;
      }
      const due = Math.min(total, Math.floor((now - start) / intervalMs) + 1);
      while (issued < due && inFlight < concurrency) {
        const n = issued;
        issued += 1;
        const late = now - (start + n * intervalMs);
        maxLateMs = Math.max(maxLateMs, late);
        if (late > 10) lateOver10Ms += 1;
        const instance = instances[n % instances.length];
        inFlight += 1;
        const request = post(agent, url, instance.headers, { to: '447700900123', message: `${phase} ${n}` }).then((answer) => {
          inFlight -= 1;
          outstanding.delete(request);
          const outcome = answer.status === 0 ? `error ${answer.error}` : String(answer.status);
          statuses[outcome] = (statuses[outcome] ?? 0) + 1;
          responseMs.push(answer.ms);
          if (answer.status === 201 && typeof answer.body?.id === 'string') accepted.push(answer.body.id);
        });
        outstanding.add(request);
      }
    };
    timer = setInterval(tick, 1);
    tick();
  });
  // The scheduled window, unless the run was stopped early: what was started in it is the achieved rate.
  const issuingSeconds = control.interrupted ? (performance.now() - start) / 1000 : seconds;
  await Promise.all(outstanding); // each is bounded by the 10 s request timeout
  unregister();
  return { scheduled: total, issued, notIssued: total - issued, issuingSeconds, accepted, statuses, responseMs, maxLateMs, lateOver10Ms };
}

let exitCode = 1;
const processes = [];
try {
  const gateway = await gw.startGateway({ cleanups, control, log, label: 'e2e', processes });
  const { instances } = await gw.pairedInstances(gateway, instanceCount, { control, log });
  const agent = new http.Agent({ keepAlive: true, maxSockets: concurrency });
  cleanups.push('closed the HTTP client', () => agent.destroy());
  const url = `${gateway.apiUrl}/messages/text`;
  const groups = await gw.gatewayCpuGroups(gateway);

  if (warmup > 0) {
    log(`warming up: ${rate} req/s for ${warmup} s over ${instanceCount} instance(s)`);
    const warm = await sendAtRate({ agent, url, instances, seconds: warmup, phase: 'warmup' });
    control.check();
    log(`warm-up: ${warm.accepted.length} accepted, answers ${JSON.stringify(warm.statuses)}`);
  }
  log(`measuring: ${rate} req/s for ${duration} s over ${instanceCount} instance(s), at most ${concurrency} in flight`);
  const meter = new CpuMeter(groups);
  const activity = new gw.PgActivitySampler(gateway);
  // The database's clock (UTC, like the stored timestamps) around the window, to count what the network received in it.
  const dbNow = async () => (await gateway.db.query("SELECT (clock_timestamp() AT TIME ZONE 'UTC')::text AS t")).rows[0].t;
  const windowStart = await dbNow();
  await Promise.all([meter.start(), activity.start()]);
  const sent = await sendAtRate({ agent, url, instances, seconds: duration, phase: 'e2e' });
  const [sendCpu, pgActivity] = await Promise.all([meter.stop(), activity.stop()]);
  const windowEnd = await dbNow();
  control.check();
  const { rows: inWindow } = await gateway.db.query(
    `SELECT count(*)::int AS n, extract(epoch FROM $2::timestamp - $1::timestamp)::float8 AS seconds
     FROM sandbox_messages WHERE direction = 'outbound' AND at >= $1::timestamp AND at < $2::timestamp`,
    [windowStart, windowEnd],
  );
  const networkInWindow = { messages: inWindow[0].n, seconds: inWindow[0].seconds };

  // Wait until every accepted id has reached the network (bounded).
  const ids = sent.accepted;
  const receivedCount = async () =>
    (
      await gateway.db.query(
        `SELECT count(*)::int AS n FROM messages m JOIN sandbox_messages s ON s.instance_id = m.instance_id AND s.id = m.id
         WHERE m.id = ANY($1::text[])`,
        [ids],
      )
    ).rows[0].n;
  const waitStarted = Date.now();
  let received = await receivedCount();
  log(
    `sending finished; ${received} of ${ids.length} accepted already reached the network, waiting up to ${deliverTimeout} s for the rest`,
  );
  while (received < ids.length && Date.now() - waitStarted < deliverTimeout * 1000) {
    await control.sleep(250);
    received = await receivedCount();
  }
  if (received < ids.length) log(`${ids.length - received} accepted message(s) did not reach the network within ${deliverTimeout} s`);

  const { rows } = await gateway.db.query(
    `SELECT m.status, extract(epoch FROM m.accepted_at)::float8 AS accepted, (extract(epoch FROM s.at - m.accepted_at) * 1000)::float8 AS ms
     FROM messages m LEFT JOIN sandbox_messages s ON s.instance_id = m.instance_id AND s.id = m.id
     WHERE m.id = ANY($1::text[]) ORDER BY m.accepted_at`,
    [ids],
  );
  const reached = rows.filter((row) => row.ms !== null);
  const latencies = reached.map((row) => row.ms).sort((a, b) => a - b);
  const failed = rows.filter((row) => row.status === 'failed').length;
  // p50 per quarter of the run (by accepted_at): a rising trend means the worker falls behind the rate.
  const quarters = [];
  if (reached.length > 0) {
    const first = reached[0].accepted;
    const span = reached.at(-1).accepted - first || 1;
    for (let q = 0; q < 4; q += 1) {
      const part = reached
        .filter((row) => Math.min(3, Math.floor(((row.accepted - first) / span) * 4)) === q)
        .map((row) => row.ms)
        .sort((a, b) => a - b);
      quarters.push(percentile(part, 50));
    }
  }
  const clientMs = [...sent.responseMs].sort((a, b) => a - b);
  const summary = {
    rate,
    durationSeconds: duration,
    warmupSeconds: warmup,
    instances: instanceCount,
    concurrency,
    scheduled: sent.scheduled,
    issued: sent.issued,
    notIssued: sent.notIssued,
    achievedRate: sent.issued / sent.issuingSeconds,
    acceptedRate: sent.accepted.length / sent.issuingSeconds,
    answers: sent.statuses,
    accepted: ids.length,
    reachedNetwork: reached.length,
    failed,
    latencyMs: {
      p50: percentile(latencies, 50),
      p90: percentile(latencies, 90),
      p99: percentile(latencies, 99),
      max: latencies.at(-1),
      min: latencies[0],
      p50ByQuarter: quarters,
    },
    acceptResponseMs: { p50: percentile(clientMs, 50), p99: percentile(clientMs, 99), max: clientMs.at(-1) },
    schedule: { maxLateMs: sent.maxLateMs, startedOver10MsLate: sent.lateOver10Ms },
    cpuWhileSending: sendCpu,
    pgActivityWhileSending: pgActivity,
    // What the worker got out while the requests were being sent (warm-up leftovers included), and its CPU cost.
    networkWhileSending: {
      messages: networkInWindow.messages,
      perSecond: networkInWindow.messages / networkInWindow.seconds,
      workerCpuMsPerMessage: ((sendCpu.groups.worker / 100) * sendCpu.seconds * 1000) / Math.max(1, networkInWindow.messages),
    },
    apiCpuMsPerRequest: ((sendCpu.groups.api / 100) * sendCpu.seconds * 1000) / Math.max(1, sent.issued),
  };

  if (jsonOutput) {
    console.log(JSON.stringify({ environment: environmentLine(), summary }, null, 2));
  } else {
    console.log(
      `\nsend end-to-end: ${rate} req/s for ${duration} s (after ${warmup} s warm-up), ${instanceCount} instance(s) round-robin, ` +
        `at most ${concurrency} in flight, loopback; ${environmentLine()}\n`,
    );
    const l = summary.latencyMs;
    console.log(
      table(
        [
          ['', 'value'],
          ['accepted -> network p50', `${fixed(l.p50, 1)} ms`],
          ['accepted -> network p90', `${fixed(l.p90, 1)} ms`],
          ['accepted -> network p99', `${fixed(l.p99, 1)} ms`],
          ['accepted -> network max', `${fixed(l.max, 1)} ms`],
          ['p50 by quarter of the run', l.p50ByQuarter.map((value) => fixed(value, 1)).join(' / ') + ' ms'],
          ['requests scheduled / sent / not sent', `${summary.scheduled} / ${summary.issued} / ${summary.notIssued}`],
          ['answers', JSON.stringify(summary.answers)],
          ['accepted (201)', String(summary.accepted)],
          ['reached the network / failed', `${summary.reachedNetwork} / ${summary.failed}`],
          ['achieved send rate / accepted rate', `${fixed(summary.achievedRate, 1)} / ${fixed(summary.acceptedRate, 1)} req/s`],
          [
            'HTTP response time p50 / p99 / max',
            `${fixed(summary.acceptResponseMs.p50, 1)} / ${fixed(summary.acceptResponseMs.p99, 1)} / ${fixed(summary.acceptResponseMs.max, 1)} ms`,
          ],
          [
            'network received while sending',
            `${summary.networkWhileSending.messages} msg (${fixed(summary.networkWhileSending.perSecond, 1)} msg/s)`,
          ],
          [
            'CPU time: api per request / worker per message',
            `${fixed(summary.apiCpuMsPerRequest, 2)} ms / ${fixed(summary.networkWhileSending.workerCpuMsPerMessage, 2)} ms`,
          ],
          [
            'schedule: latest start / starts >10 ms late',
            `${fixed(summary.schedule.maxLateMs, 1)} ms / ${summary.schedule.startedOver10MsLate}`,
          ],
        ],
        [0, 1],
      ),
    );
    console.log('\nCPU while sending (% of one CPU, from /proc/<pid>/stat and schedstat deltas):');
    console.log(cpuTable({ 'while sending': sendCpu }));
    console.log(`\nPostgreSQL backends of this database while sending, average number busy per state: ${gw.activityLine(pgActivity)}`);
    console.log('');
  }
  const invalid = [];
  if (summary.notIssued > 0) invalid.push(`${summary.notIssued} scheduled requests were not sent (concurrency limit)`);
  if (summary.accepted < summary.issued) invalid.push(`${summary.issued - summary.accepted} requests were not accepted`);
  if (summary.reachedNetwork < summary.accepted)
    invalid.push(`${summary.accepted - summary.reachedNetwork} accepted messages did not reach the network`);
  if (summary.latencyMs.min < 0)
    invalid.push(`negative latencies (min ${fixed(summary.latencyMs.min, 1)} ms): clocks or time zones disagree`);
  exitCode = gw.verdict(log, invalid);
} catch (error) {
  gw.logFailure(log, error, processes);
} finally {
  await gw.endRun({ control, cleanups }, exitCode);
}
