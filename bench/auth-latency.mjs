#!/usr/bin/env node
// What authentication costs: throughput and latency of authenticated API reads against a bare NestJS baseline.
//
//   npm run build && node bench/auth-latency.mjs [--json]
//
// Three cases, measured one after the other in the same run, each for a fixed time with the same load (autocannon,
// keep-alive, loopback only):
//   (a) bare      GET /bare on a minimal Nest app (one controller built below, @nestjs/platform-express, no logger)
//   (b) account   GET /account/instances/{id} on the real API with the customer key (X-Api-Key)
//   (c) instance  GET /instance/settings on the real API with the instance's own key (X-Api-Key + X-Instance-Id)
// The real API is the built one (dist/apps/api/src/main.js) in its own process, with a fresh database created and
// migrated here, its own Redis key prefix and a per-key rate limit too high to be reached; LOG_LEVEL=warn, so no
// per-request log lines are written. The bare app also runs in its own process (bench/bare-app.mjs), so the
// load generator never shares an event loop with a server. (b) and (c) include everything the production pipeline does
// per request: request id, metrics, the guard (key parse + SHA-256, in-memory key cache, Redis rate-limit call, address
// block check), validation and one PostgreSQL read for the instance.
//
// Settings (environment): BENCH_DURATION seconds per case (10), BENCH_WARMUP seconds before each case's first
// measurement (3), BENCH_CONNECTIONS (50), BENCH_ROUNDS (1): repeat the three cases, rotating their order, and report
// medians; useful on a busy machine. DATABASE_URL / REDIS_URL pick the servers (else 127.0.0.1 defaults, else private ones).
// Everything created is removed at the end, also on failure or Ctrl-C: the child processes, the database, the Redis keys.
import { randomBytes } from 'node:crypto';
import { existsSync } from 'node:fs';
import { cpus, loadavg } from 'node:os';
import { join } from 'node:path';

await main();

// ---------------------------------------------------------------------------------------------------------------
// The benchmark

async function main() {
  const { default: autocannon } = await import('autocannon');
  const {
    CleanupStack,
    CONFIG_VARIABLES,
    envInt,
    expectStatus,
    makeScratchDir,
    median,
    migrate,
    request,
    root,
    services,
    setUpInfrastructure,
    startBareApp,
    startNode,
  } = await import('./lib.mjs');

  const log = (message) => console.error(`bench: ${message}`);
  const seconds = envInt;
  const duration = seconds('BENCH_DURATION', 10, 1, 600);
  const warmup = seconds('BENCH_WARMUP', 3, 0, 600);
  const connections = seconds('BENCH_CONNECTIONS', 50, 1, 10_000);
  const roundCount = seconds('BENCH_ROUNDS', 1, 1, 20);
  const jsonOutput = process.argv.includes('--json');

  const apiMain = join(root, 'dist', 'apps', 'api', 'src', 'main.js');
  if (!existsSync(apiMain)) {
    console.error(`bench: ${apiMain} is missing; run \`npm run build\` first`);
    process.exit(1);
  }

  const cleanups = new CleanupStack(log);
  let current = null; // the running autocannon instance
  let interrupted = false;
  const stopAll = (reason) => {
    if (interrupted) return;
    interrupted = true;
    log(reason);
    current?.stop();
  };
  for (const signal of ['SIGINT', 'SIGTERM', 'SIGHUP']) process.on(signal, () => stopAll(`${signal}: stopping`));
  // Bounded whatever happens: warm-ups, measurements, plus generous time for setup.
  const budgetMs = 3 * (warmup + roundCount * duration) * 1000 + 180_000;
  const watchdog = setTimeout(() => stopAll(`watchdog: still running after ${budgetMs / 1000} s, stopping`), budgetMs);
  watchdog.unref();
  const checkInterrupted = () => {
    if (interrupted) throw new Error('interrupted');
  };

  async function load(url, headers, forSeconds) {
    current = autocannon({ url, headers, connections, duration: forSeconds, pipelining: 1, timeout: 10 });
    try {
      return await current;
    } finally {
      current = null;
    }
  }

  async function measure(label, url, headers, warm) {
    checkInterrupted();
    if (warm && warmup > 0) {
      log(`${label}: warming up for ${warmup} s`);
      await load(url, headers, warmup);
      checkInterrupted();
    }
    log(`${label}: measuring for ${duration} s with ${connections} connections`);
    const result = await load(url, headers, duration);
    checkInterrupted();
    return {
      label,
      url: url.replace(/^http:\/\/127\.0\.0\.1:\d+/, ''),
      requestsPerSecond: result.requests.average,
      totalRequests: result.requests.total,
      p50: result.latency.p50,
      p99: result.latency.p99,
      mean: result.latency.average,
      non2xx: result.non2xx,
      errors: result.errors,
      timeouts: result.timeouts,
    };
  }

  let exitCode = 1;
  try {
    const scratchDir = makeScratchDir(cleanups);
    const infra = await setUpInfrastructure({ cleanups, scratchDir, log, label: 'bench' });
    checkInterrupted();
    log(await migrate(infra.databaseUrl));
    checkInterrupted();

    // The real API, configured like production except for the rate limit, which must not be what we measure.
    const inherited = { ...process.env };
    for (const name of CONFIG_VARIABLES) delete inherited[name];
    const adminKey = randomBytes(24).toString('base64url');
    const apiPort = await services.findFreePort();
    const api = startNode('api', [apiMain], {
      cleanups,
      env: {
        ...inherited,
        NODE_ENV: 'production',
        DATABASE_URL: infra.databaseUrl,
        REDIS_URL: infra.redisUrl,
        QUEUE_PREFIX: infra.queuePrefix,
        ADMIN_API_KEY: adminKey,
        ENCRYPTION_KEY: randomBytes(32).toString('base64'),
        PORT: String(apiPort),
        WORKER_HEALTH_PORT: '0',
        RATE_LIMIT_REQUESTS: '1000000', // the highest value libs/config accepts
        RATE_LIMIT_WINDOW_SECONDS: '1',
        LOG_LEVEL: 'warn',
      },
    });
    const bare = await startBareApp({ cleanups, env: inherited });
    const apiUrl = `http://127.0.0.1:${apiPort}`;
    const bareUrl = bare.url;
    await Promise.all([services.waitForHttp(`${apiUrl}/health/ready`, 60_000, { signal: api.died }), bare.ready()]);
    checkInterrupted();
    log(`API on ${apiUrl} (pid ${api.child.pid}), bare Nest app on ${bareUrl} (pid ${bare.app.child.pid})`);

    const customer = expectStatus(
      'POST /admin/customers',
      await request(`${apiUrl}/admin/customers`, { method: 'POST', headers: { 'X-Admin-Key': adminKey }, body: { name: 'bench' } }),
      201,
    );
    const instance = expectStatus(
      'POST /account/instances',
      await request(`${apiUrl}/account/instances`, { method: 'POST', headers: { 'X-Api-Key': customer.apiKey }, body: { name: 'bench' } }),
      201,
    );
    const cases = [
      { label: '(a) bare Nest', url: `${bareUrl}/bare`, headers: {} },
      { label: '(b) account, customer key', url: `${apiUrl}/account/instances/${instance.id}`, headers: { 'X-Api-Key': customer.apiKey } },
      {
        label: '(c) instance, instance key',
        url: `${apiUrl}/instance/settings`,
        headers: { 'X-Api-Key': instance.apiKey, 'X-Instance-Id': instance.id },
      },
    ];
    // Each authenticated case answers 200 with its key and 401 without: we measure what we think we measure.
    for (const { label, url, headers } of cases) {
      expectStatus(label, await request(url, { headers }), 200);
      if (headers['X-Api-Key'])
        expectStatus(`${label} without a key`, await request(url, { headers: { ...headers, 'X-Api-Key': '' } }), 401);
    }

    // Rounds (BENCH_ROUNDS, default 1) repeat all three cases, rotating their order, so that load from elsewhere on the
    // machine and ordering effects hit every case alike; ratios are taken within a round, and medians reported.
    const rounds = [];
    for (let round = 0; round < roundCount; round += 1) {
      const measured = new Map();
      for (let i = 0; i < cases.length; i += 1) {
        const item = cases[(i + round) % cases.length];
        measured.set(item, await measure(item.label, item.url, item.headers, round === 0));
      }
      const [bareResult, accountResult, instanceResult] = cases.map((item) => measured.get(item));
      rounds.push({
        results: [bareResult, accountResult, instanceResult],
        ratios: {
          accountToBare: accountResult.requestsPerSecond / bareResult.requestsPerSecond,
          instanceToBare: instanceResult.requestsPerSecond / bareResult.requestsPerSecond,
        },
      });
    }
    const summary = {
      results: cases.map((item, index) => {
        const runs = rounds.map((round) => round.results[index]);
        return {
          label: item.label,
          url: runs[0].url,
          requestsPerSecond: median(runs.map((r) => r.requestsPerSecond)),
          p50: median(runs.map((r) => r.p50)),
          p99: median(runs.map((r) => r.p99)),
          non2xx: runs.reduce((sum, r) => sum + r.non2xx, 0),
          errors: runs.reduce((sum, r) => sum + r.errors + r.timeouts, 0),
        };
      }),
      ratios: {
        accountToBare: median(rounds.map((round) => round.ratios.accountToBare)),
        instanceToBare: median(rounds.map((round) => round.ratios.instanceToBare)),
      },
    };
    const failed = summary.results.filter((result) => result.non2xx > 0 || result.errors > 0);

    const environment = {
      node: process.version,
      cpus: cpus().length,
      cpuModel: cpus()[0]?.model?.trim(),
      loadAverage: loadavg().map((value) => Number(value.toFixed(2))),
      connections,
      durationSeconds: duration,
      warmupSeconds: warmup,
      rounds: roundCount,
    };
    if (jsonOutput) {
      console.log(JSON.stringify({ environment, rounds, summary }, null, 2));
    } else {
      const fixed = (value, digits) => (Number.isFinite(value) ? value.toFixed(digits) : '-');
      const row = (prefix, r) => [
        ...prefix,
        r.label,
        r.url.replace(instance.id, '{id}'),
        fixed(r.requestsPerSecond, 0),
        fixed(r.p50, 2),
        fixed(r.p99, 2),
        `${r.non2xx}/${r.errors + (r.timeouts ?? 0)}`,
      ];
      const header = ['case', 'path', 'req/s', 'p50 ms', 'p99 ms', 'non-2xx/errors'];
      const rows =
        roundCount === 1
          ? [header, ...summary.results.map((r) => row([], r))]
          : [
              ['round', ...header],
              ...rounds.flatMap((round, index) => round.results.map((r) => row([String(index + 1)], r))),
              ...summary.results.map((r) => row(['median'], r)),
            ];
      const textColumns = roundCount === 1 ? 2 : 3;
      const widths = rows[0].map((_, column) => Math.max(...rows.map((cells) => cells[column].length)));
      const line = (cells) =>
        cells.map((cell, column) => (column < textColumns ? cell.padEnd(widths[column]) : cell.padStart(widths[column]))).join('  ');
      console.log(
        `\nauth latency: ${duration} s per case after ${warmup} s warm-up, ${connections} connections, loopback, ` +
          `${roundCount} round(s); node ${environment.node}, ${environment.cpus} CPU (${environment.cpuModel}), ` +
          `load average ${environment.loadAverage.join(' ')}\n`,
      );
      console.log(line(rows[0]));
      console.log(widths.map((width) => '-'.repeat(width)).join('  '));
      for (const cells of rows.slice(1)) console.log(line(cells));
      const label = roundCount === 1 ? 'req/s ratio' : 'req/s ratio (median of per-round ratios)';
      console.log(`\n${label} (b)/(a): ${fixed(summary.ratios.accountToBare, 3)}   (c)/(a): ${fixed(summary.ratios.instanceToBare, 3)}\n`);
    }
    if (failed.length > 0) {
      log(`some requests failed (${failed.map((r) => r.label).join(', ')}); the numbers above are not valid`);
    } else {
      exitCode = 0;
    }
  } catch (error) {
    log(`failed: ${error instanceof Error ? error.message : String(error)}`);
  } finally {
    clearTimeout(watchdog);
    await cleanups.run();
  }
  process.exit(interrupted ? 130 : exitCode);
}
