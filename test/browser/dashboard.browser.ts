import type { Page } from '@playwright/test';
import { Webhook } from 'standardwebhooks';
import { testEnv } from '../support/environment';
import { WebhookReceiver } from '../support/webhook-receiver';
import { pairedSandboxInstance, signedInCustomer, strongPassword } from './support/dashboard';
import { consoleTest } from './support/console-test';
import { expect } from './support/fixtures';

// The dashboard tests run their own API and worker: webhooks may reach the local receiver (127.0.0.1).
const test = consoleTest();

let phones = 0;
/** Phones 1555098xxxx: the dashboard tests' own range inside the browser tier's 155509xxxxx. */
const nextPhone = () => `1555098${String((phones += 1)).padStart(4, '0')}`;

const dashboard = (page: Page, apiUrl: string, path = '') => page.goto(`${apiUrl}/dashboard/${path}`);

test.describe('Dashboard', () => {
  test('a sign-in refused for too many failed sign-ins says why and until when', async ({ browser, page, gateway, allowFailedRequest }) => {
    // The owner exists, but the page is not signed in (the owner's cookie went to another context).
    const owner = await signedInCustomer(gateway.client, await browser.newContext(), 'Locked out');
    for (let attempt = 0; attempt < 10; attempt += 1) {
      await gateway.client.expectStatus(401, gateway.client.post('/auth/sign-in', { email: owner.email, password: `guess ${attempt}` }));
    }
    await dashboard(page, gateway.apiUrl);
    await page.getByLabel('Email').fill(owner.email);
    await page.getByLabel('Password').fill(owner.password);
    allowFailedRequest(429, '/auth/sign-in');
    await page.getByRole('button', { name: 'Sign in' }).click();
    await expect(page.getByRole('alert')).toHaveText(/^Too many failed sign-ins for this email address; try again at \d\d:\d\d$/);
    // The time shown is Retry-After (15 minutes) from now, in the page's own time zone.
    const shown = (await page.getByRole('alert').textContent())?.slice(-5);
    const expected = await page.evaluate(() =>
      [900_000, 890_000].map((ms) =>
        new Date(Date.now() + ms).toLocaleTimeString([], { hour: '2-digit', minute: '2-digit', hour12: false }),
      ),
    );
    expect(expected).toContain(shown);
  });

  test('an operator creates a customer, its owner sets a password from the invite link, signs out and signs in again', async ({
    page,
    gateway,
    saveScreenshot,
    allowFailedRequest,
  }) => {
    // A name of its own: the run's database is shared, and other suites create customers too (Swagger's example is
    // also "Acme Bookings").
    const customerName = `Acme Bookings ${Date.now().toString(36)}`;
    await dashboard(page, gateway.apiUrl, 'operator');
    await page.getByLabel('Admin key').fill(testEnv().ADMIN_API_KEY);
    await page.getByRole('button', { name: 'Open console' }).click();
    await expect(page.getByRole('heading', { name: 'Health' })).toBeVisible();
    const email = `owner-${Date.now()}@example.com`;
    await page.getByLabel('Customer name').fill(customerName);
    await page.getByLabel("Owner's email").fill(email);
    await page.getByRole('button', { name: 'Create customer' }).click();
    const link = page.getByLabel(`Invite link for ${customerName}`, { exact: true }).locator('code');
    await expect(link).toContainText('/dashboard/invite/');
    await expect(page.getByRole('list', { name: 'Customers' })).toContainText(customerName);
    await saveScreenshot('operator console');
    const inviteUrl = (await link.textContent()) ?? '';

    await page.goto(inviteUrl);
    await expect(page.getByRole('heading', { name: `Join ${customerName}` })).toBeVisible();
    await page.getByRole('textbox', { name: /^New password/ }).fill('too short');
    await expect(page.getByRole('button', { name: 'Set password and sign in' })).toBeDisabled();
    const password = strongPassword();
    await page.getByRole('textbox', { name: /^New password/ }).fill(password);
    await page.getByLabel('Repeat password').fill(password);
    await saveScreenshot('invite');
    await page.getByRole('button', { name: 'Set password and sign in' }).click();
    await expect(page.getByRole('heading', { name: 'Instances' })).toBeVisible();
    await expect(page.getByText('No instances yet')).toBeVisible();
    await expect(page.getByText(email)).toBeVisible();

    // The link worked once.
    allowFailedRequest(410, '/auth/invites/');
    await page.goto(inviteUrl);
    await expect(page.getByRole('heading', { name: 'This link cannot be used' })).toBeVisible();

    await dashboard(page, gateway.apiUrl);
    await page.getByRole('button', { name: 'Sign out', exact: true }).click();
    await expect(page.getByRole('heading', { name: 'Sign in to the dashboard' })).toBeVisible();
    await dashboard(page, gateway.apiUrl, 'team');
    await expect(page.getByRole('heading', { name: 'Sign in to the dashboard' })).toBeVisible();

    await page.getByLabel('Email').fill(email);
    allowFailedRequest(401, '/auth/sign-in');
    await page.getByLabel('Password').fill(`${password}x`);
    await page.getByRole('button', { name: 'Sign in' }).click();
    await expect(page.getByRole('alert')).toHaveText('unauthorized: wrong email or password');
    await saveScreenshot('sign-in refused');
    // By keyboard: Enter in the password field submits the form.
    await page.getByLabel('Password').fill(password);
    await page.getByLabel('Password').press('Enter');
    await expect(page.getByRole('heading', { name: 'Team' })).toBeVisible();
    await expect(page.getByRole('list', { name: 'Team members' })).toContainText(email);

    // Forgot password: the operator issues a fresh one-time link (the admin key was forgotten on navigation).
    await dashboard(page, gateway.apiUrl, 'operator');
    await page.getByLabel('Admin key').fill(testEnv().ADMIN_API_KEY);
    await page.getByRole('button', { name: 'Open console' }).click();
    const acme = page.getByRole('list', { name: 'Customers' }).getByRole('listitem').filter({ hasText: customerName });
    await acme.getByText('Dashboard users').click();
    await acme.getByRole('button', { name: `Password reset link for ${email}` }).click();
    const resetLink = page.getByLabel(`Password reset link for ${email}`, { exact: true }).locator('code');
    await expect(resetLink).toContainText('/dashboard/invite/');
    await page.goto((await resetLink.textContent()) ?? '');
    await expect(page.getByRole('heading', { name: 'Choose a new password' })).toBeVisible();
    const newPassword = strongPassword();
    await page.getByRole('textbox', { name: /^New password/ }).fill(newPassword);
    await page.getByLabel('Repeat password').fill(newPassword);
    await page.getByRole('button', { name: 'Set password and sign in' }).click();
    await expect(page.getByRole('heading', { name: 'Instances' })).toBeVisible();
  });

  test('creates a sandbox instance whose QR code appears and changes, and flips to connected when /sandbox/pair links it', async ({
    page,
    context,
    gateway,
    saveScreenshot,
  }) => {
    test.setTimeout(90_000);
    const customer = await signedInCustomer(gateway.client, context, 'pairing');
    await dashboard(page, gateway.apiUrl);
    await page.getByLabel('Instance name').fill('Front desk');
    await page.getByLabel('Sandbox').check();
    await page.getByRole('button', { name: 'Create instance' }).click();
    await expect(page.getByLabel('API key of Front desk', { exact: true }).locator('code')).toContainText(/\S{20,}/);
    await expect(page.getByText('Shown only once.')).toBeVisible();
    const row = page.getByRole('list', { name: 'Instances' }).getByRole('listitem').filter({ hasText: 'Front desk' });
    await expect(row).toContainText('Sandbox');
    await saveScreenshot('instances');

    await row.getByRole('link', { name: 'Front desk' }).click();
    await page.getByRole('link', { name: 'Pairing' }).click();
    const qr = page.getByRole('img', { name: 'Pairing QR code' });
    await expect(qr).toBeVisible();
    const first = await qr.getAttribute('src');
    expect(first).toMatch(/^data:image\/png;base64,/);
    await saveScreenshot('pairing');
    // The sandbox network rotates the code every 20 s, as the real one does.
    await expect(qr).not.toHaveAttribute('src', first ?? '', { timeout: 30_000 });

    const instanceId = page.url().split('/instances/')[1].split('/')[0];
    await gateway.client.expectStatus(
      200,
      gateway.client.post('/sandbox/pair', { phone: nextPhone() }, { 'X-Api-Key': customer.customerKey, 'X-Instance-Id': instanceId }),
    );
    await expect(page.getByRole('heading', { name: 'Connected' })).toBeVisible({ timeout: 5_000 });
    await expect(page.getByText('Connected', { exact: true }).first()).toBeVisible();
    await saveScreenshot('paired');

    await dashboard(page, gateway.apiUrl);
    const list = page.getByRole('list', { name: 'Instances' });
    await expect(list.getByRole('listitem').filter({ hasText: 'Front desk' })).toContainText('Connected');

    // The list is live too: another instance paired through the API turns Connected without a reload.
    const second = (await gateway.client.expectStatus(
      201,
      gateway.client.post('/account/instances', { name: 'Back office', sandbox: true }, { 'X-Api-Key': customer.customerKey }),
    )) as { id: string };
    await page.reload();
    await expect(list.getByRole('listitem').filter({ hasText: 'Back office' })).toContainText('Not paired');
    await gateway.client.expectStatus(
      200,
      gateway.client.post('/sandbox/pair', { phone: nextPhone() }, { 'X-Api-Key': customer.customerKey, 'X-Instance-Id': second.id }),
    );
    await expect(list.getByRole('listitem').filter({ hasText: 'Back office' })).toContainText('Connected', { timeout: 5_000 });
  });

  test('rotating the customer key shows the new key once, and the old key answers 401 over plain HTTP', async ({
    page,
    context,
    gateway,
    saveScreenshot,
  }) => {
    const customer = await signedInCustomer(gateway.client, context, 'keys');
    expect((await gateway.client.get('/account/instances', { 'X-Api-Key': customer.customerKey })).status).toBe(200);
    await dashboard(page, gateway.apiUrl, 'account');
    await page.getByRole('button', { name: 'Rotate customer key' }).click();
    const dialog = page.getByRole('dialog', { name: 'Rotate the customer key?' });
    await expect(dialog).toContainText('stops working at once');
    await dialog.getByRole('button', { name: 'Rotate now' }).click();
    const shown = page.getByLabel('New customer API key', { exact: true }).locator('code');
    await expect(shown).toContainText(/\S{20,}/);
    await saveScreenshot('new customer key');
    const newKey = (await shown.textContent()) ?? '';

    expect(await gateway.client.get('/account/instances', { 'X-Api-Key': customer.customerKey })).toEqual({
      status: 401,
      body: { status: 401, detail: 'unauthorized' },
    });
    expect((await gateway.client.get('/account/instances', { 'X-Api-Key': newKey })).status).toBe(200);
    await page.getByRole('button', { name: 'I have stored it' }).click();
    await expect(page.getByText(newKey)).toHaveCount(0);
  });

  test('a webhook to a local receiver: the SSRF refusal inline, then a signed test event and a signed delivery in the event log', async ({
    page,
    context,
    gateway,
    saveScreenshot,
    allowFailedRequest,
  }) => {
    const receiver = await WebhookReceiver.start();
    try {
      const customer = await signedInCustomer(gateway.client, context, 'webhooks');
      const instance = await pairedSandboxInstance(gateway.client, customer.customerKey, nextPhone());
      await dashboard(page, gateway.apiUrl, `instances/${instance.id}/webhooks`);
      await page.getByLabel('Use customer defaults').uncheck();
      await page.getByLabel('Webhook URL').fill('http://169.254.169.254/latest/meta-data');
      allowFailedRequest(400, '/settings');
      await page.getByRole('button', { name: 'Save settings' }).click();
      await expect(page.getByLabel('Webhook URL')).toHaveAttribute('aria-invalid', 'true');
      await expect(page.locator('#webhook-url-error')).toContainText('webhookUrl');

      await page.getByLabel('Webhook URL').fill(receiver.url('/hooks'));
      await page.getByRole('button', { name: 'Generate signing secret' }).click();
      const secret = (await page.getByLabel('New signing secret').textContent()) ?? '';
      expect(secret).toMatch(/^whsec_/);
      await page.getByLabel('message', { exact: true }).check();
      await page.getByRole('button', { name: 'Save settings' }).click();
      await expect(page.getByText('Saved', { exact: true })).toBeVisible();
      await saveScreenshot('webhook settings');

      await page.getByRole('button', { name: 'Send test event' }).click();
      await expect(page.getByRole('status', { name: 'Test result' })).toContainText('Delivered: 200');
      await expect(page.getByRole('status', { name: 'Test result' })).toContainText('{"ok":true}');

      await page.getByRole('link', { name: 'Event log' }).click();
      await expect(page.getByText('Live', { exact: true })).toBeVisible();
      await gateway.client.expectStatus(
        201,
        gateway.client.post('/sandbox/inbound', { from: '14155550177', type: 'text', text: 'Is the shop open today?' }, instance.headers),
      );
      const event = page.getByRole('list', { name: 'Events' }).getByRole('button', { name: /Is the shop open today\?/ });
      await expect(event).toBeVisible();
      await event.click();
      await expect(page.getByRole('region', { name: 'Webhook deliveries' })).toContainText('Delivered');
      await expect(page.getByRole('region', { name: 'Webhook deliveries' }).getByRole('table')).toContainText('200');
      await page.getByRole('button', { name: 'Show raw JSON' }).click();
      await expect(page.getByLabel('Raw event JSON')).toContainText('"eventType": "message"');
      await saveScreenshot('event log');

      const delivered = receiver.received.find(
        (hook) => hook.envelope.eventType === 'message' && hook.envelope.eventData.text === 'Is the shop open today?',
      );
      expect(delivered).toBeDefined();
      const headers = Object.fromEntries(Object.entries(delivered!.headers).map(([name, value]) => [name, String(value)]));
      expect(new Webhook(secret).verify(delivered!.rawBody, headers)).toMatchObject({ eventType: 'message' });
    } finally {
      await receiver.close();
    }
  });

  test('a pending webhook delivery is retried now, in bulk and one by one, and "Redeliver all failed" says why it queued none', async ({
    page,
    context,
    gateway,
  }) => {
    const receiver = await WebhookReceiver.start();
    try {
      const customer = await signedInCustomer(gateway.client, context, 'retry now');
      const instance = await pairedSandboxInstance(gateway.client, customer.customerKey, nextPhone());
      await gateway.client.expectStatus(
        204,
        gateway.client.request(
          'PUT',
          `/account/instances/${instance.id}/settings`,
          { useCustomDefaults: false, webhookUrl: receiver.url('/hooks') },
          { 'X-Api-Key': customer.customerKey },
        ),
      );
      let up = false;
      const acknowledged: { text: string; at: number }[] = [];
      receiver.script('/hooks', (hook) => {
        if (up) acknowledged.push({ text: String(hook.envelope.eventData.text), at: hook.at });
        return { status: up ? 200 : 503 };
      });
      const deliveredAt = (text: string) => acknowledged.find((ack) => ack.text === text)?.at ?? null;
      /** Sends `text` in while the receiver is down, and waits until its delivery waits out its 5-minute backoff. */
      const pendingEvent = async (text: string) => {
        await gateway.client.expectStatus(
          201,
          gateway.client.post('/sandbox/inbound', { from: '14155550178', type: 'text', text }, instance.headers),
        );
        await gateway.client.waitFor(
          async () => {
            const page = (await gateway.client.get('/events?order=desc&limit=20', instance.headers)).body as {
              items: { event: { eventId: string; eventData: { text?: string } } }[];
            };
            const event = page.items.find((item) => item.event.eventData.text === text);
            if (!event) return false;
            const report = (await gateway.client.get(`/events/${event.event.eventId}/deliveries`, instance.headers)).body as {
              state: string;
              attempts: unknown[];
            };
            return report.state === 'pending' && report.attempts.length === 2;
          },
          `${text} to wait for its third attempt`,
          20_000,
        );
      };
      await Promise.all([pendingEvent('First while down'), pendingEvent('Second while down')]);

      await dashboard(page, gateway.apiUrl, `instances/${instance.id}/events`);
      await page.getByRole('button', { name: 'Redeliver all failed' }).click();
      await expect(page.getByText(/^No failed deliveries since .+ use Retry pending now\.$/)).toBeVisible();

      up = true;
      const bulkAt = Date.now();
      await page.getByRole('button', { name: 'Retry pending now' }).click();
      await expect(page.getByText(/^Retrying now: \d+ pending deliveries$/)).toBeVisible();
      await expect.poll(() => [deliveredAt('First while down'), deliveredAt('Second while down')].every((at) => at !== null)).toBe(true);
      expect(Math.max(...['First while down', 'Second while down'].map((text) => deliveredAt(text)!)) - bulkAt).toBeLessThan(3_000);

      up = false;
      await pendingEvent('Third while down');
      up = true;
      const event = page.getByRole('list', { name: 'Events' }).getByRole('button', { name: /Third while down/ });
      await event.click();
      const deliveries = page.getByRole('region', { name: 'Webhook deliveries' });
      await expect(deliveries).toContainText('Delivery pending');
      const oneAt = Date.now();
      await deliveries.getByRole('button', { name: 'Retry now' }).click();
      await expect(deliveries).toContainText('Delivered');
      expect(deliveredAt('Third while down')! - oneAt).toBeLessThan(3_000);
      // Each event reached the receiver once after it came back: no retry ran twice.
      expect(
        acknowledged
          .map((ack) => ack.text)
          .filter((text) => text.endsWith('while down'))
          .sort(),
      ).toEqual(['First while down', 'Second while down', 'Third while down']);
    } finally {
      await receiver.close();
    }
  });

  test('the composer refuses a fourth button inline and sends nothing, sends a valid one, and a tap on the sandbox phone logs a delivered button_reply', async ({
    page,
    context,
    gateway,
    saveScreenshot,
  }) => {
    const receiver = await WebhookReceiver.start();
    try {
      const customer = await signedInCustomer(gateway.client, context, 'composer');
      const instance = await pairedSandboxInstance(gateway.client, customer.customerKey, nextPhone());
      await gateway.client.expectStatus(
        204,
        gateway.client.request(
          'PUT',
          `/account/instances/${instance.id}/settings`,
          { useCustomDefaults: false, webhookUrl: receiver.url('/hooks') },
          { 'X-Api-Key': customer.customerKey },
        ),
      );

      await dashboard(page, gateway.apiUrl, `instances/${instance.id}/compose`);
      await page.getByLabel('Buttons').check();
      await page.getByLabel('Message text').fill('Do you confirm the booking for Friday?');
      await page.getByRole('button', { name: 'Add button' }).click();
      await page.getByLabel('Button 3 label').fill('Maybe later, thanks');
      await page.getByRole('button', { name: 'Add button' }).click();
      await page.getByLabel('Button 4 label').fill('Call me');
      await expect(page.getByText('Buttons must have at most 3 items')).toBeVisible();
      await page.getByLabel('Button 3 label').fill('Maybe later, thank you');
      await expect(page.getByText('Button 3 label must be at most 20 characters (now 22)')).toBeVisible();
      await page.getByRole('button', { name: 'Send message' }).click();
      await expect(page.getByRole('alert').filter({ hasText: 'Not sent' })).toContainText('buttons must have at most 3 items');
      await saveScreenshot('composer refusing');
      expect((await gateway.client.get('/sandbox/outbox', instance.headers)).body).toEqual([]);

      await page.getByRole('button', { name: 'Remove button 4' }).click();
      await page.getByLabel('Button 3 label').fill('Maybe later');
      await expect(page.getByLabel('Message preview')).toContainText('Maybe later');
      await page.getByText('Show as curl').first().click();
      await expect(page.getByLabel('curl command')).toContainText(`X-Instance-Id: ${instance.id}`);
      await expect(page.getByLabel('curl command')).toContainText('$MGW_API_KEY');
      await page.getByRole('button', { name: 'Send message' }).click();
      await expect(page.getByRole('status').filter({ hasText: 'Sent: message' })).toBeVisible();
      await saveScreenshot('composer sent');

      await page.getByRole('link', { name: 'Sandbox phone', exact: true }).click();
      const phone = page.getByRole('region', { name: 'Sandbox phone' });
      await expect(phone.getByText('Do you confirm the booking for Friday?')).toBeVisible();
      await expect(phone.getByText('· read')).toBeVisible();
      await saveScreenshot('sandbox phone');
      await phone.getByRole('button', { name: 'Yes', exact: true }).click();
      await expect(phone.getByText('Tapped a button')).toBeVisible();
      await phone.getByLabel('Message as the contact').fill('See you then!');
      await phone.getByRole('button', { name: 'Send as the contact' }).click();
      await expect(phone.getByText('See you then!')).toBeVisible();
      await saveScreenshot('sandbox phone after tap');
      // Reopening the phone shows the message read without reporting it read a second time.
      await page.reload();
      await expect(phone.getByText('· read')).toBeVisible();
      const log = (await gateway.client.get('/events?limit=1000', instance.headers)).body as {
        items: Array<{ event: { eventType: string } }>;
      };
      expect(log.items.filter((item) => item.event.eventType === 'message_read')).toHaveLength(1);

      await page.getByRole('link', { name: 'Event log' }).click();
      await page.getByLabel('Event type').selectOption('message');
      const tap = page.getByRole('list', { name: 'Events' }).getByRole('button', { name: /Button “Yes” tapped/ });
      await expect(tap).toBeVisible();
      await tap.click();
      await expect(page.getByRole('region', { name: 'Webhook deliveries' })).toContainText('Delivered');
      expect(receiver.received.some((hook) => (hook.envelope.eventData.buttonReply as { id?: string } | undefined)?.id === 'yes')).toBe(
        true,
      );
    } finally {
      await receiver.close();
    }
  });

  test('renames an instance, regenerates its key (the old one answers 401), deletes it after confirming; invites and removes a teammate', async ({
    page,
    context,
    gateway,
  }) => {
    const customer = await signedInCustomer(gateway.client, context, 'manage');
    const created = (await gateway.client.expectStatus(
      201,
      gateway.client.post('/account/instances', { name: 'Old name', sandbox: true }, { 'X-Api-Key': customer.customerKey }),
    )) as { id: string; apiKey: string };
    const ownKey = { 'X-Api-Key': created.apiKey, 'X-Instance-Id': created.id };
    expect((await gateway.client.get('/session/status', ownKey)).status).toBe(200);

    await dashboard(page, gateway.apiUrl, `instances/${created.id}`);
    await expect(page.getByText('Yes (hasApiKey)')).toBeVisible();
    await page.getByLabel('Instance name').fill('Reception');
    await page.getByRole('button', { name: 'Rename' }).click();
    await expect(page.getByRole('heading', { name: 'Reception', level: 1 })).toBeVisible();

    await page.getByRole('button', { name: 'Regenerate instance key' }).click();
    await page.getByRole('dialog', { name: 'Regenerate the instance key?' }).getByRole('button', { name: 'Regenerate' }).click();
    const shown = page.getByLabel('New instance API key', { exact: true }).locator('code');
    await expect(shown).toContainText(/\S{20,}/);
    expect(await gateway.client.get('/session/status', ownKey)).toEqual({ status: 401, body: { status: 401, detail: 'unauthorized' } });
    expect((await gateway.client.get('/session/status', { ...ownKey, 'X-Api-Key': (await shown.textContent()) ?? '' })).status).toBe(200);

    await page.getByRole('button', { name: 'Delete instance' }).click();
    const confirm = page.getByRole('dialog', { name: 'Delete Reception?' });
    await confirm.getByRole('button', { name: 'Cancel' }).click();
    await expect(confirm).toBeHidden();
    await page.getByRole('button', { name: 'Delete instance' }).click();
    await confirm.getByRole('button', { name: 'Delete for good' }).click();
    await expect(page.getByRole('heading', { name: 'Instances' })).toBeVisible();
    await expect(page.getByText('No instances yet')).toBeVisible();
    expect((await gateway.client.get(`/account/instances/${created.id}`, { 'X-Api-Key': customer.customerKey })).status).toBe(404);

    await page.getByRole('link', { name: 'Team' }).click();
    const teammate = `teammate-${Date.now()}@example.com`;
    await page.getByLabel("Teammate's email").fill(teammate);
    await page.getByRole('button', { name: 'Create invite link' }).click();
    await expect(page.getByLabel(`Invite link for ${teammate}`, { exact: true }).locator('code')).toContainText('/dashboard/invite/');
    const members = page.getByRole('list', { name: 'Team members' });
    await expect(members.getByRole('listitem').filter({ hasText: teammate })).toContainText('Invited');
    await members.getByRole('button', { name: `Remove ${teammate}` }).click();
    await page
      .getByRole('dialog', { name: `Remove ${teammate}?` })
      .getByRole('button', { name: 'Remove' })
      .click();
    await expect(members.getByRole('listitem').filter({ hasText: teammate })).toHaveCount(0);
    await expect(members.getByRole('listitem')).toHaveCount(1);
  });

  test('the event log shows the newest 100 events and pages back to the oldest on request', async ({ page, context, gateway }) => {
    const customer = await signedInCustomer(gateway.client, context, 'paging');
    const instance = await pairedSandboxInstance(gateway.client, customer.customerKey, nextPhone());
    // Five at a time: the database is shared with other suites, and a wide burst only tests the connection limit.
    for (let batch = 0; batch < 21; batch += 1) {
      await Promise.all(
        Array.from({ length: 5 }, (_, index) =>
          gateway.client.expectStatus(
            201,
            gateway.client.post(
              '/sandbox/inbound',
              { from: '14155550142', type: 'text', text: `note ${batch * 5 + index}` },
              instance.headers,
            ),
          ),
        ),
      );
    }
    await gateway.client.waitFor(async () => {
      const page = (await gateway.client.get('/events?limit=1000', instance.headers)).body as { items: unknown[] };
      return page.items.length >= 106;
    }, '105 messages in the log');

    await dashboard(page, gateway.apiUrl, `instances/${instance.id}/events`);
    const events = page.getByRole('list', { name: 'Events' }).getByRole('listitem');
    await expect(events).toHaveCount(100);
    await expect(page.getByText(/^Paired as/)).toHaveCount(0);
    await page.getByRole('button', { name: 'Load older events' }).click();
    await expect(page.getByText(/^Paired as/)).toBeVisible();
    await expect(events).toHaveCount(106);
    await expect(page.getByRole('button', { name: 'Load older events' })).toHaveCount(0);
  });

  test('every page reads at 1280 and 390 px, in light and dark, with its empty, loading and refusal states designed', async ({
    page,
    context,
    gateway,
    saveScreenshot,
    allowFailedRequest,
  }) => {
    test.setTimeout(90_000);
    const customer = await signedInCustomer(gateway.client, context, 'tour');
    const instance = await pairedSandboxInstance(gateway.client, customer.customerKey, nextPhone());
    const unpaired = (await gateway.client.expectStatus(
      201,
      gateway.client.post('/account/instances', { name: 'New number', sandbox: true }, { 'X-Api-Key': customer.customerKey }),
    )) as { id: string };
    await gateway.client.expectStatus(
      201,
      gateway.client.post(
        '/messages/list',
        {
          to: '14155550142',
          text: 'Pick a time slot for your visit',
          buttonText: 'Slots',
          sections: [
            {
              title: 'Friday',
              rows: [
                { id: 'fri-9', title: '9:00', description: 'Front desk' },
                { id: 'fri-11', title: '11:00' },
              ],
            },
          ],
        },
        instance.headers,
      ),
    );
    await gateway.client.expectStatus(
      201,
      gateway.client.post('/sandbox/inbound', { from: '14155550142', type: 'text', text: 'Hi! Can I book?' }, instance.headers),
    );

    const pages: Array<{ name: string; path: string; ready: () => Promise<void>; dark?: boolean }> = [
      {
        name: 'instances',
        path: '',
        ready: () => expect(page.getByRole('list', { name: 'Instances' })).toContainText('New number'),
        dark: true,
      },
      {
        name: 'overview',
        path: `instances/${instance.id}`,
        ready: () => expect(page.getByRole('heading', { name: 'Details' })).toBeVisible(),
      },
      {
        name: 'pairing',
        path: `instances/${unpaired.id}/pairing`,
        ready: () => expect(page.getByRole('img', { name: 'Pairing QR code' })).toBeVisible(),
        dark: true,
      },
      {
        name: 'connected',
        path: `instances/${instance.id}/pairing`,
        ready: () => expect(page.getByRole('heading', { name: 'Connected' })).toBeVisible(),
      },
      {
        name: 'webhooks',
        path: `instances/${instance.id}/webhooks`,
        ready: async () => {
          await page.getByLabel('Use customer defaults').uncheck();
          await expect(page.getByLabel('Webhook URL')).toBeVisible();
        },
        dark: true,
      },
      {
        name: 'event log',
        path: `instances/${instance.id}/events`,
        ready: () => expect(page.getByText('Live', { exact: true })).toBeVisible(),
        dark: true,
      },
      {
        name: 'composer',
        path: `instances/${instance.id}/compose`,
        ready: () => expect(page.getByLabel('Message preview')).toBeVisible(),
        dark: true,
      },
      {
        name: 'sandbox phone',
        path: `instances/${instance.id}/phone`,
        ready: async () => {
          const phone = page.getByRole('region', { name: 'Sandbox phone' });
          await expect(phone.getByText('Hi! Can I book?')).toBeVisible();
          await phone.getByRole('button', { name: /Slots/ }).click();
          await expect(phone.getByRole('button', { name: /11:00/ })).toBeVisible();
        },
        dark: true,
      },
      {
        name: 'keys and defaults',
        path: 'account',
        ready: () => expect(page.getByRole('heading', { name: 'Customer defaults' })).toBeVisible(),
      },
      { name: 'team', path: 'team', ready: () => expect(page.getByRole('list', { name: 'Team members' })).toContainText(customer.email) },
      {
        name: 'unknown page',
        path: 'no-such-page',
        ready: () => expect(page.getByRole('heading', { name: 'Nothing here' })).toBeVisible(),
      },
      {
        name: 'unknown instance',
        path: 'instances/ins_nosuchinstance',
        ready: () => expect(page.getByRole('alert')).toContainText('No such instance'),
      },
    ];
    // The refusal states are shown on purpose.
    allowFailedRequest(404, '/account/instances/ins_nosuchinstance');
    for (const colorScheme of ['light', 'dark'] as const) {
      await page.emulateMedia({ colorScheme });
      for (const width of [1280, 390]) {
        await page.setViewportSize({ width, height: width === 390 ? 844 : 900 });
        for (const entry of pages.filter((candidate) => colorScheme === 'light' || candidate.dark)) {
          await dashboard(page, gateway.apiUrl, entry.path);
          await entry.ready();
          await saveScreenshot(`${entry.name} ${width} ${colorScheme}`);
        }
      }
    }
    await context.clearCookies();
    allowFailedRequest(404, '/auth/invites/not-a-real-token');
    await page.emulateMedia({ colorScheme: 'light' });
    await page.setViewportSize({ width: 390, height: 844 });
    await dashboard(page, gateway.apiUrl, 'sign-in');
    await expect(page.getByRole('heading', { name: 'Sign in to the dashboard' })).toBeVisible();
    await saveScreenshot('sign-in 390 light');
    await page.goto(`${gateway.apiUrl}/dashboard/invite/not-a-real-token`);
    await expect(page.getByRole('heading', { name: 'This link cannot be used' })).toBeVisible();
    await saveScreenshot('used invite 390 light');
  });

  test('serves the app with a strict content security policy, falls back to the app for its routes, and redirects / there', async ({
    gateway,
  }) => {
    const index = await fetch(`${gateway.apiUrl}/dashboard/instances/ins_anything/events`);
    expect(index.status).toBe(200);
    expect(index.headers.get('content-type')).toMatch(/^text\/html/);
    expect(index.headers.get('content-security-policy')).toBe(
      "default-src 'self';script-src 'self';style-src 'self';img-src 'self' data: https://pps.whatsapp.net;font-src 'self';connect-src 'self';object-src 'none';base-uri 'self';form-action 'self';frame-ancestors 'none'",
    );
    expect(index.headers.get('x-content-type-options')).toBe('nosniff');
    expect(index.headers.get('x-frame-options')).toBe('DENY');
    const html = await index.text();
    expect(html).not.toMatch(/<script(?![^>]*\bsrc=)[^>]*>/);
    expect(html).not.toMatch(/https?:\/\//);
    const root = await fetch(`${gateway.apiUrl}/`, { redirect: 'manual' });
    expect([root.status, root.headers.get('location')]).toEqual([302, '/dashboard/']);
    const missingAsset = await fetch(`${gateway.apiUrl}/dashboard/assets/missing.js`);
    expect(missingAsset.status).toBe(404);
  });
});
