#!/usr/bin/env node
// What a durable accept costs: throughput and latency of POST /messages/text against a bare NestJS POST, and how fast
// one worker then sends what was accepted.
//
//   npm run build && node bench/send-accept.mjs [--json]
//
// Two cases, measured one after the other in the same run, each for a fixed time after a warm-up with the same load
// (autocannon, keep-alive, 50 connections, loopback only):
//   (a) bare   POST /bare/messages {to, message} on a minimal Nest app (bench/bare-app.mjs: one controller,
//              @nestjs/platform-express, its JSON body parser, no logger) answering 201 {id}
//   (b) send   POST /messages/text {to: '447700900123', message: 'bench'} on the built API with one paired sandbox
//              instance's key: auth guard (key hash, key cache, Redis rate-limit call), connection gate (live status in
//              Redis), validation, one PostgreSQL statement committing the row, the BullMQ doorbell, 201 {id}
// The API and one worker run in their own processes (dist/), with a fresh database, their own Redis key prefix,
// RATE_LIMIT_REQUESTS=1000000 and LOG_LEVEL=warn. The worker sends while (b) runs, as in production; afterwards the run
// waits (bounded) until it has sent every accepted message and reports its drain rate from the database timestamps
// (messages.accepted_at, sandbox_messages.at). CPU per process is measured for each phase from /proc.
//
// With --target=evolution|waha --target-url=URL --target-key=KEY --target-instances=paired=NAME [--target-to=DIGITS]
// (see bench/peer-target.mjs) a third case, (c), loads the peer's text send from its paired instance in the same run
// with the same load, and reports (c)/(a) beside (b)/(a); its answers are counted by status code (each 2xx is a real
// message to --target-to), and the worker drain figures stay this gateway's.
//
// Settings (argv --name=value or environment): --duration / BENCH_DURATION seconds per case (10), --warmup /
// BENCH_WARMUP seconds before each case (3), --connections / BENCH_CONNECTIONS (50), --drain-timeout /
// BENCH_DRAIN_TIMEOUT seconds to wait for the worker (300), --timeout / BENCH_TIMEOUT seconds after which the watchdog
// stops the whole run (default: all of the above + 240). DATABASE_URL / REDIS_URL pick the servers (else the 127.0.0.1
// defaults, else private ones). Exit status 0, 2 when some answers were not 201 or something accepted was not sent
// (the numbers are then printed but not valid), 1 on failure, 130 when stopped. Everything created is removed at the
// end, also on failure, Ctrl-C or the watchdog: the child processes, the database, the Redis keys.

const BARE_APP = new URL('./bare-app.mjs', import.meta.url).pathname;

await main();

// ---------------------------------------------------------------------------------------------------------------
// The benchmark

async function main() {
  const { default: autocannon } = await import('autocannon');
  const gw = await import('./gateway.mjs');
  const { CpuMeter, cpuTable, environmentLine, expectStatus, fixed, intSetting, request, services, startNode, table } = gw;

  const { log, argv, jsonOutput } = gw.benchStart();
  const { peerTarget } = await import('./peer-target.mjs');
  const peer = peerTarget(argv);
  const peerSend = peer?.sendText('paired', 'bench') ?? null;
  if (peer && !peerSend) throw new Error('--target-instances must name the peer instance to send from (paired=NAME)');
  const duration = intSetting(argv, 'duration', 'BENCH_DURATION', 10, 1, 600);
  const warmup = intSetting(argv, 'warmup', 'BENCH_WARMUP', 3, 0, 600);
  const connections = intSetting(argv, 'connections', 'BENCH_CONNECTIONS', 50, 1, 10_000);
  const drainTimeout = intSetting(argv, 'drain-timeout', 'BENCH_DRAIN_TIMEOUT', 300, 1, 3600);
  // Setup, two warm-ups and measurements, the drain, and slack for slow starts.
  const { cleanups, control } = gw.boundedRun(log, gw.timeoutSetting(argv, 3 * (warmup + duration) + drainTimeout + 240));

  async function load(url, headers, body, forSeconds) {
    const instance = autocannon({
      url,
      method: 'POST',
      headers: { 'content-type': 'application/json', ...headers },
      body: JSON.stringify(body),
      connections,
      duration: forSeconds,
      pipelining: 1,
      timeout: 10,
    });
    const unregister = control.onStop(() => instance.stop());
    try {
      return await instance;
    } finally {
      unregister();
    }
  }

  const statusCounts = (result) =>
    Object.fromEntries(Object.entries(result.statusCodeStats ?? {}).map(([code, { count }]) => [code, count]));

  async function measure(label, url, headers, body, meterGroups, gateway) {
    control.check();
    let warm = null;
    if (warmup > 0) {
      log(`${label}: warming up for ${warmup} s`);
      warm = await load(url, headers, body, warmup);
      control.check();
    }
    log(`${label}: measuring for ${duration} s with ${connections} connections`);
    const meter = new CpuMeter(meterGroups);
    const activity = new gw.PgActivitySampler(gateway);
    await Promise.all([meter.start(), activity.start()]);
    const result = await load(url, headers, body, duration);
    const [cpu, pgActivity] = await Promise.all([meter.stop(), activity.stop()]);
    control.check();
    const codes = statusCounts(result);
    const created = codes['201'] ?? 0;
    return {
      label,
      path: new URL(url).pathname,
      requestsPerSecond: result.requests.average,
      totalRequests: result.requests.total,
      p50: result.latency.p50,
      p99: result.latency.p99,
      max: result.latency.max,
      statusCodes: codes,
      created,
      not201:
        Object.entries(codes).reduce((sum, [code, count]) => (code === '201' ? sum : sum + count), 0) + result.errors + result.timeouts,
      errors: result.errors,
      timeouts: result.timeouts,
      warmup: warm && { created: statusCounts(warm)['201'] ?? 0, statusCodes: statusCounts(warm), errors: warm.errors + warm.timeouts },
      cpu,
      pgActivity,
    };
  }

  let exitCode = 1;
  const processes = [];
  try {
    const gateway = await gw.startGateway({ cleanups, control, log, label: 'accept', processes });
    const barePort = await services.findFreePort();
    const bare = startNode('bare Nest app', [BARE_APP], {
      cleanups,
      ipc: true,
      env: { ...gw.inheritedEnv(), NODE_ENV: 'production', PORT: String(barePort) },
    });
    processes.push(bare);
    const bareUrl = `http://127.0.0.1:${barePort}`;
    await services.waitForHttp(`${bareUrl}/bare`, 60_000, { signal: AbortSignal.any([bare.died, control.abort.signal]) });
    log(`bare Nest app on ${bareUrl} (pid ${bare.child.pid})`);
    const { instances } = await gw.pairedInstances(gateway, 1, { control, log });
    const [instance] = instances;

    const body = { to: '447700900123', message: 'bench' };
    const cases = {
      bare: { label: '(a) bare Nest POST', url: `${bareUrl}/bare/messages`, headers: {} },
      send: { label: '(b) POST /messages/text', url: `${gateway.apiUrl}/messages/text`, headers: instance.headers },
    };
    // Both answer 201 {id} to the same body before we load them; (b) refuses a request without the key.
    const checkIds = [];
    for (const { label, url, headers } of Object.values(cases)) {
      const answer = expectStatus(label, await request(url, { method: 'POST', headers, body }), 201);
      if (typeof answer?.id !== 'string') throw new Error(`${label}: expected {id}, got ${JSON.stringify(answer)}`);
      checkIds.push(answer.id);
    }
    expectStatus(
      '(b) without a key',
      await request(cases.send.url, { method: 'POST', headers: { ...instance.headers, 'X-Api-Key': '' }, body }),
      401,
    );

    const groups = await gw.gatewayCpuGroups(gateway, { 'bare Nest app': bare.child.pid });
    const bareResult = await measure(cases.bare.label, cases.bare.url, cases.bare.headers, body, groups, gateway);
    const sendResult = await measure(cases.send.label, cases.send.url, cases.send.headers, body, groups, gateway);
    const loadEndedAt = Date.now();
    // The peer last: this gateway's worker drains meanwhile, which the drain figures below account for.
    const peerResult = peerSend
      ? await measure(`(c) ${peer.kind} sendText`, peerSend.url, peerSend.headers, peerSend.body, groups, gateway)
      : null;
    if (peerResult) log(`(c) ${peer.kind}: answers ${JSON.stringify(peerResult.statusCodes)}`);

    // The worker sends while (b) runs; wait until nothing accepted is left for the instance. The drain figures below
    // cover the messages of (b)'s warm-up and measurement.
    const pendingCount = async () =>
      (await gateway.db.query("SELECT count(*)::int AS n FROM messages WHERE instance_id = $1 AND status = 'accepted'", [instance.id]))
        .rows[0].n;
    let pending = await pendingCount();
    const backlogAtLoadEnd = pending;
    log(`load finished; ${pending} accepted message(s) not sent yet, waiting up to ${drainTimeout} s for the worker`);
    const drainMeter = new CpuMeter(groups);
    const drainActivity = new gw.PgActivitySampler(gateway);
    await Promise.all([drainMeter.start(), drainActivity.start()]);
    let lastReport = Date.now();
    while (pending > 0 && Date.now() - loadEndedAt < drainTimeout * 1000) {
      await control.sleep(250);
      pending = await pendingCount();
      if (Date.now() - lastReport >= 5_000) {
        log(`  ${pending} still to send`);
        lastReport = Date.now();
      }
    }
    const [drainCpu, drainPgActivity] = await Promise.all([drainMeter.stop(), drainActivity.stop()]);
    const drainedIn = (Date.now() - loadEndedAt) / 1000;
    if (pending > 0) log(`the worker did not send everything within ${drainTimeout} s: ${pending} left`);

    const { rows } = await gateway.db.query(
      `WITH m AS (SELECT m.id, m.status, m.accepted_at, s.at FROM messages m
                  LEFT JOIN sandbox_messages s ON s.instance_id = m.instance_id AND s.id = m.id
                  WHERE m.instance_id = $1 AND m.id <> ALL($2::text[])),
            bounds AS (SELECT min(accepted_at) AS first_accepted, max(accepted_at) AS last_accepted, max(at) AS last_at FROM m)
       SELECT count(*)::int AS accepted_rows,
              count(at)::int AS received,
              count(*) FILTER (WHERE status = 'failed')::int AS failed,
              count(*) FILTER (WHERE status = 'accepted')::int AS unsent,
              count(*) FILTER (WHERE at > bounds.last_accepted)::int AS after_load,
              extract(epoch FROM bounds.last_accepted - bounds.first_accepted)::float8 AS accept_seconds,
              extract(epoch FROM bounds.last_at - bounds.first_accepted)::float8 AS total_seconds,
              extract(epoch FROM bounds.last_at - bounds.last_accepted)::float8 AS tail_seconds,
              (percentile_disc(0.5) WITHIN GROUP (ORDER BY extract(epoch FROM at - accepted_at)))::float8 AS lag_p50,
              max(extract(epoch FROM at - accepted_at))::float8 AS lag_max
       FROM m, bounds GROUP BY bounds.first_accepted, bounds.last_accepted, bounds.last_at`,
      [instance.id, checkIds], // the check request before (a) is not part of (b)'s load
    );
    const stats = rows[0];
    const drain = {
      acceptedRows: stats.accepted_rows,
      answered201: sendResult.created + (sendResult.warmup?.created ?? 0),
      received: stats.received,
      failed: stats.failed,
      unsent: stats.unsent,
      acceptSeconds: stats.accept_seconds,
      totalSeconds: stats.total_seconds,
      overallRate: stats.received / stats.total_seconds,
      afterLoad: stats.after_load,
      tailSeconds: stats.tail_seconds,
      tailRate: stats.after_load > 0 && stats.tail_seconds > 0 ? stats.after_load / stats.tail_seconds : NaN,
      lagP50: stats.lag_p50,
      lagMax: stats.lag_max,
      waitedSeconds: drainedIn,
      cpu: drainCpu,
      pgActivity: drainPgActivity,
    };

    const ratios = {
      requestsPerSecond: sendResult.requestsPerSecond / bareResult.requestsPerSecond,
      p99: sendResult.p99 / bareResult.p99,
      ...(peerResult
        ? { peerRequestsPerSecond: peerResult.requestsPerSecond / bareResult.requestsPerSecond, peerP99: peerResult.p99 / bareResult.p99 }
        : {}),
    };
    const results = [bareResult, sendResult, ...(peerResult ? [peerResult] : [])];
    if (jsonOutput) {
      console.log(
        JSON.stringify(
          {
            environment: environmentLine(),
            connections,
            duration,
            warmup,
            results,
            ratios,
            drain,
            ...(peer ? { peer: { kind: peer.kind, baseUrl: peer.baseUrl } } : {}),
          },
          null,
          2,
        ),
      );
    } else {
      console.log(
        `\nsend accept: ${duration} s per case after ${warmup} s warm-up, ${connections} connections, loopback; ${environmentLine()}\n`,
      );
      console.log(
        table(
          [
            ['case', 'path', 'req/s', 'p50 ms', 'p99 ms', 'max ms', 'requests', 'not 201'],
            ...results.map((r) => [
              r.label,
              r.path,
              fixed(r.requestsPerSecond, 0),
              fixed(r.p50, 2),
              fixed(r.p99, 2),
              fixed(r.max, 0),
              String(r.totalRequests),
              String(r.not201),
            ]),
          ],
          [0, 1],
        ),
      );
      console.log(`\nratio (b)/(a): req/s ${fixed(ratios.requestsPerSecond, 3)}   p99 ${fixed(ratios.p99, 2)}`);
      if (peerResult) {
        console.log(
          `ratio (c)/(a), ${peer.kind}: req/s ${fixed(ratios.peerRequestsPerSecond, 3)}   p99 ${fixed(ratios.peerP99, 2)}; ` +
            `(c) answers: ${JSON.stringify(peerResult.statusCodes)}, ${peerResult.errors} errors, ${peerResult.timeouts} timeouts`,
        );
      }
      const codes = (r) => `${JSON.stringify(r.statusCodes)}, ${r.errors} errors, ${r.timeouts} timeouts`;
      console.log(
        `(b) answers during the measurement: ${codes(sendResult)}; warm-up: ${JSON.stringify(sendResult.warmup?.statusCodes ?? {})}`,
      );
      console.log(`\nworker drain (one instance, from messages.accepted_at and sandbox_messages.at):`);
      console.log(
        table(
          [
            ['', 'value'],
            ['rows accepted / 201 answers counted (*)', `${drain.acceptedRows} / ${drain.answered201}`],
            ['reached the network / failed / still unsent', `${drain.received} / ${drain.failed} / ${drain.unsent}`],
            ['accepting took (first to last accepted_at)', `${fixed(drain.acceptSeconds, 1)} s`],
            ['all sent after (first accepted_at to last at)', `${fixed(drain.totalSeconds, 1)} s`],
            ['drain rate overall (sent / that span)', `${fixed(drain.overallRate, 0)} msg/s`],
            ['backlog when the load stopped', `${drain.afterLoad} msg`],
            ['drain rate without API load (backlog / tail)', `${fixed(drain.tailRate, 0)} msg/s over ${fixed(drain.tailSeconds, 1)} s`],
            ['accept-to-network lag p50 / max', `${fixed(drain.lagP50, 2)} s / ${fixed(drain.lagMax, 2)} s`],
          ],
          [0, 1],
        ),
      );
      console.log(
        `(*) rows include requests still in flight when autocannon stopped (up to ${connections} per load); their answers are not counted`,
      );
      console.log('\nCPU during each phase (% of one CPU, from /proc/<pid>/stat and schedstat deltas):');
      console.log(cpuTable({ '(a) bare': bareResult.cpu, '(b) send': sendResult.cpu, 'drain after load': drain.cpu }));
      // CPU time per unit of work: per answered request while loading, per message sent while the worker drained alone.
      const perRequest = (r, group) => ((r.cpu.groups[group] / 100) * r.cpu.seconds * 1000) / Math.max(1, r.totalRequests);
      const perSent = (group) => ((drain.cpu.groups[group] / 100) * drain.cpu.seconds * 1000) / Math.max(1, backlogAtLoadEnd);
      console.log(
        `CPU time per request: (a) bare app ${fixed(perRequest(bareResult, 'bare Nest app'), 2)} ms; (b) api ${fixed(perRequest(sendResult, 'api'), 2)} ms` +
          ` + postgres ${fixed(perRequest(sendResult, 'postgres (backends of this db)'), 2)} ms. Per message sent after the load: worker ` +
          `${fixed(perSent('worker'), 2)} ms + postgres ${fixed(perSent('postgres (backends of this db)'), 2)} ms (${backlogAtLoadEnd} messages)`,
      );
      console.log('\nPostgreSQL backends of this database, average number busy per state (pg_stat_activity every 100 ms):');
      console.log(`  (b) send:         ${gw.activityLine(sendResult.pgActivity)}`);
      console.log(`  drain after load: ${gw.activityLine(drain.pgActivity)}`);
      console.log('');
    }
    const invalid = [];
    if (bareResult.not201 > 0) invalid.push(`(a) had ${bareResult.not201} answers that were not 201`);
    if (sendResult.not201 > 0) invalid.push(`(b) had ${sendResult.not201} answers that were not 201`);
    if (drain.unsent > 0) invalid.push(`${drain.unsent} accepted messages were not sent within ${drainTimeout} s`);
    if (drain.received !== drain.acceptedRows - drain.failed) invalid.push('not every accepted message reached the network');
    exitCode = gw.verdict(log, invalid, ': see above');
  } catch (error) {
    gw.logFailure(log, error, processes);
  } finally {
    await gw.endRun({ control, cleanups }, exitCode);
  }
}
