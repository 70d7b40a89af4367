import { Client } from 'pg';

// Loaded by the Jest test environment (test/support/jest-environment.ts) outside the test sandbox: no `@app/*` imports.

/**
 * What scripts/test.mjs prepares for parallel Jest: `TEST_DATABASE_TEMPLATE` names a migrated database that each Jest
 * worker clones into a database of its own (`CREATE DATABASE … TEMPLATE`), and `TEST_PHASE` tells the runs of one
 * `npm test` apart (unit, parallel e2e, serial e2e), so no phase inherits another's leases. Each worker also gets its own
 * Redis key prefix below the run's. Without them (jest started by hand), every suite uses DATABASE_URL and
 * QUEUE_PREFIX as given.
 */
export interface WorkerScope {
  /** The PostgreSQL server, `postgres` database: where databases are created. */
  serverUrl: string;
  template: string;
  /** e.g. `e2` for the second worker of the parallel e2e phase. */
  scope: string;
  queuePrefix: string;
  databaseUrl: string;
}

export function workerScope(env: NodeJS.ProcessEnv = process.env): WorkerScope | null {
  const template = env.TEST_DATABASE_TEMPLATE;
  // The run's values, kept before the first scoping replaces DATABASE_URL and QUEUE_PREFIX in this process.
  env.TEST_RUN_DATABASE_URL ??= env.DATABASE_URL;
  env.TEST_RUN_QUEUE_PREFIX ??= env.QUEUE_PREFIX;
  const runDatabaseUrl = env.TEST_RUN_DATABASE_URL;
  if (!template || !runDatabaseUrl || !env.TEST_RUN_QUEUE_PREFIX) return null;
  const scope = `${env.TEST_PHASE ?? 'j'}${env.JEST_WORKER_ID ?? '1'}`;
  return {
    serverUrl: databaseUrl(runDatabaseUrl, 'postgres'),
    template,
    scope,
    queuePrefix: `${env.TEST_RUN_QUEUE_PREFIX}${scope}`,
    databaseUrl: databaseUrl(runDatabaseUrl, `${template}_${scope}`),
  };
}

/** `url` pointing at the database `name` instead. */
export function databaseUrl(url: string, name: string): string {
  const parsed = new URL(url);
  parsed.pathname = `/${name}`;
  return parsed.toString();
}

const created = new Map<string, Promise<void>>();

/**
 * Creates `name` as a copy of the template, once per process. The template must have no open connection while it is
 * copied (PostgreSQL refuses with 55006); nothing connects to it after its migration, but a concurrent copy by another
 * worker briefly counts as one, so that answer is retried.
 */
export function cloneTemplate(scope: WorkerScope, name: string): Promise<void> {
  let done = created.get(name);
  if (!done) {
    done = copyTemplate(scope, name);
    created.set(name, done);
    done.catch(() => created.delete(name));
  }
  return done;
}

async function copyTemplate({ serverUrl, template }: WorkerScope, name: string): Promise<void> {
  const deadline = Date.now() + 30_000;
  for (;;) {
    const client = new Client({ connectionString: serverUrl });
    await client.connect();
    try {
      await client.query(`CREATE DATABASE "${name}" TEMPLATE "${template}"`);
      return;
    } catch (error) {
      const code = (error as { code?: string }).code;
      if (code === '42P04') return; // an earlier process of this phase made it
      if (code !== '55006' || Date.now() > deadline) throw error;
    } finally {
      await client.end();
    }
    await new Promise((resolve) => setTimeout(resolve, 100 + Math.random() * 200));
  }
}
