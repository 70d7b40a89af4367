import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { defineConfig } from '@playwright/test';
import { BROWSER_OUTPUT_DIR, chromiumPath } from './support/paths';

/**
 * The browser tier: Playwright Test driving the machine's Chromium (Playwright's own browser download is not used)
 * against the built API and worker, with the database and Redis prefix that scripts/test.mjs prepares.
 * Run it with `npm test -- --browser` (see README, Development).
 */
const executablePath = chromiumPath();
if (!existsSync(executablePath)) {
  throw new Error(`no Chromium at ${executablePath}: install it (apt-get install -y chromium) or set CHROMIUM_PATH`);
}
// Chromium refuses its sandbox as root (CI and these machines run as root); elsewhere it keeps it.
const runningAsRoot = process.getuid?.() === 0;

export default defineConfig({
  testDir: '.',
  testMatch: '**/*.browser.ts',
  outputDir: join(BROWSER_OUTPUT_DIR, 'results'),
  // One worker: the machine is small, and each worker runs its own API and worker processes.
  workers: 1,
  fullyParallel: false,
  forbidOnly: true,
  retries: 0,
  timeout: 60_000,
  expect: { timeout: 10_000 },
  reporter: [['list'], ...(process.env.BROWSER_RESULTS_FILE ? [['json', { outputFile: process.env.BROWSER_RESULTS_FILE }] as const] : [])],
  use: {
    browserName: 'chromium',
    headless: true,
    viewport: { width: 1280, height: 900 },
    screenshot: 'only-on-failure',
    trace: 'off',
    launchOptions: { executablePath, args: runningAsRoot ? ['--no-sandbox'] : [] },
  },
});
