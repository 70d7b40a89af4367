#!/usr/bin/env node
// `npm test`: build, give the test run its own PostgreSQL database and Redis key prefix (starting private servers when
// none is reachable), run jest and then the browser tier (Playwright driving Chromium, test/browser), and clean up
// whatever happens. Extra arguments go to jest and run only jest; after `--browser` they go to Playwright instead:
//   npm test -- test/deployment.spec.ts        TEST_SKIP_BUILD=1 npm test -- --selectProjects unit
//   npm test -- --browser                      npm test -- --browser test/browser/docs.browser.ts --headed
import { spawn, spawnSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { existsSync, mkdirSync, readFileSync, rmSync } from 'node:fs';
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
const { createDatabase, deleteRedisPrefix, dropDatabase, ensurePostgres, ensureRedis, startPgBouncer, withDatabase } =
  await import('./lib/services.mjs');

let current = null;
let interrupted = false;

function run(command, args, env = process.env) {
  return new Promise((resolveRun, reject) => {
    const child = spawn(command, args, { cwd: root, env, stdio: 'inherit' });
    current = child;
    child.once('error', reject);
    child.once('exit', (code, signal) => {
      current = null;
      resolveRun(code ?? 128 + constants.signals[signal]);
    });
  });
}

async function mustRun(command, args, env) {
  const code = await run(command, args, env);
  if (code !== 0) throw new Error(`${command} ${args.join(' ')} exited with ${code}`);
}

function checkInterrupted() {
  if (interrupted) throw new Error('interrupted');
}

// Jest runs in our process group, so a terminal Ctrl-C reaches it directly; a SIGTERM sent to us alone is passed on.
// Either way we stay alive long enough to drop the database and stop private servers.
for (const signal of ['SIGINT', 'SIGTERM', 'SIGHUP']) {
  process.on(signal, () => {
    interrupted = true;
    current?.kill(signal);
  });
}

const cliArgs = process.argv.slice(2);
const browserOnly = cliArgs[0] === '--browser';
const runJest = !browserOnly;
// Arguments for jest narrow the run to jest; a plain `npm test` runs every tier.
const runBrowser = browserOnly || cliArgs.length === 0;

function jestArgs(resultsFile) {
  const extra = cliArgs;
  // --forceExit: a suite that fails half-way through its setup can leave a client retrying a server it stopped (a
  // Sentinel group that never formed), and Jest would then wait for it forever after the last test instead of reporting.
  const args = ['node_modules/jest/bin/jest.js', '--config', 'jest.config.js', '--runInBand', '--forceExit'];
  // The JSON report lets us print a one-line summary; skip it when the caller asked for their own.
  const ownReport = extra.some((arg) => arg.startsWith('--json') || arg.startsWith('--outputFile'));
  if (!ownReport) args.push('--json', `--outputFile=${resultsFile}`);
  return [...args, ...extra];
}

function playwrightArgs() {
  return ['node_modules/@playwright/test/cli.js', 'test', '--config', 'test/browser/playwright.config.ts', ...cliArgs.slice(1)];
}

/** Counts from jest's JSON report, or null when it wrote none. */
function jestCounts(resultsFile) {
  if (!existsSync(resultsFile)) return null;
  const { numPassedTests, numFailedTests, numPendingTests, numTodoTests } = JSON.parse(readFileSync(resultsFile, 'utf8'));
  return { passed: numPassedTests, failed: numFailedTests, skipped: numPendingTests + numTodoTests };
}

/** The slowest suites of jest's JSON report, so a CI log shows where its time limit goes. */
function printSlowestSuites(resultsFile, count = 15) {
  if (!existsSync(resultsFile)) return;
  const { testResults = [] } = JSON.parse(readFileSync(resultsFile, 'utf8'));
  const durations = testResults
    .map(({ name, startTime, endTime }) => ({ name: relative(process.cwd(), name), seconds: (endTime - startTime) / 1000 }))
    .sort((a, b) => b.seconds - a.seconds);
  const total = durations.reduce((sum, { seconds }) => sum + seconds, 0);
  console.log(`test: jest suites took ${Math.round(total)} s in all; the slowest:`);
  for (const { name, seconds } of durations.slice(0, count)) console.log(`test:   ${seconds.toFixed(1).padStart(6)} s  ${name}`);
}

/** Counts from Playwright's JSON report (a failing worker fixture counts as a failure too). */
function playwrightCounts(resultsFile) {
  if (!existsSync(resultsFile)) return null;
  const { stats, errors = [] } = JSON.parse(readFileSync(resultsFile, 'utf8'));
  return {
    passed: stats.expected + stats.flaky,
    failed: stats.unexpected + (stats.unexpected === 0 ? errors.length : 0),
    skipped: stats.skipped,
  };
}

const describeCounts = ({ passed, failed, skipped }) => `${passed} passed, ${failed} failed${skipped ? `, ${skipped} skipped` : ''}`;

function printSummary(tiers) {
  for (const { name, code, counts } of tiers) if (!counts) console.log(`test: ${name}: exited with ${code} before reporting results`);
  const counted = tiers.filter((tier) => tier.counts);
  if (counted.length === 0) return;
  if (tiers.length > 1) for (const { name, counts } of counted) console.log(`test: ${name}: ${describeCounts(counts)}`);
  const total = { passed: 0, failed: 0, skipped: 0 };
  for (const { counts } of counted) for (const key of Object.keys(total)) total[key] += counts[key];
  console.log(`test: ${describeCounts(total)}`);
}

async function main() {
  const cleanups = [];
  let exitCode = 1;
  try {
    if (process.env.TEST_SKIP_BUILD !== '1') await mustRun('npm', ['run', 'build']);
    checkInterrupted();

    mkdirSync(tmpDir, { recursive: true });
    const suffix = randomBytes(4).toString('hex');
    const pgCandidates = [
      process.env.DATABASE_URL && withDatabase(process.env.DATABASE_URL, 'postgres'),
      'postgresql://postgres@127.0.0.1:5432/postgres',
    ];
    const postgres = await ensurePostgres({ url: pgCandidates, dataDir: join(tmpDir, 'pg'), log, fsync: false });
    cleanups.push(postgres.stop);
    const dbName = `mgw_test_${suffix}`;
    await createDatabase(postgres.url, dbName);
    cleanups.push(() => dropDatabase(postgres.url, dbName));
    const databaseUrl = withDatabase(postgres.url, dbName);
    log(`created database ${dbName}`);

    // The core flows also run through a transaction pooler (test/pgbouncer.e2e-spec.ts); without pgbouncer installed
    // that spec says so and fails (CI installs it).
    const bouncer = await startPgBouncer({ serverUrl: postgres.url, dir: join(tmpdir(), `mgw-pgbouncer-${suffix}`), log });
    if (bouncer) cleanups.push(bouncer.stop);
    else log('pgbouncer is not installed: test/pgbouncer.e2e-spec.ts will fail (apt-get install -y pgbouncer)');
    checkInterrupted();

    const redis = await ensureRedis({ url: [process.env.REDIS_URL, 'redis://127.0.0.1:6379'], dir: join(tmpDir, 'redis'), log });
    cleanups.push(redis.stop);
    const queuePrefix = `mgwtest${suffix}`;
    cleanups.push(() => deleteRedisPrefix(redis.url, queuePrefix));
    log(`using queue prefix ${queuePrefix}`);
    checkInterrupted();

    await mustRun(process.execPath, ['scripts/migrate.mjs'], {
      ...process.env,
      DATABASE_URL: databaseUrl,
      DATABASE_MIGRATION_URL: databaseUrl,
    });
    checkInterrupted();

    const env = {
      ...process.env,
      DATABASE_URL: databaseUrl,
      TEST_PG_SERVER_URL: postgres.url,
      ...(bouncer ? { TEST_PGBOUNCER_URL: withDatabase(bouncer.url, dbName) } : {}),
      REDIS_URL: redis.url,
      QUEUE_PREFIX: queuePrefix,
      ADMIN_API_KEY: randomBytes(24).toString('base64url'),
      ENCRYPTION_KEY: randomBytes(32).toString('base64'),
      LOG_LEVEL: 'warn',
      NODE_ENV: 'test',
    };
    const tiers = [];
    if (runJest) {
      const resultsFile = join(tmpDir, `jest-${suffix}.json`);
      cleanups.push(() => rmSync(resultsFile, { force: true }));
      const code = await run(process.execPath, jestArgs(resultsFile), env);
      tiers.push({ name: 'jest', code, counts: jestCounts(resultsFile) });
      printSlowestSuites(resultsFile);
    }
    // The browser tier runs even when jest failed: both results are worth having from one CI run.
    if (runBrowser && !interrupted) {
      const resultsFile = join(tmpDir, `browser-${suffix}.json`);
      cleanups.push(() => rmSync(resultsFile, { force: true }));
      const code = await run(process.execPath, playwrightArgs(), { ...env, BROWSER_RESULTS_FILE: resultsFile });
      tiers.push({ name: 'browser', code, counts: playwrightCounts(resultsFile) });
    }
    printSummary(tiers);
    exitCode = tiers.find((tier) => tier.code !== 0)?.code ?? 0;
  } catch (error) {
    console.error(`test: ${error instanceof Error ? error.message : String(error)}`);
    if (interrupted) exitCode = 130;
  } finally {
    // Reverse order: the database and keys go before the servers that hold them.
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
