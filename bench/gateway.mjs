// Shared setup for the gateway benchmarks (send-accept, send-e2e, pipeline, soak, webhooks, reads): their start and end, the built API and one worker in
// their own processes against a throw-away database and Redis prefix, paired sandbox instances, a per-process CPU meter
// (from /proc, so it shows what the processes used during a window, not the lifetime average `ps -o %cpu` prints), the
// run's guard rails (signals, watchdog) and plain-text tables. Built on bench/lib.mjs.
import { randomBytes } from 'node:crypto';
import http from 'node:http';
import { existsSync, readFileSync } from 'node:fs';
import { cpus, loadavg } from 'node:os';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import pg from 'pg';
import { Redis } from 'ioredis';
import {
  CleanupStack,
  CONFIG_VARIABLES,
  envInt,
  median,
  expectStatus,
  makeScratchDir,
  migrate,
  request,
  root,
  services,
  setUpInfrastructure,
  startBareApp,
  startNode,
} from './lib.mjs';

export { CleanupStack, envInt, expectStatus, median, request, root, services, startBareApp, startNode };

export const apiMain = join(root, 'dist', 'apps', 'api', 'src', 'main.js');
export const workerMain = join(root, 'dist', 'apps', 'worker', 'src', 'main.js');

/** Exits with a hint when the build is missing. */
export function requireBuild(log) {
  for (const file of [apiMain, workerMain]) {
    if (!existsSync(file)) {
      log(`${file} is missing; run \`npm run build\` first`);
      process.exit(1);
    }
  }
}

/** What every bench starts with: its log (prefixed `bench:`), its arguments and whether it prints JSON. */
export function benchStart() {
  const argv = process.argv.slice(2);
  return { log: (message) => console.error(`bench: ${message}`), argv, jsonOutput: argv.includes('--json') };
}

/** Exits without a build, then bounds the run: a cleanup stack and a watchdog that stops it after `budgetMs`. */
export function boundedRun(log, budgetMs) {
  requireBuild(log);
  const cleanups = new CleanupStack(log);
  return { cleanups, control: new RunControl({ log, budgetMs, cleanups }) };
}

/** The --timeout / BENCH_TIMEOUT budget of a run in ms; `defaultSeconds` unless set. */
export function timeoutSetting(argv, defaultSeconds) {
  return intSetting(argv, 'timeout', 'BENCH_TIMEOUT', defaultSeconds, 10, 86_400) * 1000;
}

/** The exit status from what made the numbers invalid: 2 after logging them (with `suffix`) when there is any, else 0. */
export function verdict(log, problems, suffix = '') {
  if (problems.length === 0) return 0;
  log(`${problems.join('; ')}${suffix}`);
  return 2;
}

/** A failed run: says why, with the last lines each child printed. */
export function logFailure(log, error, processes) {
  log(`failed: ${error instanceof Error ? error.message : String(error)}`);
  logChildOutput(processes, log);
}

/** The end of every run, also after a failure: stops the watchdog, removes what the run created, exits (130 when stopped). */
export async function endRun({ control, cleanups }, exitCode) {
  control.done();
  await cleanups.run();
  process.exit(control.interrupted ? 130 : exitCode);
}

/**
 * POST JSON with a keep-alive agent; resolves `{status, body, ms}` (body null when not JSON); status 0 and `error`
 * (its code) on a network error or after `timeoutMs` (none when not given).
 */
export function postJson(agent, url, headers, body, { timeoutMs } = {}) {
  const payload = JSON.stringify(body);
  const started = performance.now();
  const failed = (error) => ({ status: 0, error: error.code ?? error.message, body: null, ms: performance.now() - started });
  return new Promise((resolve) => {
    const req = http.request(
      url,
      {
        method: 'POST',
        agent,
        headers: { ...headers, 'content-type': 'application/json', 'content-length': Buffer.byteLength(payload) },
        ...(timeoutMs ? { timeout: timeoutMs } : {}),
      },
      (res) => {
        let text = '';
        res.setEncoding('utf8');
        res.on('data', (chunk) => (text += chunk));
        res.on('end', () => {
          let parsed = null;
          try {
            parsed = JSON.parse(text);
          } catch {
            // not JSON
          }
          resolve({ status: res.statusCode, body: parsed, ms: performance.now() - started });
        });
        res.on('error', (error) => resolve(failed(error)));
      },
    );
    req.on('timeout', () => req.destroy(new Error('timeout')));
    req.on('error', (error) => resolve(failed(error)));
    req.end(payload);
  });
}

/** The caller's environment without anything libs/config reads, so a run does not depend on the caller's shell. */
export function inheritedEnv() {
  const env = { ...process.env };
  for (const name of CONFIG_VARIABLES) delete env[name];
  delete env.SHARD_LEASE_MS;
  return env;
}

// ---------------------------------------------------------------------------------------------------------------
// Run control: Ctrl-C / SIGTERM and a watchdog stop the run cooperatively (the script's finally runs the cleanups);
// a second signal, or a run still not finished 60 s after the watchdog fired, exits at once (children are SIGKILLed by
// the exit hooks of lib.mjs; the database and Redis keys may then stay behind, and the log says so).

export class RunControl {
  #onStop = new Set();
  interrupted = false;
  reason = '';

  constructor({ log, budgetMs, cleanups }) {
    this.log = log;
    this.cleanups = cleanups;
    this.abort = new AbortController();
    for (const signal of ['SIGINT', 'SIGTERM', 'SIGHUP']) {
      process.on(signal, () => {
        if (this.interrupted) {
          log(`${signal} again: exiting now; the database and Redis keys of this run may be left behind`);
          process.exit(130);
        }
        this.stop(`${signal}: stopping (again to exit at once)`);
      });
    }
    this.watchdog = setTimeout(() => {
      this.stop(`watchdog: still running after ${Math.round(budgetMs / 1000)} s, stopping`);
      const hard = setTimeout(async () => {
        log('watchdog: the run did not stop within 60 s; cleaning up and exiting');
        await Promise.race([cleanups.run(), sleep(30_000)]);
        process.exit(124);
      }, 60_000);
      hard.unref();
    }, budgetMs);
    this.watchdog.unref();
  }

  /** `fn` runs once when the run is stopped (e.g. to stop autocannon). Returns an unregister function. */
  onStop(fn) {
    this.#onStop.add(fn);
    return () => this.#onStop.delete(fn);
  }

  stop(reason) {
    if (this.interrupted) return;
    this.interrupted = true;
    this.reason = reason;
    this.log(reason);
    this.abort.abort(new Error(reason));
    for (const fn of this.#onStop) {
      try {
        fn();
      } catch {
        // best effort
      }
    }
  }

  check() {
    if (this.interrupted) throw new Error(`interrupted (${this.reason})`);
  }

  /** Sleeps, but wakes (and throws) when the run is stopped. */
  async sleep(ms) {
    this.check();
    await sleep(ms, undefined, { signal: this.abort.signal }).catch(() => {});
    this.check();
  }

  done() {
    clearTimeout(this.watchdog);
  }
}

/** Reads an integer setting from `--name=value` or the environment variable, with bounds. */
export function intSetting(argv, flag, envName, fallback, min, max) {
  const prefix = `--${flag}=`;
  const fromArgv = argv.find((arg) => arg.startsWith(prefix))?.slice(prefix.length);
  const raw = fromArgv ?? process.env[envName] ?? fallback;
  const value = Number(raw);
  if (!Number.isInteger(value) || value < min || value > max) {
    throw new Error(`--${flag} (or ${envName}) must be an integer from ${min} to ${max}, got ${JSON.stringify(String(raw))}`);
  }
  return value;
}

// ---------------------------------------------------------------------------------------------------------------
// The gateway: API + one worker

/**
 * Fresh database (migrated, session time zone UTC so DEFAULT CURRENT_TIMESTAMP and application-written timestamps
 * agree), Redis prefix, the built API and one worker. Waits until the worker holds every shard.
 */
export async function startGateway({
  cleanups,
  control,
  log,
  label,
  shardCount = 16,
  processes = [],
  env = {},
  privatePostgres = false,
  nodeArgs = [],
}) {
  // BENCH_CPU_PROF=<dir>: the API and the worker write V8 CPU profiles there when they stop (node --cpu-prof).
  // `nodeArgs` go to both processes as well (e.g. an inspector, see bench/inspector.mjs).
  const profileArgs = [...(process.env.BENCH_CPU_PROF ? ['--cpu-prof', `--cpu-prof-dir=${process.env.BENCH_CPU_PROF}`] : []), ...nodeArgs];
  const scratchDir = makeScratchDir(cleanups);
  const infra = await setUpInfrastructure({ cleanups, scratchDir, log, label, privatePostgres });
  control.check();
  log(await migrate(infra.databaseUrl));
  control.check();

  const db = new pg.Client({ connectionString: infra.databaseUrl });
  db.on('error', (error) => log(`bench database connection: ${error.message}`));
  await db.connect();
  cleanups.push('closed the bench database connection', () => db.end());
  const databaseName = services.databaseName(infra.databaseUrl);
  const { rows: tz } = await db.query('SHOW TimeZone');
  if (!/^(UTC|Etc\/UTC|GMT|Etc\/GMT|Z)$/i.test(tz[0].TimeZone)) {
    // accepted_at is DEFAULT CURRENT_TIMESTAMP into a timestamp without time zone: in the server's zone. Sandbox rows
    // may carry timestamps the application wrote in UTC. Our own database gets UTC, as the schema assumes.
    await db.query(`ALTER DATABASE "${databaseName}" SET timezone TO 'UTC'`);
    log(`the server's time zone is ${tz[0].TimeZone}; set this run's database to UTC`);
  }

  const adminKey = randomBytes(24).toString('base64url');
  const common = {
    ...inheritedEnv(),
    NODE_ENV: 'production',
    DATABASE_URL: infra.databaseUrl,
    REDIS_URL: infra.redisUrl,
    QUEUE_PREFIX: infra.queuePrefix,
    ADMIN_API_KEY: adminKey,
    ENCRYPTION_KEY: randomBytes(32).toString('base64'),
    SHARD_COUNT: String(shardCount),
    RATE_LIMIT_REQUESTS: '1000000', // the highest value libs/config accepts: the limiter runs but never refuses
    RATE_LIMIT_WINDOW_SECONDS: '1',
    MAX_INSTANCES_PER_CUSTOMER: '1000000', // benches put every instance under one customer
    LOG_LEVEL: 'warn',
    ...env,
  };
  const apiPort = await services.findFreePort();
  const api = startNode('api', [...profileArgs, apiMain], { cleanups, env: { ...common, PORT: String(apiPort), WORKER_HEALTH_PORT: '0' } });
  processes.push(api);
  const apiUrl = `http://127.0.0.1:${apiPort}`;
  let worker;
  let workerUrl;
  let died;
  for (let attempt = 1; ; attempt += 1) {
    const workerPort = await services.findFreePort();
    worker = startNode('worker', [...profileArgs, workerMain], {
      cleanups,
      env: { ...common, PORT: '0', WORKER_HEALTH_PORT: String(workerPort) },
    });
    processes.push(worker);
    workerUrl = `http://127.0.0.1:${workerPort}`;
    died = AbortSignal.any([api.died, worker.died, control.abort.signal]);
    await Promise.all([
      services.waitForHttp(`${apiUrl}/health/ready`, 60_000, { signal: died }),
      services.waitForHttp(`${workerUrl}/health/ready`, 60_000, { signal: died }),
    ]);
    const deadline = Date.now() + 30_000;
    for (;;) {
      const status = await request(`${workerUrl}/status`);
      if (status.status === 200 && status.body.shards?.length === shardCount) break;
      if (Date.now() > deadline)
        throw new Error(`the worker holds ${JSON.stringify(status.body.shards)} after 30 s, not all ${shardCount} shards`);
      died.throwIfAborted();
      await control.sleep(200);
    }
    // A shard whose start-up failed has no command listener: pairing its instances would time out (503). Seen here as
    // "ERR Can't execute 'info': only (P|S)SUBSCRIBE ... allowed in this context": the command subscriber's SUBSCRIBEs
    // race ioredis's connection handshake (ioredis issue #2037). A fresh worker usually starts cleanly.
    await control.sleep(500);
    const failedShards = worker.output().match(/listener failed for shard \d+[^"]*/g);
    if (!failedShards) break;
    log(`worker start-up: ${failedShards.length} shard listener(s) failed, e.g. "${failedShards[0]}"`);
    if (attempt === 3) throw new Error('the worker did not start cleanly 3 times in a row');
    log('restarting the worker');
    await worker.stop();
  }
  log(`API on ${apiUrl} (pid ${api.child.pid}), worker on ${workerUrl} (pid ${worker.child.pid}) holding all ${shardCount} shards`);
  return { infra, db, databaseName, adminKey, api, worker, apiUrl, workerUrl, died, common, profileArgs };
}

/**
 * Starts `count` more workers on the gateway and waits until the shards are spread over all of them (each holds at
 * least one). Returns `[{process, url}]` for the extra workers.
 */
export async function addWorkers(gateway, count, { cleanups, control, log, processes = [] }) {
  const extra = [];
  for (let n = 0; n < count; n += 1) {
    const port = await services.findFreePort();
    const worker = startNode(`worker ${n + 2}`, [...gateway.profileArgs, workerMain], {
      cleanups,
      env: { ...gateway.common, PORT: '0', WORKER_HEALTH_PORT: String(port) },
    });
    processes.push(worker);
    const url = `http://127.0.0.1:${port}`;
    await services.waitForHttp(`${url}/health/ready`, 60_000, { signal: AbortSignal.any([worker.died, control.abort.signal]) });
    extra.push({ process: worker, url });
  }
  const urls = [gateway.workerUrl, ...extra.map((worker) => worker.url)];
  const deadline = Date.now() + 90_000;
  for (;;) {
    const held = await Promise.all(urls.map(async (url) => (await request(`${url}/status`)).body?.shards?.length ?? 0));
    if (held.every((shards) => shards > 0) && held.reduce((sum, shards) => sum + shards, 0) >= 16) {
      log(`shards per worker: ${held.join(' / ')}`);
      break;
    }
    if (Date.now() > deadline) throw new Error(`shards not spread over ${urls.length} workers after 90 s: ${held.join(' / ')}`);
    await control.sleep(500);
  }
  return extra;
}

/** A customer with `count` sandbox instances, each paired and connected. Returns `[{id, apiKey, headers}]`. */
export async function pairedInstances(gateway, count, { control, log, concurrency = 10 }) {
  const { apiUrl, adminKey } = gateway;
  const customer = expectStatus(
    'POST /admin/customers',
    await request(`${apiUrl}/admin/customers`, { method: 'POST', headers: { 'X-Admin-Key': adminKey }, body: { name: 'bench' } }),
    201,
  );
  const instances = new Array(count);
  let next = 0;
  const pairOne = async (index) => {
    const created = expectStatus(
      'POST /account/instances',
      await request(`${apiUrl}/account/instances`, {
        method: 'POST',
        headers: { 'X-Api-Key': customer.apiKey },
        body: { name: `bench ${index + 1}`, sandbox: true },
      }),
      201,
    );
    const headers = { 'X-Api-Key': created.apiKey, 'X-Instance-Id': created.id };
    // The owning worker opens the new instance's session shortly after it is created; until then pairing is a 503.
    const deadline = Date.now() + 30_000;
    for (;;) {
      // The API gives the worker 10 s to answer a command, then answers 503 itself: wait a little longer than that.
      const paired = await request(`${apiUrl}/sandbox/pair`, { method: 'POST', headers, body: {}, timeoutMs: 20_000 });
      if (paired.status === 200) break;
      if (paired.status !== 503 || Date.now() > deadline) expectStatus(`POST /sandbox/pair (${created.id})`, paired, 200);
      await control.sleep(200);
    }
    for (;;) {
      const status = expectStatus('GET /session/status', await request(`${apiUrl}/session/status`, { headers }), 200);
      if (status.isConnected) break;
      if (Date.now() > deadline) throw new Error(`${created.id} paired but not connected after 60 s: ${JSON.stringify(status)}`);
      await control.sleep(100);
    }
    instances[index] = { id: created.id, apiKey: created.apiKey, headers };
  };
  await Promise.all(
    Array.from({ length: Math.min(concurrency, count) }, async () => {
      while (next < count) {
        const index = next;
        next += 1;
        control.check();
        await pairOne(index);
      }
    }),
  );
  log(`${count} sandbox instance(s) paired and connected`);
  return { customer, instances };
}

/**
 * A local webhook receiver (HTTP/1.1 keep-alive) that answers 200 after `delayMs`, counting requests in `stats.requests`;
 * closed by the cleanups. The worker is still running when the cleanups close it and keeps its connections busy with
 * retries, so they are closed too (a slow-receiver soak hung in close() otherwise, leaving its database behind).
 */
export async function startCountingReceiver(cleanups, { delayMs = 0 } = {}) {
  const stats = { requests: 0 };
  const server = http.createServer((req, res) => {
    req.resume();
    req.on('end', () => {
      const answer = () => {
        stats.requests += 1;
        res.writeHead(200, { 'content-type': 'application/json' }).end('{}');
      };
      if (delayMs > 0) setTimeout(answer, delayMs);
      else answer();
    });
  });
  server.keepAliveTimeout = 60_000;
  await new Promise((resolve) => server.listen(0, '127.0.0.1', resolve));
  const receiver = { server, stats, port: server.address().port };
  cleanups.push('stopped the receiver', () => closeReceiver(receiver));
  return receiver;
}

/** Closes a receiver's server and every connection the worker still holds to it. */
export function closeReceiver(receiver) {
  return new Promise((resolve) => {
    receiver.server.close(resolve);
    receiver.server.closeAllConnections();
  });
}

/** Points each instance's webhook at `receiverPort` (`/hook/<instance id>`), signed with `secretOf(instance)`. */
export async function pointWebhooks(gateway, instances, receiverPort, secretOf) {
  for (const instance of instances) {
    expectStatus(
      'PUT /instance/settings',
      await request(`${gateway.apiUrl}/instance/settings`, {
        method: 'PUT',
        headers: instance.headers,
        body: {
          useCustomDefaults: false,
          webhookUrl: `http://127.0.0.1:${receiverPort}/hook/${instance.id}`,
          eventSigningSecret: secretOf(instance),
        },
      }),
      204,
    );
  }
}

/** After a failure: the last lines each child printed (they run with LOG_LEVEL=warn, so this is warnings and errors). */
export function logChildOutput(processes, log, lines = 15) {
  for (const { name, output } of processes) {
    const text = output().trim();
    if (text) log(`last output of ${name}:\n${text.split('\n').slice(-lines).join('\n')}`);
  }
}

// ---------------------------------------------------------------------------------------------------------------
// CPU meter

const CLK_TCK = 100; // USER_HZ: 100 on every Linux architecture Node supports

function processTicks(pid) {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    return Number(fields[11]) + Number(fields[12]); // utime + stime (fields 14 and 15 of proc(5))
  } catch {
    return null;
  }
}

/** Nanoseconds the process's main thread has run, and has waited runnable for a CPU (/proc/<pid>/schedstat). */
function schedWaitNs(pid) {
  try {
    return Number(readFileSync(`/proc/${pid}/schedstat`, 'utf8').split(' ')[1]);
  } catch {
    return null;
  }
}

function machineTicks() {
  const [, ...values] = readFileSync('/proc/stat', 'utf8').split('\n')[0].trim().split(/\s+/);
  const numbers = values.map(Number);
  const idle = numbers[3] + (numbers[4] ?? 0); // idle + iowait
  const total = numbers.slice(0, 8).reduce((sum, value) => sum + value, 0); // without guest, counted in user already
  return { idle, total };
}

/**
 * CPU used by groups of processes during a window, in % of one CPU (200 % = two CPUs busy), from /proc/<pid>/stat
 * deltas sampled every `everyMs` (PIDs that come and go, like PostgreSQL backends, are picked up at the next sample).
 * Groups: fixed PIDs, or a function returning the current PIDs. `machine` is the whole machine's busy time from
 * /proc/stat; `other` = machine - all groups, i.e. whatever else ran (other users' builds and tests included).
 * `waiting` is the time the groups' main threads were runnable but had no CPU (/proc/<pid>/schedstat), in % of the
 * window: high values mean the machine, not the process, set the pace.
 */
export class CpuMeter {
  #groups;
  #last = new Map(); // `${group}:${pid}` -> ticks
  #used = new Map(); // group -> ticks
  #lastWait = new Map(); // `${group}:${pid}` -> ns runnable without a CPU
  #waited = new Map(); // group -> ns
  #timer;
  #started;
  #machine;
  #sampling = Promise.resolve();

  constructor(groups, { everyMs = 500 } = {}) {
    this.#groups = groups;
    this.everyMs = everyMs;
  }

  async #pidsOf(source) {
    if (typeof source === 'function') return (await source().catch(() => [])) ?? [];
    return [source].flat().filter(Boolean);
  }

  async #sample() {
    for (const [group, source] of Object.entries(this.#groups)) {
      for (const pid of await this.#pidsOf(source)) {
        const ticks = processTicks(pid);
        if (ticks === null) continue;
        const key = `${group}:${pid}`;
        const previous = this.#last.get(key);
        if (previous !== undefined) this.#used.set(group, (this.#used.get(group) ?? 0) + (ticks - previous));
        this.#last.set(key, ticks);
        const wait = schedWaitNs(pid);
        if (wait === null) continue;
        const previousWait = this.#lastWait.get(key);
        if (previousWait !== undefined) this.#waited.set(group, (this.#waited.get(group) ?? 0) + (wait - previousWait));
        this.#lastWait.set(key, wait);
      }
    }
  }

  async start() {
    this.#last.clear();
    this.#lastWait.clear();
    this.#used = new Map(Object.keys(this.#groups).map((group) => [group, 0]));
    this.#waited = new Map(Object.keys(this.#groups).map((group) => [group, 0]));
    await this.#sample();
    this.#started = performance.now();
    this.#machine = machineTicks();
    this.#timer = setInterval(() => {
      this.#sampling = this.#sampling.then(() => this.#sample()).catch(() => {});
    }, this.everyMs);
    this.#timer.unref();
  }

  /** Stops and returns `{seconds, cpus, groups: {name: %}, waiting: {name: %}, machine: %, other: %, loadAverage}`. */
  async stop() {
    clearInterval(this.#timer);
    await this.#sampling;
    await this.#sample();
    const seconds = (performance.now() - this.#started) / 1000;
    const machineNow = machineTicks();
    const cpuCount = cpus().length;
    const totalDelta = machineNow.total - this.#machine.total;
    const machine = totalDelta > 0 ? ((totalDelta - (machineNow.idle - this.#machine.idle)) / totalDelta) * 100 * cpuCount : NaN;
    const groups = Object.fromEntries([...this.#used].map(([group, ticks]) => [group, (ticks / CLK_TCK / seconds) * 100]));
    const ours = Object.values(groups).reduce((sum, value) => sum + value, 0);
    const waiting = Object.fromEntries([...this.#waited].map(([group, ns]) => [group, (ns / 1e9 / seconds) * 100]));
    return { seconds, cpus: cpuCount, groups, waiting, machine, other: Math.max(0, machine - ours), loadAverage: loadavg() };
  }
}

/**
 * What the PostgreSQL backends of this database are doing, sampled from pg_stat_activity every `everyMs` on its own
 * connection: per sample, each non-idle backend counts once under its state and wait event ("active: running",
 * "active: Lock/transactionid", "idle in transaction: Client/ClientRead", ...). `stop()` returns the average number of
 * backends in each, most first: e.g. 6 backends on average waiting for a row lock point at one hot row.
 */
export class PgActivitySampler {
  #tally = new Map();
  #samples = 0;
  #timer;
  #busy = false;
  #client;

  constructor(gateway, { everyMs = 100 } = {}) {
    this.gateway = gateway;
    this.everyMs = everyMs;
  }

  async start() {
    this.#client = new pg.Client({ connectionString: this.gateway.infra.databaseUrl });
    this.#client.on('error', () => {});
    await this.#client.connect();
    this.#timer = setInterval(() => void this.#sample(), this.everyMs);
    this.#timer.unref();
  }

  async #sample() {
    if (this.#busy) return;
    this.#busy = true;
    try {
      const { rows } = await this.#client.query(
        `SELECT state, wait_event_type, wait_event FROM pg_stat_activity
         WHERE datname = $1 AND pid <> pg_backend_pid() AND state IS NOT NULL AND state <> 'idle'`,
        [this.gateway.databaseName],
      );
      this.#samples += 1;
      for (const row of rows) {
        const key = `${row.state}: ${row.wait_event_type ? `${row.wait_event_type}/${row.wait_event}` : 'running'}`;
        this.#tally.set(key, (this.#tally.get(key) ?? 0) + 1);
      }
    } catch {
      // a missed sample
    } finally {
      this.#busy = false;
    }
  }

  async stop() {
    clearInterval(this.#timer);
    while (this.#busy) await sleep(10);
    await this.#client.end().catch(() => {});
    const samples = Math.max(1, this.#samples);
    return {
      samples: this.#samples,
      averageBackends: Object.fromEntries([...this.#tally].sort((a, b) => b[1] - a[1]).map(([key, count]) => [key, count / samples])),
    };
  }
}

/** One line: "active: Lock/transactionid 6.1, active: running 1.2, ..." (average backends in each state). */
export function activityLine(activity, limit = 5) {
  const entries = Object.entries(activity.averageBackends).slice(0, limit);
  if (entries.length === 0) return 'no backend busy in any sample';
  return entries.map(([key, value]) => `${key} ${value.toFixed(1)}`).join(', ');
}

/** Process groups for a gateway run: API, worker, the PostgreSQL backends serving this database, Redis, this process. */
export async function gatewayCpuGroups(gateway, extra = {}) {
  const { db, databaseName } = gateway;
  const { rows } = await db.query('SELECT pg_backend_pid() AS pid');
  const ownBackend = rows[0].pid;
  // Local servers only: their PIDs are visible in /proc (loopback servers, the usual case for a bench).
  let redisPids = [];
  try {
    const redis = new Redis(gateway.infra.redisUrl, { lazyConnect: true, maxRetriesPerRequest: 1, retryStrategy: () => null });
    redis.on('error', () => {});
    await redis.connect();
    const info = await redis.info('server');
    redis.disconnect();
    const pid = Number(/process_id:(\d+)/.exec(info)?.[1]);
    if (pid && existsSync(`/proc/${pid}`)) redisPids = [pid];
  } catch {
    // no Redis PID then
  }
  return {
    api: gateway.api.child.pid,
    worker: gateway.worker.child.pid,
    ...extra,
    [`postgres (backends of this db)`]: async () =>
      (await db.query('SELECT pid FROM pg_stat_activity WHERE datname = $1 AND pid <> $2', [databaseName, ownBackend])).rows.map(
        (row) => row.pid,
      ),
    // Checkpointer, WAL writer, autovacuum etc.: PostgreSQL processes without a database; shared with other users of the server.
    'postgres (server processes)': async () =>
      (await db.query('SELECT pid FROM pg_stat_activity WHERE datname IS NULL')).rows.map((row) => row.pid),
    redis: gateway.redisPids ?? redisPids,
    'bench (load generator)': process.pid,
  };
}

// ---------------------------------------------------------------------------------------------------------------
// Numbers and tables

/** Nearest-rank percentile of an ascending array. */
export function percentile(sorted, p) {
  if (sorted.length === 0) return NaN;
  const rank = Math.ceil((p / 100) * sorted.length);
  return sorted[Math.min(sorted.length, Math.max(1, rank)) - 1];
}

export const fixed = (value, digits = 0) => (Number.isFinite(value) ? value.toFixed(digits) : '-');

/** A plain-text table: first row the header; columns listed in `left` are left-aligned, the others right-aligned. */
export function table(rows, left = [0]) {
  const widths = rows[0].map((_, column) => Math.max(...rows.map((cells) => String(cells[column]).length)));
  const line = (cells) =>
    cells
      .map((cell, column) => (left.includes(column) ? String(cell).padEnd(widths[column]) : String(cell).padStart(widths[column])))
      .join('  ');
  return [line(rows[0]), widths.map((width) => '-'.repeat(width)).join('  '), ...rows.slice(1).map(line)].join('\n');
}

/**
 * A table of CpuMeter results, one column per phase (`phases`: {label: usage}), one row per process group; each cell
 * is "CPU % / waiting for a CPU %".
 */
export function cpuTable(phases) {
  const usages = Object.values(phases);
  const groups = Object.keys(usages[0].groups);
  const rows = [['process: CPU % / runnable but waiting for a CPU %', ...Object.keys(phases)]];
  for (const group of groups) rows.push([group, ...usages.map((u) => `${fixed(u.groups[group], 0)} / ${fixed(u.waiting[group], 0)}`)]);
  rows.push(['everything else on the machine (CPU %)', ...usages.map((u) => fixed(u.other, 0))]);
  rows.push([`machine total (CPU % of ${usages[0].cpus * 100})`, ...usages.map((u) => fixed(u.machine, 0))]);
  rows.push(['load average (1 min) at the end', ...usages.map((u) => u.loadAverage[0].toFixed(2))]);
  return table(rows);
}

export function environmentLine() {
  return `node ${process.version}, ${cpus().length} CPU (${cpus()[0]?.model?.trim()}), load average ${loadavg()
    .map((value) => value.toFixed(2))
    .join(' ')}`;
}
