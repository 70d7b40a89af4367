import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import type { Page } from '@playwright/test';
import { WebhookReceiver } from '../support/webhook-receiver';
import { collectConsoleErrors, pairedSandboxInstance, signedInCustomer } from './support/dashboard';
import { consoleTest } from './support/console-test';
import { expect } from './support/fixtures';

const run = promisify(execFile);

// Like the dashboard tests: their own API and worker, so the webhook test may reach the local receiver.
const test = consoleTest();

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
  test('sets an outbound proxy, shows it with the password masked, and shows why a real instance behind a dead proxy is down', async ({
    page,
    context,
    gateway,
    allowFailedRequest,
  }) => {
    const customer = await signedInCustomer(gateway.client, context, 'proxy');
    const customerKey = { 'X-Api-Key': customer.customerKey };
    const created = (await gateway.client.expectStatus(
      201,
      gateway.client.post('/account/instances', { name: 'Behind a proxy', sandbox: false }, customerKey),
    )) as { id: string };
    // Its own settings, so its own proxy applies (while it follows the customer defaults, the default proxy does).
    await gateway.client.expectStatus(
      204,
      gateway.client.request('PUT', `/account/instances/${created.id}/settings`, { useCustomDefaults: false }, customerKey),
    );

    await dashboard(page, gateway.apiUrl, `instances/${created.id}`);
    const proxyField = page.getByLabel('Proxy URL');
    allowFailedRequest(400, `/account/instances/${created.id}/settings`);
    await proxyField.fill('ftp://127.0.0.1:21');
    await page.getByRole('button', { name: 'Save proxy' }).click();
    await expect(page.getByText('validation error: proxyUrl must use one of the schemes http, socks5')).toBeVisible();

    // Nothing listens on port 9 of loopback: the proxy is dead.
    await proxyField.fill('http://bob:pw-secret-1@127.0.0.1:9');
    await page.getByRole('button', { name: 'Save proxy' }).click();
    await expect(page.getByRole('status').filter({ hasText: 'Proxy saved' })).toBeVisible();
    await expect(proxyField).toHaveValue('http://bob:…@127.0.0.1:9');
    expect(await page.content()).not.toContain('pw-secret-1');
    expect((await gateway.client.get(`/account/instances/${created.id}`, customerKey)).body).toMatchObject({
      settings: { proxyUrl: 'http://bob:…@127.0.0.1:9' },
    });

    // A QR code needs the network: the connection through the dead proxy fails, and the overview says why.
    const qr = await gateway.client.get('/session/qr/text', { ...customerKey, 'X-Instance-Id': created.id });
    expect(qr).toEqual({ status: 503, body: { status: 503, detail: 'instance not available' } });
    await page.reload();
    await expect(page.getByRole('alert').filter({ hasText: 'proxy_unreachable' })).toContainText('The proxy cannot be reached');
    await page.screenshot({ path: '.test-tmp/browser/outbound-proxy-overview.png', fullPage: true });

    await page.getByRole('button', { name: 'Remove proxy' }).click();
    await expect(proxyField).toHaveValue('');
  });

  test('every "Show as curl" snippet, pasted into bash with MGW_API_KEY set, answers 2xx', async ({
    page,
    context,
    gateway,
    allowFailedRequest,
  }) => {
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
            // Its snippets pair the instance from outside, as a phone would: a QR poll already on its way is then
            // refused (400, paired) before the status push reaches the page.
            allowFailedRequest(400, '/session/qr/text');
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
  test('ten console tabs open at once: each loads without waiting for another and each receives a live update', async ({
    page,
    context,
    gateway,
  }) => {
    test.setTimeout(120_000);
    const customer = await signedInCustomer(gateway.client, context, 'tabs');
    const instance = await pairedSandboxInstance(gateway.client, customer.customerKey, nextPhone());
    const waiting = (await gateway.client.expectStatus(
      201,
      gateway.client.post('/account/instances', { name: 'Waiting line', sandbox: true }, { 'X-Api-Key': customer.customerKey }),
    )) as { id: string };
    // Warm the browser cache the way a returning user's is: the first tab loads the assets.
    await dashboard(page, gateway.apiUrl);
    await expect(page.getByRole('list', { name: 'Instances' })).toContainText('Waiting line');

    const tabs: Array<{ page: Page; kind: 'events' | 'instances'; loadMs: number }> = [];
    for (let index = 0; index < 10; index += 1) {
      const tab = await context.newPage();
      const errors = collectConsoleErrors(tab);
      const kind = index % 2 === 0 ? 'events' : 'instances';
      const started = Date.now();
      await dashboard(tab, gateway.apiUrl, kind === 'events' ? `instances/${instance.id}/events` : '');
      if (kind === 'events') await expect(tab.getByText('Live', { exact: true })).toBeVisible({ timeout: 5_000 });
      else await expect(tab.getByRole('list', { name: 'Instances' })).toContainText('Waiting line', { timeout: 5_000 });
      tabs.push({ page: tab, kind, loadMs: Date.now() - started });
      expect(errors).toEqual([]);
    }
    console.log(`tab load times (ms): ${tabs.map((tab) => tab.loadMs).join(', ')}`);

    // Updates made after all ten are open reach every one of them.
    await gateway.client.expectStatus(
      201,
      gateway.client.post('/sandbox/inbound', { from: '14155550142', type: 'text', text: 'Are you open on Sunday?' }, instance.headers),
    );
    await gateway.client.expectStatus(
      200,
      gateway.client.post('/sandbox/pair', { phone: nextPhone() }, { 'X-Api-Key': customer.customerKey, 'X-Instance-Id': waiting.id }),
    );
    for (const tab of tabs) {
      if (tab.kind === 'events') {
        await expect(
          tab.page.getByRole('list', { name: 'Events' }).getByRole('button', { name: /Are you open on Sunday\?/ }),
        ).toBeVisible();
      } else {
        const row = tab.page.getByRole('list', { name: 'Instances' }).getByRole('listitem').filter({ hasText: 'Waiting line' });
        await expect(row).toContainText('Connected');
      }
    }
    // No tab waited for a connection another tab held (before the one socket per tab, the fourth never loaded). The
    // goal of under a second per tab is a figure, not an assertion: on this shared two-core machine the same build
    // measures 0.7 to 1.2 s with ten tabs and the gateway on it; the times are printed above.
    expect(tabs.filter((tab) => tab.loadMs >= 3_000).map((tab) => `${tab.kind}: ${tab.loadMs} ms`)).toEqual([]);
  });

  test('a hidden tab holds no live connection and catches up with what it missed when shown again', async ({ page, context, gateway }) => {
    const customer = await signedInCustomer(gateway.client, context, 'hidden');
    const instance = await pairedSandboxInstance(gateway.client, customer.customerKey, nextPhone());
    const sockets: Array<{ closed: boolean }> = [];
    page.on('websocket', (socket) => {
      const entry = { closed: false };
      sockets.push(entry);
      socket.on('close', () => (entry.closed = true));
    });
    await dashboard(page, gateway.apiUrl, `instances/${instance.id}/events`);
    await expect(page.getByText('Live', { exact: true })).toBeVisible();
    expect(sockets.map((socket) => socket.closed)).toEqual([false]);

    // What the browser does when the tab goes to the background and comes back.
    const setVisibility = (state: 'hidden' | 'visible') =>
      page.evaluate(
        `Object.defineProperty(document, 'visibilityState', { configurable: true, get: () => '${state}' });` +
          `document.dispatchEvent(new Event('visibilitychange'));`,
      );
    await setVisibility('hidden');
    await expect.poll(() => sockets.every((socket) => socket.closed)).toBe(true);
    await gateway.client.expectStatus(
      201,
      gateway.client.post('/sandbox/inbound', { from: '14155550142', type: 'text', text: 'Sent while you were away' }, instance.headers),
    );
    await setVisibility('visible');
    await expect(page.getByRole('list', { name: 'Events' }).getByRole('button', { name: /Sent while you were away/ })).toBeVisible();
    expect(sockets.filter((socket) => !socket.closed)).toHaveLength(1);
  });
  test('each created instance keeps its own one-time key card, named, until dismissed; an empty name is said to be generated', async ({
    page,
    context,
    gateway,
  }) => {
    await signedInCustomer(gateway.client, context, 'key cards');
    await dashboard(page, gateway.apiUrl);
    await expect(page.getByText('Optional: left empty, a name such as instance-6jpjzw is generated.')).toBeVisible();
    await page.getByLabel('Instance name').fill('Front desk');
    await page.getByRole('button', { name: 'Create instance' }).click();
    const first = page.getByRole('region', { name: 'API key of Front desk' });
    await expect(first.getByRole('heading', { name: 'API key of Front desk' })).toBeVisible();
    const firstKey = (await first.locator('code').textContent()) ?? '';
    expect(firstKey).toMatch(/\S{20,}/);

    // A second instance, no name given: the first card stays, the second says its name was generated.
    await page.getByRole('button', { name: 'Create instance' }).click();
    const generated = page.getByRole('region', { name: /^API key of instance-/ });
    await expect(generated).toContainText(/No name was given, so the instance was named instance-\S+; rename it on its page\./);
    await expect(first.locator('code')).toHaveText(firstKey);
    await expect(page.getByRole('region', { name: /^API key of / })).toHaveCount(2);

    await first.getByRole('button', { name: 'I have stored it' }).click();
    await expect(first).toHaveCount(0);
    await expect(generated).toBeVisible();
  });

  test('after Save, the webhook page drops "New secret, not saved yet" and the stale test refusal without a reload', async ({
    page,
    context,
    gateway,
    allowFailedRequest,
  }) => {
    const receiver = await WebhookReceiver.start();
    try {
      const customer = await signedInCustomer(gateway.client, context, 'webhook save');
      const instance = await pairedSandboxInstance(gateway.client, customer.customerKey, nextPhone());
      await dashboard(page, gateway.apiUrl, `instances/${instance.id}/webhooks`);
      await page.getByLabel('Use customer defaults').uncheck();
      allowFailedRequest(400, '/webhook/test');
      await page.getByRole('button', { name: 'Send test event' }).click();
      const refusal = page.getByRole('region', { name: 'Send a test event' }).getByRole('alert');
      await expect(refusal).toContainText('no webhook URL');

      await page.getByLabel('Webhook URL').fill(receiver.url('/hooks'));
      await page.getByRole('button', { name: 'Generate signing secret' }).click();
      await expect(page.getByText('New secret, not saved yet')).toBeVisible();
      await page.getByRole('button', { name: 'Save settings' }).click();
      await expect(page.getByText('Saved', { exact: true })).toBeVisible();
      await expect(page.getByText('New secret, not saved yet')).toHaveCount(0);
      await expect(page.getByText('A secret is set')).toBeVisible();
      await expect(refusal).toHaveCount(0);
    } finally {
      await receiver.close();
    }
  });
});
