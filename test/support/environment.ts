import { randomBytes } from 'node:crypto';
import { loadConfig, type AppConfig } from '@app/config';

/** What scripts/test.mjs prepared for this run: a fresh database, a Redis queue prefix and secrets. */
export function testEnv(): Record<string, string> {
  const env: Record<string, string> = {};
  for (const name of ['DATABASE_URL', 'REDIS_URL', 'QUEUE_PREFIX', 'ADMIN_API_KEY', 'ENCRYPTION_KEY', 'TEST_PG_SERVER_URL']) {
    const value = process.env[name];
    if (!value) throw new Error(`${name} is not set: run the tests with \`npm test\``);
    env[name] = value;
  }
  return env;
}

/** A unique Redis prefix below the run's prefix, so one suite's counters never meet another's. */
export function subPrefix(label: string): string {
  return `${testEnv().QUEUE_PREFIX}_${label}_${randomBytes(3).toString('hex')}`;
}

/** The run's configuration with generous abuse limits, so suites only meet the limits they test. */
export function testConfig(overrides: Partial<AppConfig> = {}): AppConfig {
  const base = loadConfig({
    ...testEnv(),
    PORT: '0',
    WORKER_HEALTH_PORT: '1',
    LOG_LEVEL: process.env.TEST_LOG_LEVEL ?? 'silent',
    RATE_LIMIT_REQUESTS: '100000',
    AUTH_FAILURE_LIMIT: '100000',
  });
  return Object.freeze({ ...base, ...overrides });
}
