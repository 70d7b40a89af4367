import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync } from 'node:fs';
import { connect, createServer, type AddressInfo, type Socket } from 'node:net';
import { join } from 'node:path';
import { testEnv } from './environment';
import { eventually } from './event-log';

const ROOT = join(__dirname, '..', '..');

export async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const address = server.address();
      server.close(() => (typeof address === 'object' && address ? resolve(address.port) : reject(new Error('no port'))));
    });
  });
}

export interface AppProcess {
  url: string;
  child: ChildProcess;
  output(): string;
  /** Stops the process (SIGTERM by default) and waits for it to exit. */
  stop(signal?: NodeJS.Signals): Promise<void>;
}

async function waitUntil(url: string, child: ChildProcess, output: () => string, timeoutMs = 30_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    if (child.exitCode !== null) throw new Error(`process exited with ${child.exitCode}:\n${output()}`);
    try {
      const response = await fetch(url);
      if (response.status === 200) return;
    } catch {
      // not listening yet
    }
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  throw new Error(`not ready within ${timeoutMs} ms:\n${output()}`);
}

/** Where a spawned app comes from and how long its start may take. */
export interface SpawnOptions {
  /** Another build of the project (the previous release, test/support/previous-release.ts); this checkout by default. */
  root?: string;
  /** 30 s by default; a suite starting several processes at once on a loaded machine needs more. */
  readyTimeoutMs?: number;
}

/** Runs a built app (`npm run build`) as its own process, the way operators run it. */
export async function spawnApp(
  app: 'api' | 'worker',
  env: Record<string, string> = {},
  waitFor: 'ready' | 'live' = 'ready',
  { root = ROOT, readyTimeoutMs }: SpawnOptions = {},
): Promise<AppProcess> {
  const entry = join(root, 'dist', 'apps', app, 'src', 'main.js');
  if (!existsSync(entry)) throw new Error(`${entry} is missing: run \`npm run build\` (npm test does)`);
  const port = await freePort();
  const portVariable = app === 'api' ? 'PORT' : 'WORKER_HEALTH_PORT';
  const child = spawn(process.execPath, [entry], {
    cwd: root,
    env: { ...process.env, ...testEnv(), LOG_LEVEL: 'warn', PORT: '0', WORKER_HEALTH_PORT: '0', [portVariable]: String(port), ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let log = '';
  child.stdout?.on('data', (chunk: Buffer) => (log += chunk.toString()));
  child.stderr?.on('data', (chunk: Buffer) => (log += chunk.toString()));
  const url = `http://127.0.0.1:${port}`;
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  const stop = async (signal: NodeJS.Signals = 'SIGTERM') => {
    if (child.exitCode === null && child.signalCode === null) child.kill(signal);
    await exited;
  };
  try {
    await waitUntil(`${url}${waitFor === 'ready' ? '/health/ready' : '/health'}`, child, () => log, readyTimeoutMs);
  } catch (error) {
    await stop('SIGKILL');
    throw error;
  }
  return { url, child, output: () => log, stop };
}

/**
 * Resolves once the worker holds every one of the `shardCount` shard leases. A worker of an earlier suite that was
 * killed leaves its leases live until they expire (`SHARD_LEASE_MS`); until then its shards' instances have no session.
 */
export async function ownsAllShards(worker: AppProcess, shardCount: number, timeoutMs = 30_000): Promise<void> {
  await eventually(
    async () => ((await (await fetch(`${worker.url}/status`)).json()) as { shards: number[] }).shards.length,
    (owned) => owned === shardCount,
    timeoutMs,
  );
}

export interface PrivateRedis {
  url: string;
  /** SIGKILLs the server: connections drop and reconnects are refused. */
  kill(): Promise<void>;
}

/** A throw-away redis-server on a free loopback port, without persistence, for tests that take Redis away. */
export async function startPrivateRedis(): Promise<PrivateRedis> {
  const port = await freePort();
  const child = spawn('redis-server', ['--port', String(port), '--bind', '127.0.0.1', '--save', '', '--appendonly', 'no'], {
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let log = '';
  child.stdout?.on('data', (chunk: Buffer) => (log += chunk.toString()));
  child.stderr?.on('data', (chunk: Buffer) => (log += chunk.toString()));
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  const deadline = Date.now() + 10_000;
  while (!log.includes('Ready to accept connections')) {
    if (child.exitCode !== null || Date.now() > deadline) throw new Error(`redis-server did not start:\n${log}`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  return {
    url: `redis://127.0.0.1:${port}`,
    kill: async () => {
      if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
      await exited;
    },
  };
}

export interface TcpProxy {
  port: number;
  /** Drops every connection and stops listening: new connections are refused, as from a server that died. */
  close(): Promise<void>;
}

/** Forwards loopback connections to `target`, so a test can make a server (PostgreSQL) vanish for one process only. */
export async function startTcpProxy(target: { host: string; port: number }): Promise<TcpProxy> {
  const sockets = new Set<Socket>();
  const server = createServer((client) => {
    const upstream = connect(target.port, target.host);
    for (const socket of [client, upstream]) {
      sockets.add(socket);
      socket.on('close', () => sockets.delete(socket));
      socket.on('error', () => undefined);
    }
    client.pipe(upstream).pipe(client);
    const dropBoth = () => {
      client.destroy();
      upstream.destroy();
    };
    client.on('close', dropBoth);
    upstream.on('close', dropBoth);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const port = (server.address() as AddressInfo).port;
  return {
    port,
    close: async () => {
      const closed = new Promise<void>((resolve) => server.close(() => resolve()));
      for (const socket of sockets) socket.destroy();
      await closed;
    },
  };
}
