// Helpers for the benchmarks in bench/: throw-away PostgreSQL database and Redis prefix, child processes that never
// outlive the benchmark, and a cleanup stack that runs once whatever happens. Built on scripts/lib/services.mjs.
import { spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { chmodSync, mkdirSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import * as services from '../scripts/lib/services.mjs';

export const root = resolve(import.meta.dirname, '..');
export { services };

/**
 * The variables libs/config reads, taken from .env.example (test/deployment.spec.ts keeps it complete); removed from
 * inherited environments so a run does not depend on the caller's shell.
 */
export const CONFIG_VARIABLES = readFileSync(join(root, '.env.example'), 'utf8')
  .split('\n')
  .map((line) => /^([A-Z][A-Z0-9_]*)=/.exec(line)?.[1])
  .filter(Boolean);

/** An integer setting from the environment variable `name` (else `fallback`), within `min`..`max`. */
export function envInt(name, fallback, min, max) {
  const value = Number(process.env[name] ?? fallback);
  if (!Number.isInteger(value) || value < min || value > max) throw new Error(`${name} must be an integer from ${min} to ${max}`);
  return value;
}

/** The median of a list of numbers. */
export function median(values) {
  const sorted = [...values].sort((x, y) => x - y);
  const middle = Math.floor(sorted.length / 2);
  return sorted.length % 2 ? sorted[middle] : (sorted[middle - 1] + sorted[middle]) / 2;
}

/**
 * The read benches' baseline, bench/bare-app.mjs (a bare Nest app), started on a free port with `env`; `ready()`
 * resolves once it answers.
 */
export async function startBareApp({ cleanups, env }) {
  const port = await services.findFreePort();
  const app = startNode('bare Nest app', [join(root, 'bench', 'bare-app.mjs')], {
    cleanups,
    ipc: true,
    env: { ...env, NODE_ENV: 'production', PORT: String(port) },
  });
  const url = `http://127.0.0.1:${port}`;
  return { app, url, ready: () => services.waitForHttp(`${url}/bare`, 60_000, { signal: app.died }) };
}

/** Cleanups run in reverse order of registration, each at most once, errors reported but not fatal. */
export class CleanupStack {
  #steps = [];
  #ran = false;

  constructor(log) {
    this.log = log;
  }

  push(label, step) {
    this.#steps.push({ label, step });
  }

  async run() {
    if (this.#ran) return;
    this.#ran = true;
    for (const { label, step } of this.#steps.reverse()) {
      try {
        const result = await step();
        this.log(`cleanup: ${label}${typeof result === 'string' ? ` (${result})` : ''}`);
      } catch (error) {
        this.log(`cleanup: ${label} failed: ${error instanceof Error ? error.message : String(error)}`);
      }
    }
  }
}

/** A private directory for servers started by this run; world-searchable so a private PostgreSQL (run as postgres) can use it. */
export function makeScratchDir(cleanups) {
  const dir = mkdtempSync(join(tmpdir(), 'mgw-bench-'));
  chmodSync(dir, 0o755);
  cleanups.push(`removed ${dir}`, () => rmSync(dir, { recursive: true, force: true }));
  return dir;
}

/**
 * A fresh database and Redis key prefix for one run. Uses DATABASE_URL's server / REDIS_URL when reachable, else the local
 * defaults, else private servers started in `scratchDir` (needs initdb/pg_ctl and redis-server on PATH). With
 * `privatePostgres`, always a private PostgreSQL.
 */
export async function setUpInfrastructure({ cleanups, scratchDir, log, label = 'bench', privatePostgres = false }) {
  const suffix = randomBytes(4).toString('hex');
  // A private server: figures that are the whole server's (WAL written, the checkpointer's CPU) are then this run's alone.
  const pgCandidates = privatePostgres
    ? []
    : [
        process.env.DATABASE_URL && services.withDatabase(process.env.DATABASE_URL, 'postgres'),
        'postgresql://postgres@127.0.0.1:5432/postgres',
      ];
  const pgDir = join(scratchDir, 'pg');
  mkdirSync(pgDir, { recursive: true });
  const postgres = await services.ensurePostgres({ url: pgCandidates, dataDir: pgDir, log, fsync: privatePostgres });
  if (postgres.private) cleanups.push('stopped the private PostgreSQL', postgres.stop);
  const dbName = `mgw_${label}_${suffix}`;
  await services.createDatabase(postgres.url, dbName);
  cleanups.push(`dropped database ${dbName}`, () => services.dropDatabase(postgres.url, dbName));
  log(`created database ${dbName}`);

  const redis = await services.ensureRedis({ url: [process.env.REDIS_URL, 'redis://127.0.0.1:6379'], dir: join(scratchDir, 'redis'), log });
  if (redis.private) cleanups.push('stopped the private Redis', redis.stop);
  const queuePrefix = `mgw${label}${suffix}`;
  cleanups.push(`deleted Redis keys ${queuePrefix}*`, async () => `${await services.deleteRedisPrefix(redis.url, queuePrefix)} keys`);
  log(`using Redis key prefix ${queuePrefix}`);

  return { databaseUrl: services.withDatabase(postgres.url, dbName), redisUrl: redis.url, queuePrefix };
}

/** Applies prisma/migrations to `databaseUrl` with scripts/migrate.mjs (offline, WASM schema engine). */
export function migrate(databaseUrl) {
  return new Promise((resolveRun, reject) => {
    const child = spawn(process.execPath, ['scripts/migrate.mjs'], {
      cwd: root,
      env: { ...process.env, DATABASE_URL: databaseUrl },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let output = '';
    child.stdout.on('data', (chunk) => (output += chunk));
    child.stderr.on('data', (chunk) => (output += chunk));
    child.once('error', reject);
    child.once('exit', (code) =>
      code === 0 ? resolveRun(output.trim()) : reject(new Error(`migrate.mjs exited with ${code}:\n${output}`)),
    );
  });
}

/**
 * Starts `node <args>` in its own process group with piped output (last 64 KiB kept for error messages). The child is
 * SIGKILLed if this process exits without stopping it; `stop()` sends SIGTERM and escalates after `graceMs`.
 */
export function startNode(name, args, { env, cleanups, ipc = false }) {
  const child = spawn(process.execPath, args, {
    cwd: root,
    env,
    stdio: ['ignore', 'pipe', 'pipe', ...(ipc ? ['ipc'] : [])],
    detached: true,
  });
  let output = '';
  const keep = (chunk) => {
    output = (output + chunk).slice(-65_536);
  };
  child.stdout.on('data', keep);
  child.stderr.on('data', keep);
  const unregister = services.onProcessExit(() => child.kill('SIGKILL'));
  const exited = new Promise((resolveExit) => child.once('exit', (code, signal) => resolveExit(code ?? signal)));
  const died = new AbortController();
  exited.then((status) => {
    unregister();
    died.abort(new Error(`${name} exited (${status}):\n${output}`));
  });
  const stop = async (graceMs = 10_000) => {
    if (child.exitCode === null && child.signalCode === null) {
      child.kill('SIGTERM');
      const timer = setTimeout(() => child.kill('SIGKILL'), graceMs);
      await exited;
      clearTimeout(timer);
    }
    return `exit ${await exited}`;
  };
  cleanups.push(`stopped ${name}`, stop);
  return { name, child, died: died.signal, output: () => output, stop };
}

/** JSON request with a timeout (10 s unless `timeoutMs`); returns `{status, headers, body}` with the body parsed when it is JSON. */
export async function request(url, { method = 'GET', headers = {}, body, timeoutMs = 10_000 } = {}) {
  const response = await fetch(url, {
    method,
    headers: { ...headers, ...(body !== undefined ? { 'Content-Type': 'application/json' } : {}) },
    body: body !== undefined ? JSON.stringify(body) : undefined,
    signal: AbortSignal.timeout(timeoutMs),
  }).catch((error) => {
    throw new Error(`${method} ${new URL(url).pathname}: ${error.message}`, { cause: error });
  });
  const text = await response.text();
  let parsed = text;
  try {
    parsed = JSON.parse(text);
  } catch {
    // not JSON; keep the text
  }
  return { status: response.status, headers: response.headers, body: parsed };
}

/** Throws with the response when the status is not the expected one. */
export function expectStatus(label, response, status) {
  if (response.status !== status) {
    throw new Error(`${label}: expected HTTP ${status}, got ${response.status} ${JSON.stringify(response.body)}`);
  }
  return response.body;
}
