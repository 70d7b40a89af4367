#!/usr/bin/env node
// `npm test`: give the run a migrated template database and a Redis key prefix (starting private servers when none is
// reachable), then, while the build runs, the unit and repository suites; then the e2e suites in parallel Jest workers
// (each with a database cloned from the template and a prefix of its own, test/support/jest-environment.ts); then the
// suites that need the whole machine, one at a time (SERIAL below); then the browser tier (Playwright driving
// Chromium, test/browser). It cleans up whatever happens, and keeps every report and the time of each stage in
// .test-tmp/runs/<run>/ (.test-tmp/last-run points at the newest).
//
// Extra arguments go to one Jest run and skip the browser tier; after `--browser` they go to Playwright instead:
//   npm test -- test/deployment.spec.ts        TEST_SKIP_BUILD=1 npm test -- --selectProjects unit
//   npm test -- --changed                      the suites touched by the uncommitted change (jest --onlyChanged)
//   npm test -- --changed=main                 the suites touched since main (jest --changedSince=main)
//   npm test -- --browser                      npm test -- --browser test/browser/docs.browser.ts --headed
// TEST_JEST_WORKERS sets the parallel phase's Jest workers (3 by default).
import { spawn, spawnSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { existsSync, mkdirSync, readdirSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { constants, tmpdir } from 'node:os';
import { join, relative, resolve } from 'node:path';

const root = resolve(import.meta.dirname, '..');
const tmpDir = join(root, '.test-tmp');
const log = (message) => console.log(`test: ${message}`);

// Before importing the helpers: they need pg and ioredis.
if (!existsSync(join(root, 'node_modules'))) {
  log('installing dependencies (npm ci)');
  const result = spawnSync('npm', ['ci'], { cwd: root, stdio: 'inherit' });
  if (result.status !== 0) process.exit(result.status ?? 1);
}
const { createDatabase, deleteRedisPrefix, dropDatabasesStartingWith, ensurePostgres, ensureRedis, startPgBouncer, withDatabase } =
  await import('./lib/services.mjs');

/**
 * Suites that need the whole machine, run one at a time after the parallel phase. Each is here for a reason of its own;
 * everything else runs side by side.
 */
const SERIAL = {
  // Measure what a fault costs while thousands of sends flow through several workers: kill -9, stops, takeovers.
  'test/send-chaos.e2e-spec.ts': 'kill -9 of workers during thousands of sends; counts every send',
  'test/send-chaos-redis.e2e-spec.ts': 'Redis failovers and flushes during thousands of sends',
  'test/split-brain.e2e-spec.ts': 'two workers fight over leases with short, timed lease windows',
  'test/paced-takeover.e2e-spec.ts': 'pacing intervals measured across a takeover',
  'test/real-network-takeover.e2e-spec.ts': 'real-driver takeovers with three workers and short leases',
  'test/real-network-crossing.e2e-spec.ts': 'a send and an inbound message crossing within milliseconds of a SIGTERM',
  'test/shutdown.e2e-spec.ts': 'graceful-stop budgets measured in seconds',
  'test/worker-ownership.e2e-spec.ts': 'lease expiry and rebalancing timed against SHARD_LEASE_MS',
  // Topologies of their own: six Redis nodes, three Sentinels, a streaming replica, the previous release's build.
  'test/redis-cluster.e2e-spec.ts': 'a six-node Redis Cluster and its failover',
  'test/redis-sentinel.e2e-spec.ts': 'three Sentinels electing a new primary within their timeouts',
  'test/read-replica.e2e-spec.ts': 'a private PostgreSQL primary and streaming replica',
  'test/rolling-upgrade.e2e-spec.ts': 'builds the previous release; sends must leave within 2.5 s of their doorbell',
};

let current = null;
let interrupted = false;

/**
 * Runs a command to its end. Jest gets a process group of its own (`group`), so that whatever it leaves behind (the
 * shared stacks of its workers, apps of a suite that failed half-way) is ended with it.
 */
function run(command, args, env = process.env, { group = false } = {}) {
  return new Promise((resolveRun, reject) => {
    const child = spawn(command, args, { cwd: root, env, stdio: 'inherit', detached: group });
    current = { child, group };
    child.once('error', reject);
    child.once('exit', (code, signal) => {
      if (group) endGroup(child.pid);
      if (current?.child === child) current = null;
      resolveRun(code ?? 128 + constants.signals[signal]);
    });
  });
}

function endGroup(pid) {
  try {
    process.kill(-pid, 'SIGKILL');
  } catch {
    // Nothing of the group is left.
  }
}

async function mustRun(command, args, env) {
  const code = await run(command, args, env);
  if (code !== 0) throw new Error(`${command} ${args.join(' ')} exited with ${code}`);
}

function checkInterrupted() {
  if (interrupted) throw new Error('interrupted');
}

// A terminal Ctrl-C reaches our process group; Jest runs in its own, so it is passed on, as is a SIGTERM sent to us
// alone. Either way we stay alive long enough to drop the databases and stop private servers.
for (const signal of ['SIGINT', 'SIGTERM', 'SIGHUP']) {
  process.on(signal, () => {
    interrupted = true;
    if (!current) return;
    if (current.group) {
      try {
        process.kill(-current.child.pid, signal);
      } catch {
        // Already gone.
      }
    } else current.child.kill(signal);
  });
}

// ---------------------------------------------------------------------------------------------------------------
// What was asked

const cliArgs = process.argv.slice(2);
const browserOnly = cliArgs[0] === '--browser';
/** A plain `npm test` runs every phase; arguments for Jest narrow the run to one Jest run. */
const fullRun = cliArgs.length === 0;

function changedArgs(args) {
  return args.flatMap((arg) => {
    if (arg === '--changed') return ['--onlyChanged'];
    if (arg.startsWith('--changed=')) return [`--changedSince=${arg.slice('--changed='.length)}`];
    return [arg];
  });
}

const JEST = ['node_modules/jest/bin/jest.js', '--config', 'jest.config.js'];
const parallelWorkers = Number(process.env.TEST_JEST_WORKERS ?? 3);

/**
 * The Jest runs of this invocation. `phase` names the databases and prefixes its workers make (jest-environment.ts),
 * so no run inherits the leases of another.
 */
function jestRuns() {
  // --forceExit: a suite that fails half-way through its setup can leave a client retrying a server it stopped (a
  // Sentinel group that never formed), and Jest would then wait for it forever after the last test instead of reporting.
  const common = [...JEST, '--forceExit'];
  if (!fullRun) {
    const args = changedArgs(cliArgs);
    const workers = args.some((arg) => arg === '--runInBand' || arg === '-i' || arg.startsWith('--maxWorkers'))
      ? []
      : [`--maxWorkers=${parallelWorkers}`];
    return [
      {
        name: 'jest',
        phase: 'j',
        args: [...common, ...workers, ...args],
        ownReport: args.some((arg) => arg.startsWith('--json') || arg.startsWith('--outputFile')),
      },
    ];
  }
  const serial = Object.keys(SERIAL);
  return [
    // Beside the build (half a minute, mostly one thread), and then alone: two workers, one per core.
    {
      name: 'unit and repositories',
      phase: 'u',
      args: [...common, '--selectProjects', 'unit', 'repositories', '--maxWorkers=2'],
      besideBuild: true,
    },
    {
      name: 'e2e, parallel',
      phase: 'e',
      args: [
        ...common,
        '--selectProjects',
        'e2e',
        `--maxWorkers=${parallelWorkers}`,
        '--testPathIgnorePatterns',
        ...serial.map(escapeRegExp),
      ],
    },
    { name: 'e2e, one at a time', phase: 's', args: [...common, '--selectProjects', 'e2e', '--runInBand', ...serial.map(escapeRegExp)] },
  ];
}

function escapeRegExp(text) {
  return text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}

function playwrightArgs() {
  return ['node_modules/@playwright/test/cli.js', 'test', '--config', 'test/browser/playwright.config.ts', ...cliArgs.slice(1)];
}

/** `npm pack` of the typed client's build (dist/, made by `npm run build`) into `dir`; null without a build. */
function packClient(dir) {
  const client = join(root, 'libs', 'client');
  if (!existsSync(join(client, 'dist'))) return null;
  const result = spawnSync('npm', ['pack', '--json', '--ignore-scripts', '--pack-destination', dir], { cwd: client, encoding: 'utf8' });
  if (result.status !== 0) throw new Error(`npm pack of libs/client exited with ${result.status}: ${result.stderr}`);
  const [{ filename }] = JSON.parse(result.stdout);
  return join(dir, filename);
}

// ---------------------------------------------------------------------------------------------------------------
// Reports

/** Where this run keeps its reports; the five newest runs are kept. */
function prepareOutputDir(suffix) {
  const runs = join(tmpDir, 'runs');
  mkdirSync(runs, { recursive: true });
  const stamp = new Date().toISOString().replace(/[:.]/g, '-');
  const dir = join(runs, `${stamp}-${suffix}`);
  mkdirSync(dir);
  const older = readdirSync(runs).sort().slice(0, -5);
  for (const name of older) rmSync(join(runs, name), { recursive: true, force: true });
  const latest = join(tmpDir, 'last-run');
  rmSync(latest, { force: true });
  symlinkSync(relative(tmpDir, dir), latest);
  return dir;
}

/** Counts and suite times from a Jest JSON report, or null when it wrote none. */
function readJestReport(file) {
  if (!existsSync(file)) return null;
  const { numPassedTests, numFailedTests, numPendingTests, numTodoTests, testResults = [] } = JSON.parse(readFileSync(file, 'utf8'));
  return {
    counts: { passed: numPassedTests, failed: numFailedTests, skipped: numPendingTests + numTodoTests },
    suites: testResults.map(({ name, startTime, endTime }) => ({ name: relative(root, name), seconds: (endTime - startTime) / 1000 })),
  };
}

/** Counts from Playwright's JSON report (a failing worker fixture counts as a failure too). */
function readPlaywrightReport(file) {
  if (!existsSync(file)) return null;
  const { stats, errors = [] } = JSON.parse(readFileSync(file, 'utf8'));
  return {
    counts: {
      passed: stats.expected + stats.flaky,
      failed: stats.unexpected + (stats.unexpected === 0 ? errors.length : 0),
      skipped: stats.skipped,
    },
    suites: [],
  };
}

const describeCounts = ({ passed, failed, skipped }) => `${passed} passed, ${failed} failed${skipped ? `, ${skipped} skipped` : ''}`;
const seconds = (ms) => `${(ms / 1000).toFixed(1).padStart(7)} s`;

function printSummary({ stages, tiers, outputDir }) {
  console.log(`test: stages (reports in ${relative(process.cwd(), outputDir)}):`);
  for (const { name, ms } of stages) console.log(`test:   ${seconds(ms)}  ${name}`);
  const suites = tiers.flatMap((tier) => tier.report?.suites ?? []).sort((a, b) => b.seconds - a.seconds);
  if (suites.length > 0) {
    const total = suites.reduce((sum, suite) => sum + suite.seconds, 0);
    console.log(`test: ${suites.length} suites took ${Math.round(total)} s in all; the ten slowest:`);
    for (const { name, seconds: took } of suites.slice(0, 10)) console.log(`test:   ${took.toFixed(1).padStart(7)} s  ${name}`);
  }
  for (const { name, code, report } of tiers) if (!report) console.log(`test: ${name}: exited with ${code} before reporting results`);
  const counted = tiers.filter((tier) => tier.report);
  if (counted.length === 0) return;
  if (tiers.length > 1) for (const { name, report } of counted) console.log(`test: ${name}: ${describeCounts(report.counts)}`);
  const total = { passed: 0, failed: 0, skipped: 0 };
  for (const { report } of counted) for (const key of Object.keys(total)) total[key] += report.counts[key];
  console.log(`test: ${describeCounts(total)}`);
}

// ---------------------------------------------------------------------------------------------------------------

async function main() {
  const cleanups = [];
  const stages = [];
  const tiers = [];
  let exitCode = 1;
  const suffix = randomBytes(4).toString('hex');
  mkdirSync(tmpDir, { recursive: true });
  const outputDir = prepareOutputDir(suffix);
  const timed = async (name, work) => {
    const started = Date.now();
    try {
      return await work();
    } finally {
      stages.push({ name, ms: Date.now() - started });
    }
  };
  try {
    const pgCandidates = [
      process.env.DATABASE_URL && withDatabase(process.env.DATABASE_URL, 'postgres'),
      'postgresql://postgres@127.0.0.1:5432/postgres',
    ];
    const template = `mgw_test_${suffix}`;
    const queuePrefix = `mgwt${suffix}`;
    const services = await timed('services and the template database', async () => {
      const postgres = await ensurePostgres({ url: pgCandidates, dataDir: join(tmpDir, 'pg'), log, fsync: false });
      cleanups.push(postgres.stop);
      await createDatabase(postgres.url, template);
      cleanups.push(async () => log(`dropped ${await dropDatabasesStartingWith(postgres.url, template)} databases`));
      log(`created the template database ${template}`);
      // The core flows also run through a transaction pooler (test/pgbouncer.e2e-spec.ts); without pgbouncer installed
      // that spec says so and fails (CI installs it).
      const bouncer = await startPgBouncer({ serverUrl: postgres.url, dir: join(tmpdir(), `mgw-pgbouncer-${suffix}`), log });
      if (bouncer) cleanups.push(bouncer.stop);
      else log('pgbouncer is not installed: test/pgbouncer.e2e-spec.ts will fail (apt-get install -y pgbouncer)');
      checkInterrupted();
      const redis = await ensureRedis({ url: [process.env.REDIS_URL, 'redis://127.0.0.1:6379'], dir: join(tmpDir, 'redis'), log });
      cleanups.push(redis.stop);
      cleanups.push(() => deleteRedisPrefix(redis.url, queuePrefix));
      log(`using queue prefix ${queuePrefix}`);
      checkInterrupted();
      const templateUrl = withDatabase(postgres.url, template);
      await mustRun(process.execPath, ['scripts/migrate.mjs'], {
        ...process.env,
        DATABASE_URL: templateUrl,
        DATABASE_MIGRATION_URL: templateUrl,
      });
      return { postgres, bouncer, redis, templateUrl };
    });
    checkInterrupted();

    const env = {
      ...process.env,
      // Nothing connects to the template itself: each Jest worker, and the browser tier, works on a copy of it.
      DATABASE_URL: services.templateUrl,
      TEST_DATABASE_TEMPLATE: template,
      TEST_PG_SERVER_URL: services.postgres.url,
      ...(services.bouncer ? { TEST_PGBOUNCER_URL: withDatabase(services.bouncer.url, template) } : {}),
      REDIS_URL: services.redis.url,
      QUEUE_PREFIX: queuePrefix,
      ADMIN_API_KEY: randomBytes(24).toString('base64url'),
      ENCRYPTION_KEY: randomBytes(32).toString('base64'),
      LOG_LEVEL: 'warn',
      NODE_ENV: 'test',
    };
    const runJest = async ({ name, phase, args, ownReport }) => {
      const reportFile = join(outputDir, `jest-${phase}.json`);
      const reportArgs = ownReport ? [] : ['--json', `--outputFile=${reportFile}`];
      const code = await timed(`jest: ${name}`, () =>
        run(process.execPath, [...args, ...reportArgs], { ...env, TEST_PHASE: phase }, { group: true }),
      );
      tiers.push({ name: `jest (${name})`, code, report: readJestReport(reportFile) });
    };

    const runs = browserOnly ? [] : jestRuns();
    const build =
      process.env.TEST_SKIP_BUILD === '1' ? Promise.resolve() : timed('build (npm run build)', () => mustRun('npm', ['run', 'build']));
    // Suites that need no build start beside it; the build's failure is reported once they are done.
    await Promise.all([build.catch(() => undefined), ...runs.filter((jest) => jest.besideBuild).map(runJest)]);
    await build;
    // The client and examples suites install the package as users get it: packed once here, not by each suite.
    const tarball = runs.length > 0 ? packClient(outputDir) : null;
    if (tarball) env.TEST_CLIENT_TARBALL = tarball;
    for (const jest of runs.filter((jest) => !jest.besideBuild)) {
      checkInterrupted();
      await runJest(jest);
    }
    // The browser tier runs even when Jest failed: both results are worth having from one CI run.
    if ((fullRun || browserOnly) && !interrupted) {
      const browserDatabase = `${template}_browser`;
      await createDatabase(services.postgres.url, browserDatabase, template);
      const reportFile = join(outputDir, 'browser.json');
      const code = await timed('browser tier (Playwright)', () =>
        run(process.execPath, playwrightArgs(), {
          ...env,
          DATABASE_URL: withDatabase(services.postgres.url, browserDatabase),
          QUEUE_PREFIX: `${queuePrefix}b`,
          BROWSER_RESULTS_FILE: reportFile,
        }),
      );
      tiers.push({ name: 'browser', code, report: readPlaywrightReport(reportFile) });
    }
    writeFileSync(
      join(outputDir, 'timings.json'),
      `${JSON.stringify({ stages, tiers: tiers.map(({ name, code, report }) => ({ name, code, counts: report?.counts ?? null })) }, null, 2)}\n`,
    );
    printSummary({ stages, tiers, outputDir });
    exitCode = tiers.find((tier) => tier.code !== 0)?.code ?? 0;
  } catch (error) {
    console.error(`test: ${error instanceof Error ? error.message : String(error)}`);
    if (tiers.length > 0) printSummary({ stages, tiers, outputDir });
    if (interrupted) exitCode = 130;
  } finally {
    // Reverse order: the databases and keys go before the servers that hold them.
    for (const cleanup of cleanups.reverse()) {
      try {
        await cleanup();
      } catch (error) {
        console.error(`test: cleanup failed: ${error instanceof Error ? error.message : String(error)}`);
      }
    }
  }
  process.exit(exitCode);
}

await main();
