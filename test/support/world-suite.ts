import type { AppConfig } from '@app/config';
import { TEST_ABUSE_LIMITS, testConfig } from './environment';
import { Http } from './http';
import { createInstanceWorld, type InstanceWorld } from './instance-world';
import { useServedOpenApi } from './openapi';
import { spawnApp, type AppProcess } from './processes';
import type { SharedStacksHandle } from './shared-stacks';

declare global {
  /** Set by the Jest test environment (test/support/jest-environment.ts) when scripts/test.mjs runs the suites. */
  var __sharedStacks: SharedStacksHandle | undefined;
}

/** The gateway's API as a world suite sees it: a process of its own, reached over HTTP. */
export interface WorldApi {
  url: string;
  config: AppConfig;
}

export interface WorldSuite {
  api: WorldApi;
  http: Http;
  world: InstanceWorld;
}

/** What a suite needs of its API and worker beyond the tests' defaults: environment settings for both processes. */
export interface WorldSettings {
  /** Names the shared stack with these settings: 1 to 16 lower-case letters or digits. */
  key: string;
  env: Record<string, string>;
}

/**
 * Booting a stack starts two Node processes; with every Jest worker booting its own at the start of a run, on two
 * cores, that alone has taken most of a minute.
 */
const WORLD_SETUP_MS = 180_000;

const DEFAULTS: WorldSettings = { key: 'default', env: {} };

/** Lets the API and the worker fetch media from loopback, which production refuses (the operator's allow-list). */
export const LOOPBACK_MEDIA: WorldSettings = { key: 'loopback', env: { WEBHOOK_ALLOWED_HOSTS: '127.0.0.1' } };

/**
 * The usual set-up of a resource group's suite: an API and a worker, responses checked against the served OpenAPI
 * document, and an instance world (phones from `prefix`, unique per suite). `ready` receives them before the tests run.
 *
 * Under `npm test` the API and worker are the Jest worker's shared stack for these settings (test/support/shared-stacks.ts):
 * booted once and used by every world suite the worker runs, since none of them stops, restarts or reconfigures its
 * gateway. The suite's own reads of PostgreSQL and Redis (testEnv()) then go to that stack's database and prefix. Jest
 * started by hand boots a pair for the suite.
 */
export function useInstanceWorld(prefix: string, ready: (suite: WorldSuite) => void, settings: WorldSettings = DEFAULTS): void {
  const shared = globalThis.__sharedStacks;
  if (shared) {
    const { databaseUrl, queuePrefix } = shared.address(settings.key);
    // Marks the suite for test/support/between-suites.ts, which must not expire the shared worker's leases.
    Object.assign(process.env, { DATABASE_URL: databaseUrl, QUEUE_PREFIX: queuePrefix, TEST_SHARED_STACK: settings.key });
  }
  let own: AppProcess[] = [];

  beforeAll(async () => {
    const env = { api: { ...TEST_ABUSE_LIMITS, ...settings.env }, worker: settings.env };
    let url: string;
    if (shared) {
      ({ apiUrl: url } = await shared.start(settings.key, env));
    } else {
      own = await Promise.all([spawnApp('api', env.api), spawnApp('worker', env.worker)]);
      url = own[0].url;
    }
    const api = { url, config: testConfig({}, settings.env) };
    const http = new Http(url);
    await useServedOpenApi(url);
    ready({ api, http, world: await createInstanceWorld(http, prefix) });
  }, WORLD_SETUP_MS);

  afterAll(async () => {
    await Promise.all(own.map((app) => app.stop()));
  });
}
