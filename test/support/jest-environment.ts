import type { EnvironmentContext, JestEnvironmentConfig } from '@jest/environment';
import { TestEnvironment } from 'jest-environment-node';
import { SharedStacks, type SharedStacksHandle } from './shared-stacks';
import { cloneTemplate, workerScope, type WorkerScope } from './worker-resources';

/** One per Jest worker process: the environment module is loaded once per process and kept. */
let stacks: SharedStacks | undefined;

/**
 * The repository and e2e suites' environment: Node's, plus a database and Redis prefix for each Jest worker (cloned
 * from the run's migrated template, test/support/worker-resources.ts) so that suites running side by side never see
 * each other's leases, rows or keys, and the worker's shared stacks (test/support/shared-stacks.ts).
 */
export default class WorkerEnvironment extends TestEnvironment {
  private readonly scope: WorkerScope | null;

  constructor(config: JestEnvironmentConfig, context: EnvironmentContext) {
    super(config, context);
    this.scope = workerScope();
  }

  override async setup(): Promise<void> {
    await super.setup();
    const { scope } = this;
    if (!scope) return;
    await cloneTemplate(scope, new URL(scope.databaseUrl).pathname.slice(1));
    const env = {
      DATABASE_URL: scope.databaseUrl,
      QUEUE_PREFIX: scope.queuePrefix,
      ...(process.env.TEST_PGBOUNCER_URL ? { TEST_PGBOUNCER_URL: pgbouncerUrl(process.env.TEST_PGBOUNCER_URL, scope) } : {}),
    };
    // Both: the sandbox's copy (what suites read) and this process's own (what a child spawned without `env` inherits).
    Object.assign(process.env, env);
    Object.assign(this.global.process.env, env, {
      TEST_RUN_DATABASE_URL: process.env.TEST_RUN_DATABASE_URL,
      TEST_RUN_QUEUE_PREFIX: process.env.TEST_RUN_QUEUE_PREFIX,
    });
    stacks ??= new SharedStacks(scope);
    const handle: SharedStacksHandle = stacks;
    this.global.__sharedStacks = handle;
  }
}

/** PgBouncer in front of the same server: the worker's database through it. */
function pgbouncerUrl(url: string, scope: WorkerScope): string {
  const parsed = new URL(url);
  parsed.pathname = new URL(scope.databaseUrl).pathname;
  return parsed.toString();
}
