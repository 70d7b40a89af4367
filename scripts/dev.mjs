#!/usr/bin/env node
// `npm run dev`: from a fresh clone to a running API and worker with demo data, using whatever PostgreSQL and Redis
// this machine has (or private ones under .dev/). State lives in .dev/ (or $DEV_STATE_DIR):
//   config.json      ADMIN_API_KEY and ENCRYPTION_KEY, generated once so encrypted rows stay readable
//   demo.json        demo customer and sandbox instance with their keys
//   last-start.json  how long the last cold start took
//   pg/, redis/      private servers, only when none was reachable
// The demo instance is paired on the sandbox network, webhooks may target loopback (dev only), and the banner prints a
// first send and a look at the sandbox outbox, ready to paste.
// DEV_EXIT_WHEN_READY=1 runs the banner's commands as printed, then stops everything (CI uses it to prove the cold
// start and the first send).
// With DEV_STATE_DIR set, the run is isolated from a developer's: its own database and queue prefix on shared servers,
// both removed at exit.
import { spawn, spawnSync } from 'node:child_process';
import { createHash, randomBytes } from 'node:crypto';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { createInterface } from 'node:readline';

const root = resolve(import.meta.dirname, '..');
const API_MAIN = 'dist/apps/api/src/main.js';
const WORKER_MAIN = 'dist/apps/worker/src/main.js';
const CLI = 'dist/apps/api/src/cli.js';
const stateDir = resolve(root, process.env.DEV_STATE_DIR || '.dev');
const isolated = Boolean(process.env.DEV_STATE_DIR);
const isolationId = createHash('sha256').update(stateDir).digest('hex').slice(0, 8);
const exitWhenReady = process.env.DEV_EXIT_WHEN_READY === '1';
const color = Boolean(process.stdout.isTTY) && !process.env.NO_COLOR;
const paint = (code, text) => (color ? `\x1b[${code}m${text}\x1b[0m` : text);
const log = (message) => console.log(`${paint('2', 'dev:')} ${message}`);

// Before importing the helpers: they need pg and ioredis.
if (!existsSync(join(root, 'node_modules'))) {
  const command = existsSync(join(root, 'package-lock.json')) ? 'ci' : 'install';
  log(`installing dependencies (npm ${command})`);
  const result = spawnSync('npm', [command], { cwd: root, stdio: 'inherit' });
  if (result.status !== 0) process.exit(result.status ?? 1);
}
const services = await import('./lib/services.mjs');
const { buildIsFresh, recordBuild, sourceFingerprint } = await import('./lib/build-freshness.mjs');
const { formatDevLogLine } = await import('./lib/dev-log.mjs');
const { ensureDatabaseExists, ensurePostgres, ensureRedis, probePostgres, redactUrl, withDatabase } = services;

/** Loopback, by name and address: what a local webhook receiver listens on. */
const DEV_WEBHOOK_HOSTS = 'localhost,127.0.0.1,::1';

const cleanups = [];
const apps = [];
let shuttingDown = false;

// ---------------------------------------------------------------------------------------------------------------
// Small helpers

function readJson(file) {
  return existsSync(file) ? JSON.parse(readFileSync(file, 'utf8')) : null;
}

function writeJson(file, value) {
  mkdirSync(stateDir, { recursive: true });
  writeFileSync(file, `${JSON.stringify(value, null, 2)}\n`, { mode: 0o600 });
}

function run(command, args, { env = process.env, capture = false, quietErrors = false } = {}) {
  return new Promise((resolveRun, reject) => {
    const child = spawn(command, args, {
      cwd: root,
      env,
      stdio: ['ignore', capture ? 'pipe' : 'inherit', quietErrors ? 'ignore' : 'inherit'],
    });
    let stdout = '';
    child.stdout?.on('data', (chunk) => (stdout += chunk));
    child.once('error', reject);
    child.once('exit', (code) => (code === 0 ? resolveRun(stdout) : reject(new Error(`${command} ${args.join(' ')} exited with ${code}`))));
  });
}

// ---------------------------------------------------------------------------------------------------------------
// Infrastructure

async function setUpPostgres() {
  const fromEnv = process.env.DATABASE_URL;
  if (fromEnv) {
    if ((await probePostgres(fromEnv)) !== 'down') {
      if (await ensureDatabaseExists(fromEnv)) log(`created database ${services.databaseName(fromEnv)}`);
      log(`using PostgreSQL at ${redactUrl(fromEnv)} (DATABASE_URL)`);
      return fromEnv;
    }
    log(`DATABASE_URL ${redactUrl(fromEnv)} is not reachable; falling back to 127.0.0.1:5432 or a private server`);
  }
  const server = await ensurePostgres({ url: 'postgresql://postgres@127.0.0.1:5432/postgres', dataDir: join(stateDir, 'pg'), log });
  cleanups.push(server.stop);
  const dbName = isolated ? `mgw_dev_${isolationId}` : 'mgw_dev';
  const url = withDatabase(server.url, dbName);
  if (await ensureDatabaseExists(url)) log(`created database ${dbName}`);
  if (isolated && !server.private) cleanups.push(() => services.dropDatabase(server.url, dbName));
  return url;
}

async function setUpRedis() {
  const redis = await ensureRedis({ url: [process.env.REDIS_URL, 'redis://127.0.0.1:6379'], dir: join(stateDir, 'redis'), log });
  cleanups.push(redis.stop);
  if (process.env.QUEUE_PREFIX || !isolated || redis.private) return { url: redis.url, queuePrefix: process.env.QUEUE_PREFIX };
  // A shared Redis: keep this run's jobs away from a developer's worker, and remove them afterwards.
  const queuePrefix = `mgwdev${isolationId}`;
  cleanups.push(() => services.deleteRedisPrefix(redis.url, queuePrefix));
  return { url: redis.url, queuePrefix };
}

function loadSecrets() {
  const file = join(stateDir, 'config.json');
  const saved = readJson(file) ?? {};
  const secrets = {
    ADMIN_API_KEY: saved.ADMIN_API_KEY ?? randomBytes(24).toString('base64url'),
    ENCRYPTION_KEY: saved.ENCRYPTION_KEY ?? randomBytes(32).toString('base64'),
  };
  if (saved.ADMIN_API_KEY !== secrets.ADMIN_API_KEY || saved.ENCRYPTION_KEY !== secrets.ENCRYPTION_KEY) {
    writeJson(file, secrets);
    log(`generated dev secrets in ${file}`);
  }
  // Explicit environment wins, e.g. to open a database encrypted with another key.
  return {
    ADMIN_API_KEY: process.env.ADMIN_API_KEY || secrets.ADMIN_API_KEY,
    ENCRYPTION_KEY: process.env.ENCRYPTION_KEY || secrets.ENCRYPTION_KEY,
  };
}

async function choosePort(name, envVar, fallback, exclude) {
  const wanted = Number(process.env[envVar] || fallback);
  if (wanted !== exclude && (await services.isPortFree(wanted))) return wanted;
  let port;
  do port = await services.findFreePort();
  while (port === exclude);
  log(`port ${wanted} is taken; the ${name} will listen on ${port} instead`);
  return port;
}

// ---------------------------------------------------------------------------------------------------------------
// Apps

function prefixLines(stream, label, out, format = (line) => line) {
  createInterface({ input: stream, crlfDelay: Infinity }).on('line', (line) => {
    const shown = format(line);
    if (shown !== null) out.write(`${label} ${shown.replaceAll('\n', `\n${label} `)}\n`);
  });
}

// DEV_LOG=pretty: pino-pretty's full blocks (a devDependency; without it the JSON lines are shown as they are).
function prettyPrinter() {
  if (process.env.DEV_LOG !== 'pretty') return null;
  const bin = join(root, 'node_modules', '.bin', 'pino-pretty');
  if (!existsSync(bin)) return null;
  const args = ['--translateTime', 'SYS:HH:MM:ss.l', '--ignore', 'pid,hostname', ...(color ? ['--colorize'] : [])];
  return spawn(bin, args, { stdio: ['pipe', 'pipe', 'inherit'], detached: true });
}

function startApp(name, script, env, colorCode) {
  const label = paint(colorCode, `${name.padEnd(6)} |`);
  // Own process group: Ctrl-C reaches only this script, which then stops the apps in order.
  const child = spawn(process.execPath, [script], { cwd: root, env, stdio: ['ignore', 'pipe', 'pipe'], detached: true });
  const unregister = services.onProcessExit(() => child.kill('SIGKILL'));
  const pretty = prettyPrinter();
  if (pretty) {
    pretty.stdin.on('error', () => {});
    child.stdout.pipe(pretty.stdin);
    prefixLines(pretty.stdout, label, process.stdout);
  } else {
    // Default: one short line per record (scripts/lib/dev-log.mjs); DEV_LOG=json: the records as the apps wrote them.
    prefixLines(child.stdout, label, process.stdout, process.env.DEV_LOG === 'json' ? undefined : formatDevLogLine);
  }
  prefixLines(child.stderr, label, process.stderr);

  const exited = new Promise((resolveExit) => child.once('exit', (code, signal) => resolveExit(code ?? signal)));
  const died = new AbortController();
  exited.then((status) => {
    unregister();
    died.abort(new Error(`${name} exited (${status}) before it was ready`));
    if (!shuttingDown) void shutdown(1, `${name} exited unexpectedly (${status})`);
  });
  const app = { name, child, pretty, exited, died: died.signal };
  apps.push(app);
  return app;
}

async function stopApp({ child, pretty, exited }) {
  if (child.exitCode === null && child.signalCode === null) {
    child.kill('SIGTERM');
    const timer = setTimeout(() => child.kill('SIGKILL'), 10_000);
    await exited;
    clearTimeout(timer);
  }
  // pino-pretty ends once its input closes; give it a moment to flush the last lines.
  if (pretty && pretty.exitCode === null) {
    await new Promise((resolveFlush) => {
      const timer = setTimeout(() => {
        pretty.kill();
        resolveFlush();
      }, 2_000);
      pretty.once('exit', () => {
        clearTimeout(timer);
        resolveFlush();
      });
    });
  }
}

// ---------------------------------------------------------------------------------------------------------------
// Demo data

async function api(baseUrl, path, apiKey, init = {}) {
  const headers = { 'X-Api-Key': apiKey, ...(init.body ? { 'Content-Type': 'application/json' } : {}) };
  return fetch(`${baseUrl}${path}`, { ...init, headers, signal: AbortSignal.timeout(10_000) });
}

async function customerKeyWorks(baseUrl, apiKey) {
  const response = await api(baseUrl, '/account/instances', apiKey);
  return response.status !== 401 && response.status !== 403;
}

async function instanceExists(baseUrl, apiKey, id) {
  return (await api(baseUrl, `/account/instances/${encodeURIComponent(id)}`, apiKey)).status !== 404;
}

const DEMO_EMAIL = 'demo@example.com';

async function createCustomer(env) {
  // The demo customer comes with a dashboard user. Should an older demo customer in this database still hold the address
  // (say, its key was rotated in the dashboard), the new one gets an address of its own.
  let stdout;
  let email = DEMO_EMAIL;
  try {
    stdout = await runCli(env, email);
  } catch {
    email = `demo+${randomBytes(3).toString('hex')}@example.com`;
    log(`${DEMO_EMAIL} belongs to an older demo customer; the new demo user is ${email}`);
    stdout = await runCli(env, email);
  }
  // Only the result line has an apiKey; anything else on stdout is log output.
  const customer = stdout
    .split('\n')
    .map((line) => {
      try {
        return JSON.parse(line);
      } catch {
        return null;
      }
    })
    .find((value) => value?.id && value?.apiKey);
  if (!customer) throw new Error(`customers:create printed no customer:\n${stdout}`);
  log(`created demo customer ${customer.id} with dashboard user ${email}`);
  return { id: customer.id, name: customer.name, apiKey: customer.apiKey, ownerEmail: email, ownerInviteUrl: customer.ownerInvite?.url };
}

function runCli(env, ownerEmail) {
  return run(process.execPath, [CLI, 'customers:create', '--name', 'demo', '--owner-email', ownerEmail], {
    env: { ...env, LOG_LEVEL: 'warn' },
    capture: true,
    quietErrors: true,
  });
}

async function admin(baseUrl, path, adminKey, init = {}) {
  return fetch(`${baseUrl}${path}`, { ...init, headers: { 'X-Admin-Key': adminKey }, signal: AbortSignal.timeout(10_000) });
}

/**
 * How the demo user gets into the dashboard: a one-time link to set a password while none is set (a fresh one each
 * start: links are single-use), or nothing once they have one. Demo data from before the dashboard gets its user now.
 */
async function demoSignIn(baseUrl, demo, adminKey) {
  const { customer } = demo;
  if (customer.ownerInviteUrl) {
    const link = customer.ownerInviteUrl;
    delete customer.ownerInviteUrl;
    return { email: customer.ownerEmail, link };
  }
  const listed = await admin(baseUrl, `/admin/customers/${customer.id}/users`, adminKey);
  if (listed.status !== 200) return null;
  const users = await listed.json();
  let user = users.find((candidate) => candidate.email === customer.ownerEmail) ?? users[0];
  if (!user) {
    if (!customer.apiKey) return null;
    const invited = await api(baseUrl, '/account/users', customer.apiKey, { method: 'POST', body: JSON.stringify({ email: DEMO_EMAIL }) });
    if (invited.status !== 201) return null;
    const body = await invited.json();
    customer.ownerEmail = DEMO_EMAIL;
    return { email: DEMO_EMAIL, link: body.inviteUrl };
  }
  customer.ownerEmail = user.email;
  if (user.status === 'active') return { email: user.email, link: null };
  const reset = await admin(baseUrl, `/admin/customers/${customer.id}/users/${user.id}/password-reset`, adminKey, { method: 'POST' });
  return reset.status === 201 ? { email: user.email, link: (await reset.json()).inviteUrl } : null;
}

async function createInstance(baseUrl, apiKey) {
  const response = await api(baseUrl, '/account/instances', apiKey, {
    method: 'POST',
    body: JSON.stringify({ name: 'demo', sandbox: true }),
  });
  if (response.status !== 201) {
    log(`could not create a demo instance: HTTP ${response.status} ${await response.text()}`);
    return null;
  }
  const instance = await response.json();
  log(`created demo sandbox instance ${instance.id}`);
  return { id: instance.id, name: instance.name, apiKey: instance.apiKey };
}

// A number from the range reserved for drama (UK 07700 900xxx), so the demo never names a real person.
const DEMO_PHONE = '447700900001';
const DEMO_CONTACT = '447700900123';

function instanceHeaders(demo) {
  // The instance's own key where we have it (least privilege), else the customer key.
  return { 'X-Api-Key': demo.instance.apiKey || demo.customer.apiKey, 'X-Instance-Id': demo.instance.id };
}

async function sessionStatus(baseUrl, demo) {
  const response = await fetch(`${baseUrl}/session/status`, { headers: instanceHeaders(demo), signal: AbortSignal.timeout(10_000) });
  if (response.status !== 200) throw new Error(`GET /session/status answered ${response.status}: ${await response.text()}`);
  return response.json();
}

/** Pairs the demo sandbox instance (first start, or a phone-side logout since) and waits until its link is up. */
async function ensurePaired(baseUrl, demo) {
  let status = await sessionStatus(baseUrl, demo);
  if (!status.isLoggedIn) {
    const response = await fetch(`${baseUrl}/sandbox/pair`, {
      method: 'POST',
      headers: { ...instanceHeaders(demo), 'Content-Type': 'application/json' },
      body: JSON.stringify({ phone: DEMO_PHONE }),
      signal: AbortSignal.timeout(10_000),
    });
    if (response.status !== 200) throw new Error(`POST /sandbox/pair answered ${response.status}: ${await response.text()}`);
    log(`paired the demo sandbox instance to +${DEMO_PHONE}`);
  }
  const deadline = Date.now() + 30_000;
  while (!status.isConnected) {
    if (Date.now() > deadline) throw new Error(`the demo instance did not connect: ${JSON.stringify(status)}`);
    await new Promise((resolveWait) => setTimeout(resolveWait, 200));
    status = await sessionStatus(baseUrl, demo);
  }
}

async function customerExists(baseUrl, adminKey, id) {
  return (await admin(baseUrl, `/admin/customers/${encodeURIComponent(id)}/users`, adminKey)).status === 200;
}

async function instanceKeyWorks(baseUrl, demo) {
  if (!demo.instance?.apiKey) return false;
  const response = await fetch(`${baseUrl}/session/status`, { headers: instanceHeaders(demo), signal: AbortSignal.timeout(10_000) });
  return response.status === 200;
}

/**
 * The demo customer and its sandbox instance, made once and kept. A saved customer key that stopped working means
 * either a new database (the customer is gone: make new demo data) or a key rotated in the dashboard (the customer is
 * still there: keep it, the account the person signed into, and work through the instance's own key, which rotating
 * the customer key leaves alone).
 */
async function ensureDemo(baseUrl, env, adminKey) {
  const file = join(stateDir, 'demo.json');
  let demo = readJson(file);
  if (demo?.customer?.apiKey && !(await customerKeyWorks(baseUrl, demo.customer.apiKey))) {
    if (await customerExists(baseUrl, adminKey, demo.customer.id)) {
      log(`the demo customer's key was rotated (in the dashboard?); keeping demo customer ${demo.customer.id}`);
      demo.customer.apiKey = null;
    } else {
      log('the saved demo customer is not in this database (a new database?); creating new demo data');
      demo = null;
    }
  }
  demo ??= { customer: await createCustomer(env), instance: null };
  const customerKey = demo.customer.apiKey;
  if (demo.instance) {
    const stillThere = customerKey ? await instanceExists(baseUrl, customerKey, demo.instance.id) : await instanceKeyWorks(baseUrl, demo);
    if (!stillThere) demo.instance = null;
  }
  if (!demo.instance && customerKey) demo.instance = await createInstance(baseUrl, customerKey);
  else if (!demo.instance) log('the demo instance is gone and the customer key was rotated: create an instance in the dashboard');
  writeJson(file, demo);
  if (demo.instance) await ensurePaired(baseUrl, demo);
  return demo;
}

// ---------------------------------------------------------------------------------------------------------------
// Banner and lifecycle

/** The banner's copy-paste commands (single-quoted for sh; keys and ids never contain quotes). */
function tryCommands(apiUrl, demo) {
  if (!demo.instance) {
    return demo.customer.apiKey ? [['Try', `curl -sS -H 'X-Api-Key: ${demo.customer.apiKey}' ${apiUrl}/account/instances`]] : [];
  }
  const headers = Object.entries(instanceHeaders(demo))
    .map(([name, value]) => `-H '${name}: ${value}'`)
    .join(' ');
  const body = JSON.stringify({ to: DEMO_CONTACT, message: 'Hello from the gateway' });
  return [
    ['Send', `curl -sS ${headers} -H 'Content-Type: application/json' -d '${body}' ${apiUrl}/messages/text`],
    ['Outbox', `curl -sS ${headers} ${apiUrl}/sandbox/outbox`],
  ];
}

function printBanner({ apiUrl, workerUrl, secrets, demo, signIn, seconds, commands }) {
  const rows = [
    ['Dashboard', `${apiUrl}/dashboard`],
    ...(signIn?.link ? [['Invite', `${signIn.link}  (one-time: set a password for ${signIn.email})`]] : []),
    ...(signIn && !signIn.link ? [['Sign in', `${signIn.email} with the password you set`]] : []),
    ['API', apiUrl],
    ['Docs', `${apiUrl}/docs`],
    ['Worker', `${workerUrl}/health/ready`],
    ['Admin key', secrets.ADMIN_API_KEY],
    [
      'Customer',
      demo.customer.apiKey
        ? `${demo.customer.id}  key ${demo.customer.apiKey}`
        : `${demo.customer.id}  key rotated in the dashboard (Keys & defaults shows a new one once); the commands below use the instance key`,
    ],
  ];
  if (demo.instance) {
    rows.push(['Instance', `${demo.instance.id}${demo.instance.apiKey ? `  key ${demo.instance.apiKey}` : ''}`]);
    rows.push(['', `sandbox, paired to +${DEMO_PHONE}; webhooks may target localhost in dev`]);
  }
  const line = '-'.repeat(72);
  console.log(`\n${line}\n${paint('1;32', `  Messaging gateway is ready (cold start ${seconds.toFixed(1)} s)`)}\n`);
  for (const [name, value] of rows) console.log(`  ${paint('1', name.padEnd(10))} ${value}`);
  console.log(`\n  ${paint('1', 'Send a first message, then see what the (simulated) network received:')}\n`);
  for (const [, command] of commands) console.log(`  ${command}\n`);
  console.log(`  ${exitWhenReady ? 'DEV_EXIT_WHEN_READY=1: stopping now.' : 'Ctrl-C stops everything.'}\n${line}\n`);
}

/**
 * Runs the banner's commands exactly as printed (through sh, as a user pasting them would) and checks what they
 * answer: the send is accepted and the outbox holds it. CI's cold start (DEV_EXIT_WHEN_READY=1) runs this.
 */
async function checkTryCommands(commands) {
  const runShell = (command) => {
    const result = spawnSync('sh', ['-c', command], { cwd: root, encoding: 'utf8', timeout: 30_000 });
    if (result.status !== 0) throw new Error(`banner command failed (${result.status}): ${command}\n${result.stderr}`);
    try {
      return JSON.parse(result.stdout);
    } catch {
      throw new Error(`banner command printed no JSON: ${command}\n${result.stdout}`);
    }
  };
  const byName = Object.fromEntries(commands);
  if (!byName.Send) return;
  const sent = runShell(byName.Send);
  if (typeof sent?.id !== 'string') throw new Error(`the banner's send answered ${JSON.stringify(sent)}`);
  const deadline = Date.now() + 15_000;
  for (;;) {
    const outbox = runShell(byName.Outbox);
    if (Array.isArray(outbox) && outbox.some((entry) => entry.id === sent.id)) break;
    if (Date.now() > deadline) throw new Error(`the banner's send ${sent.id} never reached the outbox: ${JSON.stringify(outbox)}`);
    await new Promise((resolveWait) => setTimeout(resolveWait, 200));
  }
  log(`checked the banner commands: message ${sent.id} reached the sandbox outbox`);
}

async function shutdown(code, reason) {
  if (shuttingDown) return;
  shuttingDown = true;
  if (reason) log(reason);
  await Promise.all(apps.map(stopApp));
  for (const cleanup of cleanups.reverse()) {
    try {
      await cleanup();
    } catch (error) {
      log(`cleanup failed: ${error.message}`);
    }
  }
  process.exit(code);
}

// npm forwards the terminal's signal too, so a second one is expected: shutdown ignores it and is bounded by timeouts.
for (const signal of ['SIGINT', 'SIGTERM', 'SIGHUP']) process.on(signal, () => void shutdown(0, `${signal}: stopping`));

async function main() {
  if (isolated) log(`isolated run, state in ${stateDir}`);
  mkdirSync(stateDir, { recursive: true });
  const databaseUrl = await setUpPostgres();
  const redis = await setUpRedis();
  const secrets = loadSecrets();

  // The typed client's build too: examples/ import it (through the node_modules link the build makes).
  const outputs = [
    API_MAIN,
    WORKER_MAIN,
    CLI,
    'dist/dashboard/index.html',
    'libs/client/dist/esm/index.js',
    'node_modules/@messaging-gateway/client',
  ];
  if (buildIsFresh(root, outputs)) {
    log('no source changed since the last build: skipping npm run build');
  } else {
    log('building (npm run build)');
    const fingerprint = sourceFingerprint(root);
    await run('npm', ['run', 'build']);
    recordBuild(root, fingerprint);
  }
  const missing = [API_MAIN, WORKER_MAIN, CLI].filter((file) => !existsSync(join(root, file)));
  if (missing.length > 0) throw new Error(`npm run build did not produce ${missing.join(', ')}`);
  await run(process.execPath, ['scripts/migrate.mjs'], {
    env: { ...process.env, DATABASE_URL: databaseUrl, DATABASE_MIGRATION_URL: databaseUrl },
  });

  const port = await choosePort('API', 'PORT', 3000);
  const workerPort = await choosePort('worker', 'WORKER_HEALTH_PORT', 3001, port);
  const env = {
    ...process.env,
    ...secrets,
    DATABASE_URL: databaseUrl,
    REDIS_URL: redis.url,
    PORT: String(port),
    WORKER_HEALTH_PORT: String(workerPort),
    SANDBOX_ENABLED: process.env.SANDBOX_ENABLED ?? 'true',
    // Dev only: webhooks (and media URLs) may target a receiver on this machine. Production defaults refuse loopback
    // and private addresses (SSRF protection); only loopback is opened here, and explicit settings win.
    WEBHOOK_ALLOWED_HOSTS: process.env.WEBHOOK_ALLOWED_HOSTS ?? DEV_WEBHOOK_HOSTS,
    LOG_LEVEL: process.env.LOG_LEVEL ?? 'info',
    // Links the API makes (dashboard invites) name the address printed below, whoever asked for them.
    PUBLIC_BASE_URL: process.env.PUBLIC_BASE_URL ?? `http://localhost:${port}`,
    ...(redis.queuePrefix ? { QUEUE_PREFIX: redis.queuePrefix } : {}),
  };
  const apiUrl = `http://localhost:${port}`;
  const workerUrl = `http://localhost:${workerPort}`;
  const apiApp = startApp('api', API_MAIN, env, '36');
  const workerApp = startApp('worker', WORKER_MAIN, env, '35');
  await Promise.all([
    services.waitForHttp(`http://127.0.0.1:${port}/health/ready`, 120_000, { signal: apiApp.died }),
    services.waitForHttp(`http://127.0.0.1:${workerPort}/health/ready`, 120_000, { signal: workerApp.died }),
  ]);

  const demo = await ensureDemo(`http://127.0.0.1:${port}`, env, secrets.ADMIN_API_KEY);
  // The banner without a sign-in line beats no banner: a failure here must not stop the stack.
  const signIn = await demoSignIn(`http://127.0.0.1:${port}`, demo, secrets.ADMIN_API_KEY).catch((error) => {
    log(`could not prepare the demo dashboard user: ${error.message}`);
    return null;
  });
  writeJson(join(stateDir, 'demo.json'), demo);
  const seconds = process.uptime();
  writeJson(join(stateDir, 'last-start.json'), {
    coldStartSeconds: Number(seconds.toFixed(2)),
    readyAt: new Date().toISOString(),
    apiUrl,
    workerUrl,
  });
  const commands = tryCommands(apiUrl, demo);
  printBanner({ apiUrl, workerUrl, secrets, demo, signIn, seconds, commands });
  if (exitWhenReady) {
    await checkTryCommands(commands);
    await shutdown(0);
  }
}

main().catch((error) => shutdown(1, `failed: ${error instanceof Error ? error.message : String(error)}`));
