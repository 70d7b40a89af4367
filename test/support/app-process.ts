import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync } from 'node:fs';
import { createServer } from 'node:net';
import { join } from 'node:path';

// Imports nothing of the project's: the Jest test environment (test/support/jest-environment.ts) loads this file
// outside the test sandbox, where the `@app/*` aliases do not resolve.

export const ROOT = join(__dirname, '..', '..');

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

/**
 * Runs a built app (`npm run build`) as its own process, the way operators run it, on a free port, and resolves once it
 * answers `/health/ready` (or `/health` for `live`). Its environment: `base`, its ports, then `overrides`.
 */
export async function spawnBuiltApp(
  app: 'api' | 'worker',
  base: NodeJS.ProcessEnv,
  overrides: Record<string, string> = {},
  waitFor: 'ready' | 'live' = 'ready',
  { root = ROOT, readyTimeoutMs }: SpawnOptions = {},
): Promise<AppProcess> {
  const entry = join(root, 'dist', 'apps', app, 'src', 'main.js');
  if (!existsSync(entry)) throw new Error(`${entry} is missing: run \`npm run build\` (npm test does)`);
  const port = await freePort();
  const portVariable = app === 'api' ? 'PORT' : 'WORKER_HEALTH_PORT';
  const child = spawn(process.execPath, [entry], {
    cwd: root,
    env: { ...base, PORT: '0', WORKER_HEALTH_PORT: '0', [portVariable]: String(port), ...overrides },
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
