import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import type { Page } from '@playwright/test';
import { spawnApp } from '../support/processes';
import { WebhookReceiver } from '../support/webhook-receiver';
import { collectConsoleErrors, pairedSandboxInstance, signedInCustomer } from './support/dashboard';
import { GENEROUS_LIMITS, expect, test as base } from './support/fixtures';
import { GatewayClient } from './support/gateway-client';

const run = promisify(execFile);

// Like the dashboard tests: their own API and worker, so the webhook test may reach the local receiver.
const test = base.extend<{ consoleErrors: string[] }>({
  gateway: [
    // eslint-disable-next-line no-empty-pattern
    async ({}, use) => {
      const env = { ...GENEROUS_LIMITS, WEBHOOK_ALLOWED_HOSTS: '127.0.0.1' };
      const [api, worker] = await Promise.all([spawnApp('api', env), spawnApp('worker', env)]);
      try {
        await use({ apiUrl: api.url, workerUrl: worker.url, client: new GatewayClient(api.url), api, worker });
      } finally {
        await Promise.all([api.stop(), worker.stop()]);
      }
    },
    { scope: 'worker', timeout: 120_000 },
  ],
  consoleErrors: [
    async ({ page }, use) => {
      const errors = collectConsoleErrors(page);
      await use(errors);
      expect(errors).toEqual([]);
    },
    { auto: true },
  ],
});

let phones = 0;
/** Phones 1555097xxxx: this file's own range inside the browser tier's 155509xxxxx. */
const nextPhone = () => `1555097${String((phones += 1)).padStart(4, '0')}`;

const dashboard = (page: Page, apiUrl: string, path = '') => page.goto(`${apiUrl}/dashboard/${path}`);

/** Opens every "Show as curl" on the page and returns the commands shown. */
async function curlSnippets(page: Page): Promise<string[]> {
  const summaries = page.getByText('Show as curl', { exact: true });
  await expect(summaries.first()).toBeVisible();
  for (const summary of await summaries.all()) await summary.click();
  const commands = page.getByLabel('curl command', { exact: true });
  await expect(commands).toHaveCount(await summaries.count());
  return commands.allTextContents();
}

/** Runs a snippet as pasted into bash, with the customer key in MGW_API_KEY; answers curl's HTTP status and output. */
async function runSnippet(snippet: string, apiKey: string): Promise<{ snippet: string; status: string }> {
  const { stdout } = await run('bash', ['-c', `${snippet} -sS -o /dev/null -w '%{http_code}'`], {
    env: { PATH: process.env.PATH, MGW_API_KEY: apiKey },
    timeout: 15_000,
  });
  return { snippet, status: stdout.trim() };
}

test.describe('Console', () => {
  test('every "Show as curl" snippet, pasted into bash with MGW_API_KEY set, answers 2xx', async ({ page, context, gateway }) => {
    test.setTimeout(120_000);
    const receiver = await WebhookReceiver.start();
    try {
      const customer = await signedInCustomer(gateway.client, context, 'curl');
      const key = { 'X-Api-Key': customer.customerKey };
      const paired = await pairedSandboxInstance(gateway.client, customer.customerKey, nextPhone());
      // Connected: its pairing page offers "log out", which ends the pairing; the other pages use `paired`.
      const leaving = await pairedSandboxInstance(gateway.client, customer.customerKey, nextPhone());
      const unpaired = (await gateway.client.expectStatus(
        201,
        gateway.client.post('/account/instances', { name: 'Unpaired', sandbox: true }, key),
      )) as { id: string };
      await gateway.client.expectStatus(
        204,
        gateway.client.request(
          'PUT',
          `/account/instances/${paired.id}/settings`,
          { useCustomDefaults: false, webhookUrl: receiver.url('/hooks') },
          key,
        ),
      );
      await gateway.client.expectStatus(
        201,
        gateway.client.post('/sandbox/inbound', { from: '14155550142', type: 'text', text: 'Hello there' }, paired.headers),
      );

      const pages: Array<{ path: string; prepare?: () => Promise<void> }> = [
        { path: '', prepare: () => page.getByLabel('Instance name').fill('From curl') },
        { path: `instances/${paired.id}` },
        {
          path: `instances/${unpaired.id}/pairing`,
          prepare: async () => {
            await expect(page.getByRole('img', { name: 'Pairing QR code' })).toBeVisible();
            await page.getByLabel('Phone number (international)').fill(`+${nextPhone()}`);
          },
        },
        { path: `instances/${leaving.id}/pairing`, prepare: () => expect(page.getByRole('heading', { name: 'Connected' })).toBeVisible() },
        { path: `instances/${paired.id}/compose`, prepare: () => page.getByLabel('Message text').fill('Your table is ready') },
        {
          path: `instances/${paired.id}/events`,
          prepare: async () => {
            const event = page.getByRole('list', { name: 'Events' }).getByRole('button', { name: /Hello there/ });
            await event.click();
            await expect(page.getByRole('region', { name: 'Webhook deliveries' })).toBeVisible();
          },
        },
        { path: `instances/${paired.id}/webhooks`, prepare: () => expect(page.getByLabel('Webhook URL')).toBeVisible() },
        { path: `instances/${paired.id}/phone` },
        { path: 'team', prepare: () => page.getByLabel("Teammate's email").fill('curl-teammate@example.com') },
        // Last: one of its snippets rotates the customer key the others are run with.
        { path: 'account', prepare: () => expect(page.getByRole('heading', { name: 'Customer defaults' })).toBeVisible() },
      ];
      const results: Array<{ snippet: string; status: string }> = [];
      let count = 0;
      for (const entry of pages) {
        await dashboard(page, gateway.apiUrl, entry.path);
        await entry.prepare?.();
        const snippets = await curlSnippets(page);
        count += snippets.length;
        // The key rotation goes last: after it, MGW_API_KEY no longer works.
        snippets.sort((a, b) => Number(a.includes('/apikey/rotate')) - Number(b.includes('/apikey/rotate')));
        for (const snippet of snippets) results.push(await runSnippet(snippet, customer.customerKey));
      }
      expect(count).toBeGreaterThanOrEqual(16);
      expect(results.filter((result) => !/^2\d\d$/.test(result.status))).toEqual([]);
    } finally {
      await receiver.close();
    }
  });
});
