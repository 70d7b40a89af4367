import { spawn } from 'node:child_process';
import { connect, createServer, type AddressInfo, type Socket } from 'node:net';
import { spawnBuiltApp, freePort, type AppProcess, type SpawnOptions } from './app-process';
import { testEnv } from './environment';
import { eventually } from './event-log';

export { freePort, type AppProcess, type SpawnOptions } from './app-process';

/** Runs a built app (`npm run build`) as its own process, with the run's database, Redis prefix and secrets. */
export function spawnApp(
  app: 'api' | 'worker',
  env: Record<string, string> = {},
  waitFor: 'ready' | 'live' = 'ready',
  options: SpawnOptions = {},
): Promise<AppProcess> {
  return spawnBuiltApp(app, { ...process.env, ...testEnv(), LOG_LEVEL: 'warn' }, env, waitFor, options);
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
