import type { ChildProcess } from 'node:child_process';
import { spawnBuiltApp, type AppProcess } from './app-process';
import { cloneTemplate, databaseUrl, type WorkerScope } from './worker-resources';

// Loaded by the Jest test environment (test/support/jest-environment.ts) outside the test sandbox: no `@app/*` imports.

/** Where a shared stack keeps its state: a database and a Redis prefix of its own, next to its Jest worker's. */
export interface StackAddress {
  key: string;
  databaseUrl: string;
  queuePrefix: string;
}

/** What the test sandbox sees of the stacks (globalThis.__sharedStacks, set by the test environment). */
export interface SharedStacksHandle {
  /** Where the stack `key` keeps its state; a suite points its own reads there before the stack starts. */
  address(key: string): StackAddress;
  /** The stack `key` (an API and a worker with these settings), started on first use; its API's URL. */
  start(key: string, env: StackEnv): Promise<{ apiUrl: string }>;
}

/** Environment settings of a stack's two processes, beyond the Jest worker's database, prefix and secrets. */
export interface StackEnv {
  api: Record<string, string>;
  worker: Record<string, string>;
}

interface Stack {
  env: string;
  api: AppProcess;
  worker: AppProcess;
}

/**
 * The API and worker processes that suites which only need a running gateway share within one Jest worker, instead of
 * booting their own (test/support/world-suite.ts). One per distinct setting (`key`), on a database and Redis prefix no
 * other suite's own worker uses, so a suite that starts workers of its own never competes with it for shard leases.
 * They live as long as the Jest worker; scripts/test.mjs ends whatever is left of its process group.
 */
export class SharedStacks implements SharedStacksHandle {
  private readonly stacks = new Map<string, Promise<Stack>>();
  private readonly running = new Set<ChildProcess>();

  constructor(private readonly scope: WorkerScope) {
    process.once('exit', () => this.killAll());
  }

  address(key: string): StackAddress {
    if (!/^[a-z0-9]{1,16}$/.test(key)) throw new Error(`a stack key is 1 to 16 lower-case letters or digits: ${key}`);
    return {
      key,
      databaseUrl: databaseUrl(this.scope.databaseUrl, `${this.scope.template}_${this.scope.scope}_${key}`),
      queuePrefix: `${this.scope.queuePrefix}${key}`,
    };
  }

  async start(key: string, env: StackEnv): Promise<{ apiUrl: string }> {
    const wanted = JSON.stringify([Object.entries(env.api).sort(), Object.entries(env.worker).sort()]);
    let pending = this.stacks.get(key);
    const current = await pending?.catch(() => undefined);
    if (current && current.env !== wanted) throw new Error(`the shared stack ${key} was started with other settings`);
    // A stack a suite broke (a process that exited) is replaced rather than handed to the next suite.
    if (!current || current.api.child.exitCode !== null || current.worker.child.exitCode !== null) {
      if (current) await Promise.all([current.api.stop('SIGKILL'), current.worker.stop('SIGKILL')]);
      pending = this.boot(key, env, wanted);
      this.stacks.set(key, pending);
    }
    const stack = await (pending as Promise<Stack>);
    return { apiUrl: stack.api.url };
  }

  private async boot(key: string, env: StackEnv, wanted: string): Promise<Stack> {
    const address = this.address(key);
    await cloneTemplate(this.scope, new URL(address.databaseUrl).pathname.slice(1));
    const base = { ...process.env, DATABASE_URL: address.databaseUrl, QUEUE_PREFIX: address.queuePrefix, LOG_LEVEL: 'warn' };
    const started = await Promise.allSettled([
      spawnBuiltApp('api', base, env.api, 'ready', { readyTimeoutMs: 60_000 }),
      spawnBuiltApp('worker', base, env.worker, 'ready', { readyTimeoutMs: 60_000 }),
    ]);
    const running = started.flatMap((result) => (result.status === 'fulfilled' ? [result.value] : []));
    for (const app of running) this.running.add(app.child);
    const failed = started.find((result): result is PromiseRejectedResult => result.status === 'rejected');
    if (failed) {
      await Promise.all(running.map((app) => app.stop('SIGKILL')));
      throw failed.reason;
    }
    const [api, worker] = running;
    return { env: wanted, api, worker };
  }

  /** 'exit' handlers run synchronously: the children are signalled, not waited for. */
  private killAll(): void {
    for (const child of this.running) if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
  }
}
