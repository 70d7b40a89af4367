import { spawnApp } from '../../support/processes';
import { watchConsole } from './dashboard';
import { GENEROUS_LIMITS, expect, test as base } from './fixtures';
import { GatewayClient } from './gateway-client';

export interface ConsoleFixtures {
  /**
   * Every console error and uncaught page error fails the test. A test that provokes a refusal on purpose (a wrong
   * password, a link already used) allows that status from that route just before provoking it.
   */
  allowFailedRequest: (status: number, path: string) => void;
}

/**
 * The console journeys' test: their own API and worker (webhooks may reach a local receiver on 127.0.0.1), with
 * `env` added to both, and no console error on the test's page unless the test allowed it.
 */
export function consoleTest(env: Record<string, string> = {}) {
  return base.extend<ConsoleFixtures>({
    gateway: [
      // eslint-disable-next-line no-empty-pattern
      async ({}, use) => {
        const appEnv = { ...GENEROUS_LIMITS, WEBHOOK_ALLOWED_HOSTS: '127.0.0.1', ...env };
        const [api, worker] = await Promise.all([spawnApp('api', appEnv), spawnApp('worker', appEnv)]);
        try {
          await use({ apiUrl: api.url, workerUrl: worker.url, client: new GatewayClient(api.url), api, worker });
        } finally {
          await Promise.all([api.stop(), worker.stop()]);
        }
      },
      { scope: 'worker', timeout: 120_000 },
    ],
    allowFailedRequest: [
      async ({ page }, use) => {
        const console = watchConsole(page);
        await use(console.allow);
        expect(console.unexpected()).toEqual([]);
      },
      { auto: true },
    ],
  });
}
