import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { test as base, type Locator, type Page } from '@playwright/test';
import { spawnApp, type AppProcess } from '../../support/processes';
import { GatewayClient, type SandboxAccount } from './gateway-client';
import { SCREENSHOTS_DIR } from './paths';

/** The built API and worker, started once per Playwright worker against the run's database and Redis prefix. */
export interface Gateway {
  apiUrl: string;
  workerUrl: string;
  client: GatewayClient;
  api: AppProcess;
  worker: AppProcess;
}

/**
 * Saves a screenshot as `<SCREENSHOTS_DIR>/<test title>--<name>.png` and attaches it to the report: the whole page by
 * default, or just one element (a locator) such as a panel or dialog.
 */
export type SaveScreenshot = (name: string, target?: Page | Locator) => Promise<string>;

interface TestFixtures {
  /** A fresh customer with a sandbox instance paired to a phone no other test uses, link up. */
  account: SandboxAccount;
  saveScreenshot: SaveScreenshot;
}

interface WorkerFixtures {
  gateway: Gateway;
}

const slug = (text: string) =>
  text
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-|-$/g, '');

/** The same generous abuse limits as the Jest suites: this tier meets only the limits it tests, however fast it runs. */
export const GENEROUS_LIMITS = { RATE_LIMIT_REQUESTS: '100000', AUTH_FAILURE_LIMIT: '100000' };

let accounts = 0;

export const test = base.extend<TestFixtures, WorkerFixtures>({
  gateway: [
    // Playwright reads the fixtures a fixture needs from its first parameter, which must be a destructuring pattern.
    // eslint-disable-next-line no-empty-pattern
    async ({}, use) => {
      const [api, worker] = await Promise.all([spawnApp('api', GENEROUS_LIMITS), spawnApp('worker', GENEROUS_LIMITS)]);
      try {
        await use({ apiUrl: api.url, workerUrl: worker.url, client: new GatewayClient(api.url), api, worker });
      } finally {
        await Promise.all([api.stop(), worker.stop()]);
      }
    },
    { scope: 'worker', timeout: 120_000 },
  ],

  account: async ({ gateway }, use, testInfo) => {
    // Phones 155509xxxxx belong to the browser tier (the Jest suites use 15550[0-3]...), one per test.
    accounts += 1;
    const phone = `155509${String((testInfo.workerIndex % 10) * 10_000 + accounts).padStart(5, '0')}`;
    await use(await gateway.client.sandboxAccount(`Browser ${testInfo.title}`.slice(0, 100), phone));
  },

  saveScreenshot: async ({ page }, use, testInfo) => {
    mkdirSync(SCREENSHOTS_DIR, { recursive: true });
    await use(async (name, target = page) => {
      const path = join(SCREENSHOTS_DIR, `${slug(testInfo.titlePath.slice(1).join(' '))}--${slug(name)}.png`);
      if ('goto' in target) await target.screenshot({ path, fullPage: true });
      else await target.screenshot({ path });
      await testInfo.attach(name, { path, contentType: 'image/png' });
      return path;
    });
  },
});

export { expect } from '@playwright/test';
