// The frame of the benches that start the built worker themselves (density.mjs, real-driver.mjs): a throw-away
// database and Redis prefix on the servers DATABASE_URL / REDIS_URL name (else the local defaults, else private ones
// under .test-tmp), the environment their children run with, a database client, the migration, a child's resident
// memory, and the cleanup at the end. Built on scripts/lib/services.mjs.
import { spawnSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import pg from 'pg';
import { createDatabase, deleteRedisPrefix, dropDatabase, ensurePostgres, ensureRedis, withDatabase } from '../scripts/lib/services.mjs';

export const root = resolve(import.meta.dirname, '..');

/**
 * A fresh database and Redis key prefix. `env` is this process's environment with them, a fresh admin key and
 * encryption key, and `extraEnv`; `migrate()` applies prisma/migrations; `dispose()` removes all of it.
 */
export async function scratchServices(extraEnv) {
  const tag = randomBytes(4).toString('hex');
  const postgres = await ensurePostgres({
    url: [process.env.DATABASE_URL, 'postgresql://postgres@127.0.0.1:5432/postgres'].filter(Boolean),
    dataDir: join(root, '.test-tmp/pg'),
  });
  const redis = await ensureRedis({
    url: [process.env.REDIS_URL, 'redis://127.0.0.1:6379'].filter(Boolean),
    dir: join(root, '.test-tmp/redis'),
  });
  const database = `mgw_bench_${tag}`;
  const prefix = `mgwbench${tag}`;
  await createDatabase(postgres.url, database);
  const databaseUrl = withDatabase(postgres.url, database);
  const adminKey = randomBytes(24).toString('hex');
  const env = {
    ...process.env,
    DATABASE_URL: databaseUrl,
    REDIS_URL: redis.url,
    QUEUE_PREFIX: prefix,
    ADMIN_API_KEY: adminKey,
    ENCRYPTION_KEY: randomBytes(32).toString('base64'),
    ...extraEnv,
  };
  const db = new pg.Client({ connectionString: databaseUrl });
  return {
    env,
    adminKey,
    db,
    migrate() {
      const run = spawnSync(process.execPath, [join(root, 'scripts/migrate.mjs')], { env, stdio: 'inherit' });
      if (run.status !== 0) throw new Error('migration failed');
    },
    async dispose() {
      await db.end().catch(() => {});
      await dropDatabase(postgres.url, database).catch(() => {});
      await deleteRedisPrefix(redis.url, prefix).catch(() => {});
      await postgres.stop?.();
      await redis.stop?.();
    },
  };
}

/** The resident memory of process `pid` in KiB, read after waiting `settleMs` for it to settle. */
export async function settledRssKb(pid, settleMs) {
  await sleep(settleMs);
  const line = readFileSync(`/proc/${pid}/status`, 'utf8')
    .split('\n')
    .find((l) => l.startsWith('VmRSS:'));
  return Number(line.replace(/\D/g, ''));
}

/** A function that sends `child` SIGTERM and resolves when it has exited. */
export function stopper(child) {
  return () => new Promise((done) => (child.exitCode !== null ? done() : (child.once('exit', done), child.kill('SIGTERM'))));
}
