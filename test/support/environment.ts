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

/** Generous abuse limits, so suites only meet the limits they test. */
export const TEST_ABUSE_LIMITS = { RATE_LIMIT_REQUESTS: '100000', AUTH_FAILURE_LIMIT: '100000' };

/** The run's configuration with generous abuse limits, plus `env` read as the apps read their environment. */
export function testConfig(overrides: Partial<AppConfig> = {}, env: Record<string, string> = {}): AppConfig {
  const base = loadConfig({
    ...testEnv(),
    PORT: '0',
    WORKER_HEALTH_PORT: '1',
    LOG_LEVEL: process.env.TEST_LOG_LEVEL ?? 'silent',
    ...TEST_ABUSE_LIMITS,
    ...env,
  });
  return Object.freeze({ ...base, ...overrides });
}
