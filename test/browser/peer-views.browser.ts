import type { Page } from '@playwright/test';
import { WebhookReceiver } from '../support/webhook-receiver';
import { pairedSandboxInstance, signedInCustomer } from './support/dashboard';
import { consoleTest } from './support/console-test';
import { expect, type SaveScreenshot } from './support/fixtures';

// Own API and worker: webhooks may reach the local receiver, and a refused delivery fails at once (no retries), so
// the event log and the chart show a failure within moments.
const test = consoleTest({ WEBHOOK_RETRY_SCHEDULE: '0' });

const ANN = '447700900123';
const BOB = '447700900456';
/** A 1×1 PNG. */
const PNG = Buffer.from('iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk+M9QDwADhgGAWjR9awAAAABJRU5ErkJggg==', 'base64');

interface OutboxEntry {
  id: string;
  to: string;
  type: string;
  content: Record<string, unknown>;
}

/** The page fits its width: nothing pushes it sideways. */
async function expectNoOverflow(page: Page): Promise<void> {
  // Runs in the page; the string keeps the DOM globals out of this Node-typed file.
  const widths = await page.evaluate<{ scroll: number; view: number }>(
    '({ scroll: document.documentElement.scrollWidth, view: window.innerWidth })',
  );
  expect(widths.scroll).toBeLessThanOrEqual(widths.view);
}

/** The message id the tester reports sent. */
async function sentId(page: Page): Promise<string> {
  const status = page.getByRole('status').filter({ hasText: 'Sent: message' });
  await expect(status).toBeVisible();
  return ((await status.locator('.mono').textContent()) ?? '').trim();
}

test.describe('Peer views', () => {
  test('account, chats, message kinds, delivery health and settings', async ({ page, context, gateway, saveScreenshot }) => {
    test.setTimeout(180_000);
    const receiver = await WebhookReceiver.start();
    try {
      const customer = await signedInCustomer(gateway.client, context, 'peers');
      const phone = '15550990001';
      const instance = await pairedSandboxInstance(gateway.client, customer.customerKey, phone);
      const api = gateway.client;
      // The receiver refuses Bob's messages and takes everything else.
      receiver.script('/hooks', (hook) => {
        const data = hook.envelope.eventData as { chatId?: string; sender?: { isMe?: boolean } };
        return { status: data.chatId === `${BOB}@s.whatsapp.net` && data.sender?.isMe === false ? 500 : 200 };
      });
      await api.expectStatus(
        204,
        api.request('PUT', '/instance/settings', { useCustomDefaults: false, webhookUrl: receiver.url('/hooks') }, instance.headers),
      );

      // ---- e. behaviour settings: inline refusals, then a saved push name and privacy value that survive a reload ----
      await page.goto(`${gateway.apiUrl}/dashboard/instances/${instance.id}/settings`);
      const pushName = page.getByLabel(/^Push name/);
      await expect(pushName).toHaveValue('');
      await pushName.fill('A name far too long for the network');
      await expect(page.getByText('Push name must be 1-25 characters (now 35)')).toBeVisible();
      await expect(page.getByRole('button', { name: 'Save profile' })).toBeDisabled();
      await pushName.fill('Peer Support');
      await page.getByLabel(/^About/).fill('Here to help');
      await page.getByRole('button', { name: 'Save profile' }).click();
      await expect(page.getByRole('status').filter({ hasText: 'Profile saved' })).toBeVisible();
      await page.getByLabel('Who sees last seen').selectOption('none');
      await expect(page.getByRole('status').filter({ hasText: 'Privacy setting saved' })).toBeVisible();
      await page.reload();
      await expect(page.getByLabel(/^Push name/)).toHaveValue('Peer Support');
      await expect(page.getByLabel(/^About/)).toHaveValue('Here to help');
      await expect(page.getByLabel('Who sees last seen')).toHaveValue('none');
      expect((await api.get('/users/me/privacy', instance.headers)).body).toMatchObject({ lastSeen: 'none' });
      expect((await api.get('/users/me/profile', instance.headers)).body).toMatchObject({
        pushName: 'Peer Support',
        status: 'Here to help',
        phone,
      });

      // ---- a. the instance list shows the account's push name, number and initials ----
      await page.goto(`${gateway.apiUrl}/dashboard/`);
      const identity = page.getByLabel('Account of Support line');
      await expect(identity).toContainText('Peer Support');
      await expect(identity).toContainText(`+${phone}`);
      await expect(identity.locator('.avatar-initials')).toHaveText('PS');

      // ---- b. chats and history from messages the contacts send ----
      const inbound = (body: object) =>
        api.expectStatus(201, api.post('/sandbox/inbound', body, instance.headers)) as Promise<{ id: string }>;
      const hello = await inbound({ from: ANN, type: 'text', text: 'Hello from Ann', pushName: 'Ann Example' });
      await inbound({ from: ANN, type: 'media', media: { mediaType: 'image', mimeType: 'image/jpeg', caption: 'Our menu' } });
      await inbound({ from: BOB, type: 'text', text: 'Bob here', pushName: 'Bob Builder' });

      await page.goto(`${gateway.apiUrl}/dashboard/instances/${instance.id}/chats`);
      const chats = page.getByRole('list', { name: 'Chats' });
      const annEntry = chats.getByRole('button', { name: /Ann Example/ });
      await expect(annEntry).toContainText('Photo: Our menu');
      await expect(annEntry.getByLabel('2 unread')).toBeVisible();
      await expect(chats.getByRole('button', { name: /Bob Builder/ })).toContainText('Bob here');
      await annEntry.click();
      const history = page.getByRole('list', { name: 'Messages with Ann Example' });
      await expect(history.getByRole('listitem', { name: 'Received text message' })).toContainText('Hello from Ann');
      await expect(history.getByRole('listitem', { name: 'Received media message' })).toContainText('Our menu');
      await expect(history.getByRole('img', { name: 'Photo attachment' })).toBeVisible();

      // ---- c. the tester sends each kind; each reaches the sandbox network ----
      const outbox = async () => (await api.get('/sandbox/outbox', instance.headers)).body as OutboxEntry[];
      const sentEntry = async (id: string) => {
        let entry: OutboxEntry | undefined;
        await api.waitFor(
          async () => Boolean((entry = (await outbox()).find((candidate) => candidate.id === id))),
          `message ${id} in the outbox`,
        );
        return entry!;
      };

      // A reaction, picked from the chat history.
      await history
        .getByRole('listitem', { name: 'Received text message' })
        .getByRole('link', { name: `React to message ${hello.id}` })
        .click();
      await expect(page.getByRole('heading', { name: 'Test every kind' })).toBeVisible();
      await expect(page.getByLabel('Message id')).toHaveValue(hello.id);
      await expect(page.getByLabel('Recent messages in this chat')).toHaveValue(hello.id);
      await page.getByLabel('Emoji').fill('two words');
      await expect(page.getByText('Emoji must be one emoji, or empty to remove your reaction')).toBeVisible();
      await page.getByLabel('Emoji').fill('👍');
      await page.getByRole('button', { name: 'Send reaction' }).click();
      await sentId(page);
      // The sandbox network applies a reaction to the message it targets: Ann's message now carries the account's 👍.
      const inbox = async () => (await api.get('/sandbox/inbox', instance.headers)).body as OutboxEntry[];
      await api.waitFor(async () => {
        const target = (await inbox()).find((entry) => entry.id === hello.id);
        return JSON.stringify(target?.content.reactions) === JSON.stringify({ [`${phone}@s.whatsapp.net`]: '👍' });
      }, 'the reaction on the sandbox network');

      // An image, uploaded.
      await page.getByLabel('Image', { exact: true }).check();
      await page.getByLabel('Recipient').fill(`+${ANN}`);
      await page.getByLabel('An upload').check();
      await page.getByRole('button', { name: 'Send image' }).click();
      await expect(page.getByText('File is required: choose a file')).toBeVisible();
      await page.getByLabel(/^File/).setInputFiles({ name: 'menu.png', mimeType: 'image/png', buffer: PNG });
      await page.getByLabel(/^Caption/).fill('Menu photo');
      await page.getByText('Show as curl').click();
      await expect(page.getByLabel('curl command')).toContainText(`/messages/image`);
      await expect(page.getByLabel('curl command')).toContainText(PNG.toString('base64'));
      await page.getByRole('button', { name: 'Send image' }).click();
      const image = await sentEntry(await sentId(page));
      expect(image).toMatchObject({
        to: `${ANN}@s.whatsapp.net`,
        type: 'image',
        content: { caption: 'Menu photo', media: { mimeType: 'image/png', size: PNG.length } },
      });

      // A location: out of range first, refused inline and not sent.
      await page.getByLabel('Location', { exact: true }).check();
      const before = (await outbox()).length;
      await page.getByLabel('Latitude').fill('91');
      await expect(page.getByText('Latitude must be from -90 to 90', { exact: true })).toBeVisible();
      await page.getByRole('button', { name: 'Send location' }).click();
      await expect(page.getByRole('alert').filter({ hasText: 'Not sent' })).toContainText('latitude must be from -90 to 90');
      expect(await outbox()).toHaveLength(before);
      await page.getByLabel('Latitude').fill('51.5034');
      await page.getByLabel(/^Place name/).fill('Head office');
      await page.getByRole('button', { name: 'Send location' }).click();
      const location = await sentEntry(await sentId(page));
      expect(location).toMatchObject({ type: 'location', content: { latitude: 51.5034, longitude: -0.1276, name: 'Head office' } });

      // A contact card.
      await page.getByLabel('Contact', { exact: true }).check();
      await page.getByLabel(/^Display name/).fill('Jane Doe');
      await page.getByLabel(/^vCard/).fill('BEGIN:VCARD\nVERSION:3.0');
      await expect(page.getByText('vCard (optional) must be a vCard (BEGIN:VCARD ... END:VCARD)')).toBeVisible();
      await page.getByLabel(/^vCard/).fill('BEGIN:VCARD\nVERSION:3.0\nFN:Jane Doe\nTEL;TYPE=CELL:+447700900789\nEND:VCARD');
      await page.getByRole('button', { name: 'Send contact' }).click();
      const contact = await sentEntry(await sentId(page));
      expect(contact.type).toBe('contact');
      expect(JSON.stringify(contact.content)).toContain('Jane Doe');
      await saveScreenshot('tester contact 1280');

      // The history now shows the outgoing messages on the right, each drawn by its kind.
      await page.goto(`${gateway.apiUrl}/dashboard/instances/${instance.id}/chats?chat=${ANN}%40s.whatsapp.net`);
      await expect(history.getByRole('listitem', { name: 'Sent media message' })).toContainText('Menu photo');
      await expect(history.getByRole('listitem', { name: 'Sent location message' })).toContainText('Head office');
      await expect(history.getByRole('listitem', { name: 'Sent contact message' })).toContainText('Jane Doe');
      // Ann reacts to the photo the account sent: her reaction shows as hers, on the left.
      await inbound({ from: ANN, type: 'reaction', messageId: image.id, emoji: '❤️' });
      await expect(history.getByRole('listitem', { name: 'Received reaction message' })).toContainText('❤️');
      await expect(history.getByRole('listitem', { name: 'Received reaction message' })).toContainText(image.id);
      // After the account wrote, nothing is unread.
      await expect(annEntry.getByLabel(/unread/)).toHaveCount(0);

      // ---- d. delivery marks per event and the hourly chart ----
      await page.goto(`${gateway.apiUrl}/dashboard/instances/${instance.id}/events`);
      const events = page.getByRole('list', { name: 'Events' });
      await expect(events.getByRole('button', { name: /from 447700900456: Bob here/ })).toContainText('Failed');
      await expect(events.getByRole('button', { name: /from 447700900123: Hello from Ann/ })).toContainText('Delivered');

      const hourly = (await api.get('/events/deliveries/hourly', instance.headers)).body as {
        hours: { delivered: number; failed: number; pending: number }[];
      };
      const total = (key: 'delivered' | 'failed') => hourly.hours.reduce((sum, hour) => sum + hour[key], 0);
      expect(total('failed')).toBeGreaterThanOrEqual(1);
      await page.goto(`${gateway.apiUrl}/dashboard/instances/${instance.id}`);
      const totals = page.getByLabel('Totals over 24 hours');
      await expect(totals).toContainText(`Delivered ${total('delivered')}`);
      await expect(totals).toContainText(`Failed ${total('failed')}`);
      await expect(page.getByRole('img', { name: 'Webhook deliveries per hour' })).toBeVisible();
      await page.getByText('Show the numbers').click();
      const table = page.getByRole('table', { name: 'Webhook deliveries per hour' });
      await expect(table.getByRole('row')).toHaveCount(25);

      // ---- every view at both widths, light and dark: nothing overflows ----
      const views: { name: string; path: string; ready: () => Promise<void> }[] = [
        { name: 'instances', path: '', ready: () => expect(identity).toContainText('Peer Support') },
        {
          name: 'chats',
          path: `instances/${instance.id}/chats?chat=${ANN}%40s.whatsapp.net`,
          ready: () => expect(history.getByRole('listitem', { name: 'Sent location message' })).toBeVisible(),
        },
        { name: 'chat list', path: `instances/${instance.id}/chats`, ready: () => expect(annEntry).toBeVisible() },
        {
          name: 'tester',
          path: `instances/${instance.id}/tester`,
          ready: () => expect(page.getByRole('heading', { name: 'Test every kind' })).toBeVisible(),
        },
        {
          name: 'event log',
          path: `instances/${instance.id}/events`,
          ready: () => expect(events.getByText('Failed').first()).toBeVisible(),
        },
        { name: 'overview chart', path: `instances/${instance.id}`, ready: () => expect(totals).toContainText('Failed') },
        {
          name: 'settings',
          path: `instances/${instance.id}/settings`,
          ready: () => expect(page.getByLabel(/^Push name/)).toHaveValue('Peer Support'),
        },
      ];
      await shootAll(page, gateway.apiUrl, views, saveScreenshot);
    } finally {
      await receiver.close();
    }
  });
});

async function shootAll(
  page: Page,
  apiUrl: string,
  views: { name: string; path: string; ready: () => Promise<void> }[],
  saveScreenshot: SaveScreenshot,
): Promise<void> {
  for (const colorScheme of ['light', 'dark'] as const) {
    await page.emulateMedia({ colorScheme });
    for (const width of [1280, 390]) {
      await page.setViewportSize({ width, height: width === 390 ? 844 : 900 });
      for (const view of views) {
        await page.goto(`${apiUrl}/dashboard/${view.path}`);
        await view.ready();
        await expectNoOverflow(page);
        await saveScreenshot(`${view.name} ${width} ${colorScheme}`);
      }
    }
  }
}
