#!/usr/bin/env node
// What an outbound proxy costs per message: three real-network (Baileys) instances on one worker, paired by QR through
// the fake WhatsApp Web network (test/support/protocol-network): one direct, one through tinyproxy (HTTP CONNECT) and
// one through dante (SOCKS5), both on loopback. Each sends N texts one after the other, in turns (direct, http, socks,
// direct, ...) so drift on the machine hits all three alike; a message's latency is from `POST /messages/text` to its
// arrival at the recipient's phone on the fake network. Prints per-message latency and the ratio to direct, from one run.
// Loopback only: the figure is the proxy hop's own cost, not a remote proxy's network distance. Needs `npm run build`
// and Debian's tinyproxy and dante-server.
//
//   node bench/proxy-overhead.mjs [messages per instance=200]
import { spawn } from 'node:child_process';
import { chmodSync, existsSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { connect } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { findFreePort, waitForHttp } from '../scripts/lib/services.mjs';
import { root, scratchServices, stopper } from './worker-bench.mjs';

const count = Number(process.argv[2] ?? 200);
const workerMain = join(root, 'dist/apps/worker/src/main.js');
const apiMain = join(root, 'dist/apps/api/src/main.js');
if (!existsSync(workerMain) || !existsSync(apiMain)) throw new Error('run `npm run build` first');

const ANN = { phone: '447700900123', name: 'Ann', lid: '123456789012345@lid' };
const { env, adminKey, migrate, dispose } = await scratchServices({ LOG_LEVEL: 'error', WEBHOOK_ALLOWED_HOSTS: '127.0.0.1' });
const children = [];
const scratch = mkdtempSync(join(tmpdir(), 'proxy-bench-'));
// The proxies drop root and run as nobody.
chmodSync(scratch, 0o777);

function track(child) {
  children.push(child);
  return child;
}

async function listening(port) {
  const deadline = Date.now() + 10_000;
  while (Date.now() < deadline) {
    const open = await new Promise((done) => {
      const socket = connect(port, '127.0.0.1');
      socket.once('connect', () => (socket.destroy(), done(true)));
      socket.once('error', () => done(false));
    });
    if (open) return;
    await new Promise((r) => setTimeout(r, 50));
  }
  throw new Error(`nothing listens on ${port}`);
}

async function startTinyproxy() {
  const port = await findFreePort();
  const config = join(scratch, 'tinyproxy.conf');
  writeFileSync(
    config,
    ['User nobody', 'Group nogroup', `Port ${port}`, 'Listen 127.0.0.1', 'Timeout 120', 'MaxClients 100', 'LogLevel Warning', ''].join(
      '\n',
    ),
  );
  const child = track(spawn('tinyproxy', ['-d', '-c', config], { stdio: 'ignore' }));
  await listening(port);
  return { url: `http://127.0.0.1:${port}`, stop: stopper(child) };
}

async function startDante() {
  const port = await findFreePort();
  const config = join(scratch, 'danted.conf');
  writeFileSync(
    config,
    [
      `logoutput: ${join(scratch, 'danted.log')}`,
      `internal: 127.0.0.1 port = ${port}`,
      'external: 127.0.0.1',
      'socksmethod: none',
      'clientmethod: none',
      'user.privileged: root',
      'user.unprivileged: nobody',
      'client pass { from: 127.0.0.0/8 to: 0.0.0.0/0 }',
      'socks pass { from: 127.0.0.0/8 to: 0.0.0.0/0 }',
      '',
    ].join('\n'),
  );
  const child = track(spawn('danted', ['-f', config, '-p', join(scratch, 'danted.pid')], { stdio: 'ignore' }));
  await listening(port);
  return { url: `socks5://127.0.0.1:${port}`, stop: stopper(child) };
}

async function startFakeNetwork() {
  const child = track(
    spawn(process.execPath, [join(root, 'test/support/protocol-network/main.mjs')], { stdio: ['ignore', 'pipe', 'inherit'] }),
  );
  const line = await new Promise((done) => createInterface({ input: child.stdout }).once('line', done));
  return { ...JSON.parse(line), stop: stopper(child) };
}

async function startApp(main, portVariable, extra = {}) {
  const port = await findFreePort();
  const child = track(
    spawn(process.execPath, [main], {
      env: { ...env, PORT: '0', WORKER_HEALTH_PORT: '0', [portVariable]: String(port), ...extra },
      stdio: ['ignore', 'ignore', 'inherit'],
    }),
  );
  await waitForHttp(`http://127.0.0.1:${port}/health/ready`, 60_000);
  return { url: `http://127.0.0.1:${port}`, stop: stopper(child) };
}

async function call(url, method, path, headers, body) {
  const response = await fetch(`${url}${path}`, {
    method,
    headers: { ...headers, ...(body ? { 'content-type': 'application/json' } : {}) },
    body: body ? JSON.stringify(body) : undefined,
  });
  const text = await response.text();
  if (response.status >= 300) throw new Error(`${method} ${path}: ${response.status} ${text}`);
  return text ? JSON.parse(text) : undefined;
}

const stats = (values) => {
  const sorted = [...values].sort((a, b) => a - b);
  const at = (q) => sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))];
  return { mean: values.reduce((a, b) => a + b, 0) / values.length, p50: at(0.5), p95: at(0.95) };
};

try {
  migrate();
  const network = await startFakeNetwork();
  const [http, socks] = await Promise.all([startTinyproxy(), startDante()]);
  const worker = await startApp(workerMain, 'WORKER_HEALTH_PORT', {
    BAILEYS_WS_URL: network.webSocketUrl,
    BAILEYS_TEST_NETWORK_ROOT_KEY: network.rootPublicKey,
    NODE_EXTRA_CA_CERTS: network.mediaCertificate,
    BAILEYS_TEST_MEDIA_ORIGIN: network.mediaOrigin,
  });
  const api = await startApp(apiMain, 'PORT', { WEBHOOK_ALLOWED_HOSTS: '127.0.0.1' });
  await call(network.controlUrl, 'POST', '/contacts', {}, ANN);
  const customer = await call(api.url, 'POST', '/admin/customers', { 'X-Admin-Key': adminKey }, { name: 'proxy bench' });

  const routes = [
    { name: 'direct', proxyUrl: '' },
    { name: 'http (tinyproxy)', proxyUrl: http.url },
    { name: 'socks5 (dante)', proxyUrl: socks.url },
  ];
  let phone = 0;
  for (const route of routes) {
    const instance = await call(
      api.url,
      'POST',
      '/account/instances',
      { 'X-Api-Key': customer.apiKey },
      { name: route.name, sandbox: false },
    );
    route.headers = { 'X-Api-Key': instance.apiKey, 'X-Instance-Id': instance.id };
    await call(api.url, 'PUT', '/instance/settings', route.headers, { useCustomDefaults: false, proxyUrl: route.proxyUrl });
    let code;
    for (let attempt = 1; !code; attempt += 1) {
      try {
        ({ code } = await call(api.url, 'GET', '/session/qr/text', route.headers));
      } catch (error) {
        if (attempt >= 10 || !String(error.message).includes(' 503 ')) throw error;
        await new Promise((r) => setTimeout(r, 1000));
      }
    }
    await call(network.controlUrl, 'POST', '/phone/scan', {}, { qr: code, phone: `4477009005${String((phone += 1)).padStart(2, '0')}` });
    for (let waited = 0; !(await call(api.url, 'GET', '/session/status', route.headers)).isConnected; waited += 100) {
      if (waited > 30_000) throw new Error(`${route.name} did not connect`);
      await new Promise((r) => setTimeout(r, 100));
    }
    route.latencies = [];
  }

  let seen = 0;
  const arrived = async (id) => {
    for (;;) {
      const inbox = await call(network.controlUrl, 'GET', `/contacts/inbox?phone=${ANN.phone}`);
      if (inbox.slice(seen).some((entry) => entry.id === id)) {
        seen = Math.max(0, inbox.length - 3);
        return;
      }
      await new Promise((r) => setTimeout(r, 1));
    }
  };
  // A few unmeasured messages first: sessions, ciphers and tunnels warm.
  const warmup = 5;
  for (let n = 0; n < count + warmup; n += 1) {
    for (const route of routes) {
      const started = performance.now();
      const { id } = await call(api.url, 'POST', '/messages/text', route.headers, { to: ANN.phone, message: `bench ${n}` });
      await arrived(id);
      if (n >= warmup) route.latencies.push(performance.now() - started);
    }
  }

  const base = stats(routes[0].latencies);
  console.log('');
  console.log(`${count} texts per instance, sent one at a time, accept → arrival on the fake network (loopback)`);
  console.log('route               mean ms   p50 ms   p95 ms   mean ratio to direct');
  for (const route of routes) {
    const s = stats(route.latencies);
    console.log(
      `${route.name.padEnd(18)}  ${s.mean.toFixed(2).padStart(7)}  ${s.p50.toFixed(2).padStart(7)}  ${s.p95.toFixed(2).padStart(7)}   ${(s.mean / base.mean).toFixed(3)}`,
    );
  }
  await Promise.all([worker.stop(), api.stop(), http.stop(), socks.stop()]);
  await network.stop();
} finally {
  for (const child of children) if (child.exitCode === null) child.kill('SIGKILL');
  rmSync(scratch, { recursive: true, force: true });
  await dispose();
}
