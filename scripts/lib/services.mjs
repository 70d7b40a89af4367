// Helpers shared by scripts/test.mjs and scripts/dev.mjs: find or start PostgreSQL and Redis, manage throw-away
// databases and key prefixes, and make sure nothing we started outlives the calling process.
import { spawn, spawnSync } from 'node:child_process';
import { chownSync, closeSync, existsSync, mkdirSync, openSync, readFileSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { constants } from 'node:os';
import { delimiter, join, resolve } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import pg from 'pg';
import { Redis } from 'ioredis';

const noop = async () => {};

// ---------------------------------------------------------------------------------------------------------------
// Process-exit hooks

const exitHooks = new Set();
let exitHandlersInstalled = false;

function runExitHooks() {
  for (const hook of [...exitHooks]) {
    exitHooks.delete(hook);
    try {
      hook();
    } catch {
      // Best effort: the process is going away anyway.
    }
  }
}

function onSignal(signal) {
  // A script that listens for the signal itself shuts down gracefully and calls stop(); the 'exit' hook is only
  // the safety net then. Without such a listener, Node would die without running 'exit' handlers, so we do it.
  if (process.listenerCount(signal) > 1) return;
  runExitHooks();
  process.exit(128 + constants.signals[signal]);
}

/** Runs `hook` synchronously when the process exits or is killed by SIGINT/SIGTERM/SIGHUP. Returns an unregister function. */
export function onProcessExit(hook) {
  if (!exitHandlersInstalled) {
    exitHandlersInstalled = true;
    process.on('exit', runExitHooks);
    for (const signal of ['SIGINT', 'SIGTERM', 'SIGHUP']) process.on(signal, onSignal);
  }
  exitHooks.add(hook);
  return () => exitHooks.delete(hook);
}

// ---------------------------------------------------------------------------------------------------------------
// Ports, URLs, HTTP

export function findFreePort(host = '127.0.0.1') {
  return new Promise((resolvePort, reject) => {
    const server = createServer();
    server.unref();
    server.once('error', reject);
    server.listen(0, host, () => {
      const { port } = server.address();
      server.close(() => resolvePort(port));
    });
  });
}

function canListen(port, host) {
  return new Promise((resolveFree) => {
    const server = createServer();
    server.unref();
    server.once('error', () => resolveFree(false));
    server.listen({ port, host, exclusive: true }, () => server.close(() => resolveFree(true)));
  });
}

/** True when nothing listens on `port`, neither on all interfaces nor on loopback. */
export async function isPortFree(port) {
  return (await canListen(port, undefined)) && (await canListen(port, '127.0.0.1'));
}

/** The same connection URL pointing at another database. */
export function withDatabase(url, name) {
  const parsed = new URL(url);
  parsed.pathname = `/${encodeURIComponent(name)}`;
  return parsed.toString();
}

export function databaseName(url) {
  return decodeURIComponent(new URL(url).pathname.slice(1));
}

/** The URL without its password, for log lines. */
export function redactUrl(url) {
  try {
    const parsed = new URL(url);
    if (parsed.password) parsed.password = '***';
    return parsed.toString();
  } catch {
    return '(unparseable url)';
  }
}

/** Polls `url` until it answers 2xx. Rejects after `timeoutMs`, or as soon as `signal` aborts. */
export async function waitForHttp(url, timeoutMs = 60_000, { signal } = {}) {
  const deadline = Date.now() + timeoutMs;
  let last = 'no answer';
  while (Date.now() < deadline) {
    signal?.throwIfAborted();
    const attempt = AbortSignal.timeout(2_000);
    try {
      const response = await fetch(url, { signal: signal ? AbortSignal.any([signal, attempt]) : attempt });
      if (response.ok) return response;
      last = `HTTP ${response.status}`;
    } catch (error) {
      signal?.throwIfAborted();
      last = error.cause?.code ?? error.cause?.message ?? error.message;
    }
    await sleep(250);
  }
  throw new Error(`${url} not ready after ${Math.round(timeoutMs / 1000)}s (last: ${last})`);
}

// ---------------------------------------------------------------------------------------------------------------
// PostgreSQL

function quoteIdent(name) {
  if (!/^[A-Za-z0-9_]+$/.test(name)) throw new Error(`refusing unusual database name ${JSON.stringify(name)}`);
  return `"${name}"`;
}

async function withClient(url, fn, timeoutMs = 5_000) {
  const client = new pg.Client({ connectionString: url, connectionTimeoutMillis: timeoutMs });
  client.on('error', () => {});
  await client.connect();
  try {
    return await fn(client);
  } finally {
    await client.end().catch(() => {});
  }
}

/** 'ok', 'no-database' (the server answers but the database does not exist) or 'down'. */
export async function probePostgres(url, timeoutMs = 2_000) {
  try {
    await withClient(url, (client) => client.query('SELECT 1'), timeoutMs);
    return 'ok';
  } catch (error) {
    return error.code === '3D000' ? 'no-database' : 'down';
  }
}

/** Creates `name`, empty or as a copy of `template` (which must have no open connection). */
export async function createDatabase(serverUrl, name, template = undefined) {
  const copy = template ? ` TEMPLATE ${quoteIdent(template)}` : '';
  await withClient(serverUrl, (client) => client.query(`CREATE DATABASE ${quoteIdent(name)}${copy}`));
}

export async function dropDatabase(serverUrl, name) {
  await withClient(serverUrl, (client) => client.query(`DROP DATABASE IF EXISTS ${quoteIdent(name)} WITH (FORCE)`));
}

/** Drops every database whose name starts with `prefix` (a test run's template, its copies and scratch databases). */
export async function dropDatabasesStartingWith(serverUrl, prefix) {
  if (!prefix || prefix.length < 8) throw new Error(`refusing to drop databases for the prefix ${JSON.stringify(prefix)}`);
  const { rows } = await withClient(serverUrl, (client) =>
    client.query('SELECT datname FROM pg_database WHERE starts_with(datname, $1) ORDER BY datname DESC', [prefix]),
  );
  // Longest names first: the template goes last, after the copies made from it.
  for (const { datname } of rows) await dropDatabase(serverUrl, datname);
  return rows.length;
}

/** Creates the database named in `url` when its server answers but the database is missing. True when created. */
export async function ensureDatabaseExists(url) {
  if ((await probePostgres(url)) !== 'no-database') return false;
  await createDatabase(withDatabase(url, 'postgres'), databaseName(url));
  return true;
}

const isRoot = process.getuid?.() === 0;

// initdb and postgres refuse to run as root.
function asPostgres(command, args) {
  return isRoot ? ['runuser', ['-u', 'postgres', '--', command, ...args]] : [command, args];
}

// Debian keeps the server binaries outside PATH, in /usr/lib/postgresql/<version>/bin.
function pgBinary(command) {
  const onPath = (process.env.PATH ?? '').split(delimiter).some((dir) => existsSync(join(dir, command)));
  if (onPath || !existsSync('/usr/lib/postgresql')) return command;
  const versions = readdirSync('/usr/lib/postgresql').sort((a, b) => Number(b) - Number(a));
  const found = versions.map((version) => join('/usr/lib/postgresql', version, 'bin', command)).find((path) => existsSync(path));
  return found ?? command;
}

function runPg(command, args) {
  const [file, argv] = asPostgres(pgBinary(command), args);
  const result = spawnSync(file, argv, { encoding: 'utf8' });
  if (result.error?.code === 'ENOENT') throw new Error(`${file} not found on PATH (needed for a private PostgreSQL)`);
  return result;
}

function tail(file, lines = 15) {
  return existsSync(file) ? readFileSync(file, 'utf8').trimEnd().split('\n').slice(-lines).join('\n') : '';
}

function prepareDataDir(dataDir) {
  mkdirSync(dataDir, { recursive: true });
  if (!isRoot) return;
  const ids = spawnSync('id', ['-u', 'postgres'], { encoding: 'utf8' });
  const gids = spawnSync('id', ['-g', 'postgres'], { encoding: 'utf8' });
  if (ids.status !== 0) throw new Error('running as root but there is no "postgres" user to run a private PostgreSQL as');
  chownSync(dataDir, Number(ids.stdout), Number(gids.stdout));
  if (runPg('test', ['-w', dataDir]).status !== 0) {
    throw new Error(`the postgres user cannot write ${dataDir}; make its parent directories world-searchable (chmod o+x)`);
  }
}

function initCluster(dataDir, log) {
  if (existsSync(join(dataDir, 'PG_VERSION'))) return;
  log(`initialising a private PostgreSQL cluster in ${dataDir}`);
  prepareDataDir(dataDir);
  const result = runPg('initdb', ['-D', dataDir, '--auth=trust', '-U', 'postgres', '-E', 'UTF8', '--no-sync']);
  if (result.status !== 0) throw new Error(`initdb failed:\n${result.stderr || result.stdout}`);
}

function runningClusterPort(dataDir) {
  if (runPg('pg_ctl', ['status', '-D', dataDir]).status !== 0) return null;
  return Number(readFileSync(join(dataDir, 'postmaster.pid'), 'utf8').split('\n')[3]);
}

function shellQuote(value) {
  return `'${value.replace(/'/g, `'\\''`)}'`;
}

function stopCluster(dataDir) {
  return runPg('pg_ctl', ['stop', '-D', dataDir, '-m', 'fast', '-w']);
}

async function startCluster(dataDir, log, fsync) {
  initCluster(dataDir, log);
  const existing = runningClusterPort(dataDir);
  if (existing) {
    // Left running by an earlier run that was killed, or used by a concurrent one: share it, leave it running.
    log(`reusing the private PostgreSQL already running in ${dataDir} on port ${existing}`);
    return { url: `postgresql://postgres@127.0.0.1:${existing}/postgres`, stop: noop };
  }
  const port = await findFreePort();
  // Unix socket paths are limited to ~107 bytes; TCP alone is enough for us when the data dir is deep.
  const socketDir = join(dataDir, '.s.PGSQL.00000').length < 100 ? dataDir : '';
  const options = `-p ${port} -c listen_addresses=127.0.0.1 -c unix_socket_directories=${shellQuote(socketDir)} -c fsync=${fsync ? 'on' : 'off'}`;
  const logFile = join(dataDir, 'server.log');
  log(`starting a private PostgreSQL in ${dataDir} on port ${port}`);
  const result = runPg('pg_ctl', ['start', '-D', dataDir, '-w', '-t', '60', '-l', logFile, '-o', options]);
  if (result.status !== 0) throw new Error(`pg_ctl start failed:\n${result.stderr || result.stdout}\n${tail(logFile)}`);
  const unregister = onProcessExit(() => stopCluster(dataDir));
  const stop = async () => {
    unregister();
    stopCluster(dataDir);
  };
  return { url: `postgresql://postgres@127.0.0.1:${port}/postgres`, stop };
}

/**
 * Uses the first of `url` (a URL or a list of candidates) whose server answers; otherwise starts a private cluster in
 * `dataDir` (initialised once, reused afterwards). The returned `stop()` stops only what this call started.
 * `fsync: false` trades crash safety for speed, which suits throw-away test clusters.
 */
export async function ensurePostgres({ url, dataDir, log = () => {}, fsync = true }) {
  for (const candidate of [url].flat().filter(Boolean)) {
    if ((await probePostgres(candidate)) !== 'down') {
      log(`using PostgreSQL at ${redactUrl(candidate)}`);
      return { url: candidate, stop: noop, private: false };
    }
  }
  if (!dataDir) throw new Error('PostgreSQL is not reachable and no dataDir was given for a private cluster');
  return { ...(await startCluster(resolve(dataDir), log, fsync)), private: true };
}

// ---------------------------------------------------------------------------------------------------------------
// Redis

function connectRedis(url, timeoutMs) {
  const redis = new Redis(url, {
    lazyConnect: true,
    connectTimeout: timeoutMs,
    maxRetriesPerRequest: 1,
    retryStrategy: () => null,
    enableOfflineQueue: false,
  });
  redis.on('error', () => {});
  return redis;
}

export async function redisReachable(url, timeoutMs = 1_500) {
  const redis = connectRedis(url, timeoutMs);
  try {
    await redis.connect();
    return (await redis.ping()) === 'PONG';
  } catch {
    return false;
  } finally {
    redis.disconnect();
  }
}

/**
 * Deletes every key starting with `prefix` (SCAN + UNLINK in batches). Returns how many were deleted. `nodes` (host:port
 * strings or {host, port}) names a cluster's nodes: each master is scanned for its own keys, and keys are unlinked one
 * per command there (a cluster refuses multi-key commands over several slots). `redisUrl` then only gives credentials.
 */
export async function deleteRedisPrefix(redisUrl, prefix, nodes = undefined) {
  // An empty prefix would match the whole database.
  if (!prefix || prefix.length < 3) throw new Error(`refusing to delete Redis keys for the prefix ${JSON.stringify(prefix)}`);
  const pattern = `${prefix.replace(/[*?[\]\\]/g, '\\$&')}*`;
  const targets = nodes?.length ? nodes.map((node) => nodeUrl(redisUrl, node)) : [redisUrl];
  let deleted = 0;
  for (const target of targets) {
    const redis = connectRedis(target, 5_000);
    await redis.connect();
    try {
      if (nodes?.length && (await redis.role())[0] !== 'master') continue;
      let cursor = '0';
      do {
        const [next, keys] = await redis.scan(cursor, 'MATCH', pattern, 'COUNT', 1000);
        cursor = next;
        if (keys.length === 0) continue;
        if (!nodes?.length) deleted += await redis.unlink(...keys);
        else {
          const pipeline = redis.pipeline();
          for (const key of keys) pipeline.unlink(key);
          for (const [error, removed] of (await pipeline.exec()) ?? []) if (!error) deleted += removed;
        }
      } while (cursor !== '0');
    } finally {
      redis.disconnect();
    }
  }
  return deleted;
}

/** `url` (scheme, user, password) pointed at another node. */
function nodeUrl(url, node) {
  const { host, port } =
    typeof node === 'string' ? { host: node.slice(0, node.lastIndexOf(':')), port: node.slice(node.lastIndexOf(':') + 1) } : node;
  const parsed = new URL(url);
  parsed.hostname = host;
  parsed.port = String(port);
  parsed.pathname = '';
  return parsed.toString();
}

function findRedisServer() {
  const dirs = [...(process.env.PATH ?? '').split(delimiter), '/usr/bin', '/usr/local/bin', '/usr/sbin'];
  const found = dirs
    .filter(Boolean)
    .map((dir) => join(dir, 'redis-server'))
    .find((file) => existsSync(file));
  if (!found) throw new Error('redis-server not found and no Redis is reachable: install it with `apt-get install -y redis-server`');
  return found;
}

function waitForExit(child, timeoutMs) {
  if (child.exitCode !== null || child.signalCode !== null) return Promise.resolve(true);
  return new Promise((resolveExit) => {
    const timer = setTimeout(() => resolveExit(false), timeoutMs);
    child.once('exit', () => {
      clearTimeout(timer);
      resolveExit(true);
    });
  });
}

async function startRedis(dir, log) {
  const binary = findRedisServer();
  mkdirSync(dir, { recursive: true });
  const port = await findFreePort();
  const logFile = join(dir, 'redis.log');
  const out = openSync(logFile, 'a');
  log(`starting a private Redis in ${dir} on port ${port}`);
  const args = ['--port', String(port), '--bind', '127.0.0.1', '--save', '', '--appendonly', 'no', '--dir', dir, '--daemonize', 'no'];
  // Own process group: a Ctrl-C in the terminal reaches only the script, which then shuts things down in order.
  const child = spawn(binary, args, { stdio: ['ignore', out, out], detached: true });
  closeSync(out);
  const unregister = onProcessExit(() => child.kill('SIGKILL'));
  const url = `redis://127.0.0.1:${port}`;
  const deadline = Date.now() + 15_000;
  while (!(await redisReachable(url, 500))) {
    if (child.exitCode !== null || Date.now() > deadline) {
      child.kill('SIGKILL');
      unregister();
      throw new Error(`private redis-server did not start:\n${tail(logFile)}`);
    }
    await sleep(100);
  }
  const stop = async () => {
    unregister();
    child.kill('SIGTERM');
    if (!(await waitForExit(child, 5_000))) child.kill('SIGKILL');
  };
  return { url, stop };
}

/** Like ensurePostgres: the first reachable of `url` (a URL or a list), else a private redis-server working in `dir`. */
export async function ensureRedis({ url, dir, log = () => {} }) {
  for (const candidate of [url].flat().filter(Boolean)) {
    if (await redisReachable(candidate)) {
      log(`using Redis at ${redactUrl(candidate)}`);
      return { url: candidate, stop: noop, private: false };
    }
  }
  if (!dir) throw new Error('Redis is not reachable and no dir was given for a private redis-server');
  return { ...(await startRedis(resolve(dir), log)), private: true };
}

// ---------------------------------------------------------------------------------------------------------------
// PgBouncer

function findPgBouncer() {
  const dirs = [...(process.env.PATH ?? '').split(delimiter), '/usr/sbin', '/usr/bin', '/usr/local/bin'];
  return dirs
    .filter(Boolean)
    .map((dir) => join(dir, 'pgbouncer'))
    .find((file) => existsSync(file));
}

/**
 * Debian's `pgbouncer` in transaction-pooling mode on a free loopback port in front of the PostgreSQL at `serverUrl`
 * (trust auth, every database passed through), with its config, log and pid in `dir`. PgBouncer refuses to run as
 * root, so as root it runs as the postgres user. Resolves to null when pgbouncer is not installed. `url` is the same
 * server URL through the pooler; `stop()` stops it (it is also killed when this process exits).
 */
export async function startPgBouncer({ serverUrl, dir, log = () => {} }) {
  const binary = findPgBouncer();
  if (!binary) return null;
  const server = new URL(serverUrl);
  rmSync(dir, { recursive: true, force: true });
  prepareDataDir(dir);
  const port = await findFreePort();
  const user = decodeURIComponent(server.username || 'postgres');
  writeFileSync(join(dir, 'userlist.txt'), `"${user}" ""\n`);
  writeFileSync(
    join(dir, 'pgbouncer.ini'),
    [
      '[databases]',
      `* = host=${server.hostname} port=${server.port || 5432}`,
      '[pgbouncer]',
      'listen_addr = 127.0.0.1',
      `listen_port = ${port}`,
      'unix_socket_dir =',
      'auth_type = trust',
      `auth_file = ${join(dir, 'userlist.txt')}`,
      'pool_mode = transaction',
      'max_client_conn = 2000',
      'default_pool_size = 20',
      'max_db_connections = 40',
      // node-postgres sends none of these, but psql and other clients do; PgBouncer refuses unknown ones.
      'ignore_startup_parameters = extra_float_digits,options',
      `logfile = ${join(dir, 'pgbouncer.log')}`,
      'log_connections = 0',
      'log_disconnections = 0',
      '',
    ].join('\n'),
  );
  const [file, argv] = asPostgres(binary, [join(dir, 'pgbouncer.ini')]);
  log(`starting PgBouncer (transaction pooling) on port ${port} in front of ${server.hostname}:${server.port || 5432}`);
  const child = spawn(file, argv, { stdio: 'ignore', detached: true });
  const unregister = onProcessExit(() => child.kill('SIGKILL'));
  const url = `postgresql://${encodeURIComponent(user)}@127.0.0.1:${port}/postgres`;
  const deadline = Date.now() + 15_000;
  while ((await probePostgres(url, 1_000)) !== 'ok') {
    if (child.exitCode !== null || Date.now() > deadline) {
      child.kill('SIGKILL');
      unregister();
      const logged = tail(join(dir, 'pgbouncer.log'));
      rmSync(dir, { recursive: true, force: true });
      throw new Error(`pgbouncer did not start:\n${logged}`);
    }
    await sleep(100);
  }
  const stop = async () => {
    unregister();
    child.kill('SIGTERM');
    if (!(await waitForExit(child, 5_000))) child.kill('SIGKILL');
    rmSync(dir, { recursive: true, force: true });
  };
  return { url, stop };
}

// ---------------------------------------------------------------------------------------------------------------
// Redis topologies for tests and benches: a Cluster and a Sentinel group, on loopback, from Debian's packages

function findBinary(name, hint) {
  const dirs = [...(process.env.PATH ?? '').split(delimiter), '/usr/bin', '/usr/local/bin', '/usr/sbin'];
  const found = dirs
    .filter(Boolean)
    .map((dir) => join(dir, name))
    .find((file) => existsSync(file));
  if (!found) throw new Error(`${name} not found: install it with \`apt-get install -y ${hint}\``);
  return found;
}

/** One server process of a topology: its port and a way to kill it as a crash would. */
async function spawnRedisProcess(binary, args, dir, label) {
  mkdirSync(dir, { recursive: true });
  const logFile = join(dir, `${label}.log`);
  const out = openSync(logFile, 'a');
  const child = spawn(binary, args, { stdio: ['ignore', out, out], detached: true, cwd: dir });
  closeSync(out);
  const unregister = onProcessExit(() => child.kill('SIGKILL'));
  const exited = new Promise((resolveExit) => child.once('exit', () => resolveExit()));
  return {
    child,
    logFile,
    /** SIGKILL: the node vanishes without a goodbye, like a crashed machine. */
    kill: async () => {
      if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
      await exited;
      unregister();
    },
    stop: async () => {
      if (child.exitCode === null && child.signalCode === null) child.kill('SIGTERM');
      if (!(await waitForExit(child, 5_000))) child.kill('SIGKILL');
      await exited;
      unregister();
    },
  };
}

async function waitFor(what, check, timeoutMs, logFiles = []) {
  const deadline = Date.now() + timeoutMs;
  let last;
  while (Date.now() < deadline) {
    try {
      if (await check()) return;
    } catch (error) {
      last = error;
    }
    await sleep(100);
  }
  const logs = logFiles.map((file) => `--- ${file}\n${tail(file)}`).join('\n');
  throw new Error(`${what} not reached in ${timeoutMs} ms${last ? ` (${last.message})` : ''}\n${logs}`);
}

async function onNode(port, fn) {
  const redis = connectRedis(`redis://127.0.0.1:${port}`, 1_000);
  try {
    await redis.connect();
    return await fn(redis);
  } finally {
    redis.disconnect();
  }
}

/**
 * A Redis Cluster on loopback: `masters` masters with `replicasPerMaster` replicas each (default 3 + 3), free ports
 * (client and bus), one working directory per node under `dir`, no persistence, a 2 s node timeout so a failover takes
 * a few seconds. Resolves once every node sees `cluster_state:ok` with all 16,384 slots. `stop()` ends every node and
 * removes `dir`; it also runs if the calling process exits.
 */
export async function startRedisCluster({ dir, log = () => {}, masters = 3, replicasPerMaster = 1, nodeTimeoutMs = 2_000 }) {
  const binary = findBinary('redis-server', 'redis-server');
  const cli = findBinary('redis-cli', 'redis-tools');
  rmSync(dir, { recursive: true, force: true });
  mkdirSync(dir, { recursive: true });
  const count = masters * (1 + replicasPerMaster);
  const nodes = [];
  const stopAll = async () => {
    await Promise.all(nodes.map((node) => node.process.stop()));
    rmSync(dir, { recursive: true, force: true });
  };
  const unregister = onProcessExit(() => rmSync(dir, { recursive: true, force: true }));
  try {
    const ports = [];
    while (ports.length < count * 2) {
      const port = await findFreePort();
      if (!ports.includes(port)) ports.push(port);
    }
    for (let index = 0; index < count; index += 1) {
      const port = ports[index];
      const busPort = ports[count + index];
      const nodeDir = join(dir, `node-${port}`);
      const args = [
        '--port',
        String(port),
        '--cluster-port',
        String(busPort),
        '--bind',
        '127.0.0.1',
        '--daemonize',
        'no',
        '--cluster-enabled',
        'yes',
        '--cluster-config-file',
        'nodes.conf',
        '--cluster-node-timeout',
        String(nodeTimeoutMs),
        '--save',
        '',
        '--appendonly',
        'no',
        '--dir',
        nodeDir,
      ];
      mkdirSync(nodeDir, { recursive: true });
      nodes.push({ host: '127.0.0.1', port, process: await spawnRedisProcess(binary, args, nodeDir, 'redis') });
    }
    const logFiles = nodes.map((node) => node.process.logFile);
    await waitFor(
      'every cluster node answering',
      async () => (await Promise.all(nodes.map((node) => redisReachable(`redis://127.0.0.1:${node.port}`, 500)))).every(Boolean),
      15_000,
      logFiles,
    );
    const created = spawnSync(
      cli,
      [
        '--cluster',
        'create',
        ...nodes.map((node) => `127.0.0.1:${node.port}`),
        '--cluster-replicas',
        String(replicasPerMaster),
        '--cluster-yes',
      ],
      { encoding: 'utf8', timeout: 30_000 },
    );
    if (created.status !== 0) throw new Error(`redis-cli --cluster create failed:\n${created.stdout}\n${created.stderr}`);
    await waitFor(
      'cluster_state:ok on every node',
      async () =>
        (
          await Promise.all(
            nodes.map((node) =>
              onNode(node.port, async (redis) => {
                const info = await redis.cluster('INFO');
                return (
                  info.includes('cluster_state:ok') &&
                  info.includes('cluster_slots_ok:16384') &&
                  info.includes(`cluster_known_nodes:${count}`)
                );
              }),
            ),
          )
        ).every(Boolean),
      20_000,
      logFiles,
    );
    log(`started a Redis Cluster of ${count} nodes on ports ${nodes.map((node) => node.port).join(', ')}`);
  } catch (error) {
    await stopAll();
    unregister();
    throw error;
  }
  return {
    nodes: nodes.map(({ host, port }) => ({ host, port })),
    pids: nodes.map((node) => node.process.child.pid),
    /** The nodes that are masters now, as the cluster itself says. */
    masters: async () => {
      const alive = [];
      for (const node of nodes) {
        if (node.process.child.exitCode !== null || node.process.child.signalCode !== null) continue;
        try {
          if ((await onNode(node.port, (redis) => redis.role()))[0] === 'master') alive.push({ host: node.host, port: node.port });
        } catch {
          // a dead or unreachable node is no master
        }
      }
      return alive;
    },
    /** SIGKILLs the node on `port`. */
    kill: async (port) => nodes.find((node) => node.port === port)?.process.kill(),
    stop: async () => {
      await stopAll();
      unregister();
    },
  };
}

/**
 * A Sentinel group on loopback: one master, one replica and three sentinels (quorum 2, a master is down after 1 s, so a
 * failover takes a few seconds), free ports, configs and data under `dir`. Resolves once every sentinel knows the
 * master, the replica and the two other sentinels. `stop()` ends every process and removes `dir`.
 */
export async function startRedisSentinelGroup({ dir, log = () => {}, masterName = 'mgw-master', downAfterMs = 1_000 }) {
  const server = findBinary('redis-server', 'redis-server');
  const sentinelBinary = findBinary('redis-sentinel', 'redis-sentinel');
  rmSync(dir, { recursive: true, force: true });
  mkdirSync(dir, { recursive: true });
  const processes = [];
  const stopAll = async () => {
    await Promise.all(processes.map((entry) => entry.process.stop()));
    rmSync(dir, { recursive: true, force: true });
  };
  const unregister = onProcessExit(() => rmSync(dir, { recursive: true, force: true }));
  let dataNodes;
  let sentinels;
  try {
    const ports = [];
    while (ports.length < 5) {
      const port = await findFreePort();
      if (!ports.includes(port)) ports.push(port);
    }
    const [masterPort, replicaPort, ...sentinelPorts] = ports;
    for (const [port, role] of [
      [masterPort, 'master'],
      [replicaPort, 'replica'],
    ]) {
      const nodeDir = join(dir, `${role}-${port}`);
      mkdirSync(nodeDir, { recursive: true });
      const args = [
        '--port',
        String(port),
        '--bind',
        '127.0.0.1',
        '--daemonize',
        'no',
        '--save',
        '',
        '--appendonly',
        'no',
        '--dir',
        nodeDir,
      ];
      if (role === 'replica') args.push('--replicaof', '127.0.0.1', String(masterPort));
      processes.push({ port, process: await spawnRedisProcess(server, args, nodeDir, 'redis') });
    }
    dataNodes = [masterPort, replicaPort];
    await waitFor(
      'the replica in sync',
      () => onNode(replicaPort, async (redis) => (await redis.info('replication')).includes('master_link_status:up')),
      15_000,
      processes.map((entry) => entry.process.logFile),
    );
    for (const port of sentinelPorts) {
      const sentinelDir = join(dir, `sentinel-${port}`);
      mkdirSync(sentinelDir, { recursive: true });
      const file = join(sentinelDir, 'sentinel.conf');
      writeFileSync(
        file,
        [
          `port ${port}`,
          'bind 127.0.0.1',
          'daemonize no',
          `dir ${sentinelDir}`,
          `sentinel monitor ${masterName} 127.0.0.1 ${masterPort} 2`,
          `sentinel down-after-milliseconds ${masterName} ${downAfterMs}`,
          `sentinel failover-timeout ${masterName} 10000`,
          `sentinel parallel-syncs ${masterName} 1`,
          '',
        ].join('\n'),
      );
      processes.push({ port, process: await spawnRedisProcess(sentinelBinary, [file], sentinelDir, 'sentinel') });
    }
    sentinels = sentinelPorts;
    await waitFor(
      'every sentinel knowing the master, its replica and the other sentinels',
      async () =>
        (
          await Promise.all(
            sentinelPorts.map((port) =>
              onNode(port, async (redis) => {
                const master = await redis.call('SENTINEL', 'MASTER', masterName);
                const fields = Object.fromEntries(
                  master.reduce((pairs, value, index) => (index % 2 ? pairs : [...pairs, [value, master[index + 1]]]), []),
                );
                return fields['num-slaves'] === '1' && fields['num-other-sentinels'] === '2' && fields.flags === 'master';
              }),
            ),
          )
        ).every(Boolean),
      20_000,
      processes.map((entry) => entry.process.logFile),
    );
    log(`started a Sentinel group: master ${masterPort}, replica ${replicaPort}, sentinels ${sentinelPorts.join(', ')}`);
  } catch (error) {
    await stopAll();
    unregister();
    throw error;
  }
  return {
    masterName,
    sentinels: sentinels.map((port) => ({ host: '127.0.0.1', port })),
    dataNodes: dataNodes.map((port) => ({ host: '127.0.0.1', port })),
    /** The master's address as the sentinels report it now. */
    master: () =>
      onNode(sentinels[0], async (redis) => {
        const [host, port] = await redis.call('SENTINEL', 'GET-MASTER-ADDR-BY-NAME', masterName);
        return { host, port: Number(port) };
      }),
    /** SIGKILLs the data node on `port`. */
    kill: async (port) => processes.find((entry) => entry.port === port)?.process.kill(),
    stop: async () => {
      await stopAll();
      unregister();
    },
  };
}
