import AxeBuilder from '@axe-core/playwright';
import type { Page } from '@playwright/test';
import { testEnv } from '../support/environment';
import { pairedSandboxInstance, signedInCustomer } from './support/dashboard';
import { expect, test } from './support/fixtures';

let phones = 0;
/** Phones 1555096xxxx: this file's own range inside the browser tier's 155509xxxxx. */
const nextPhone = () => `1555096${String((phones += 1)).padStart(4, '0')}`;

/** The violations axe-core rates serious or critical, each with where it was found. */
async function seriousViolations(page: Page): Promise<Array<{ rule: string; impact: string; help: string; targets: string[] }>> {
  const results = await new AxeBuilder({ page }).analyze();
  return results.violations
    .filter((violation) => violation.impact === 'serious' || violation.impact === 'critical')
    .map((violation) => ({
      rule: violation.id,
      impact: violation.impact ?? '',
      help: violation.help,
      targets: violation.nodes.map((node) => node.target.join(' ')),
    }));
}

test.describe('Accessibility', () => {
  test('every console page, light and dark at 1280 px, has no serious or critical axe-core violation', async ({
    page,
    context,
    gateway,
  }) => {
    test.setTimeout(180_000);
    const customer = await signedInCustomer(gateway.client, context, 'axe');
    const instance = await pairedSandboxInstance(gateway.client, customer.customerKey, nextPhone());
    const unpaired = (await gateway.client.expectStatus(
      201,
      gateway.client.post('/account/instances', { name: 'New number', sandbox: true }, { 'X-Api-Key': customer.customerKey }),
    )) as { id: string };
    await gateway.client.expectStatus(
      201,
      gateway.client.post('/sandbox/inbound', { from: '14155550142', type: 'text', text: 'Hi! Can I book?' }, instance.headers),
    );
    const invite = (await gateway.client.expectStatus(
      201,
      gateway.client.post(
        '/admin/customers',
        { name: 'Axe Invitee', ownerEmail: `axe-${Date.now()}@example.com` },
        { 'X-Admin-Key': testEnv().ADMIN_API_KEY },
      ),
    )) as { ownerInvite: { url: string } };

    const pages: Array<{ name: string; path: string; ready: () => Promise<void>; signedOut?: boolean }> = [
      { name: 'instances', path: '', ready: () => expect(page.getByRole('list', { name: 'Instances' })).toContainText('New number') },
      {
        name: 'overview',
        path: `instances/${instance.id}`,
        ready: () => expect(page.getByRole('heading', { name: 'Details' })).toBeVisible(),
      },
      {
        name: 'pairing',
        path: `instances/${unpaired.id}/pairing`,
        ready: () => expect(page.getByRole('img', { name: 'Pairing QR code' })).toBeVisible(),
      },
      {
        name: 'composer',
        path: `instances/${instance.id}/compose`,
        ready: () => expect(page.getByLabel('Message preview')).toBeVisible(),
      },
      {
        name: 'events',
        path: `instances/${instance.id}/events`,
        ready: async () => {
          await expect(page.getByText('Live', { exact: true })).toBeVisible();
          await page
            .getByRole('list', { name: 'Events' })
            .getByRole('button', { name: /Hi! Can I book\?/ })
            .click();
          await expect(page.getByRole('region', { name: 'Webhook deliveries' })).toBeVisible();
        },
      },
      {
        name: 'webhooks',
        path: `instances/${instance.id}/webhooks`,
        ready: async () => {
          await page.getByLabel('Use customer defaults').uncheck();
          await expect(page.getByLabel('Webhook URL')).toBeVisible();
        },
      },
      {
        name: 'sandbox phone',
        path: `instances/${instance.id}/phone`,
        ready: () => expect(page.getByRole('region', { name: 'Sandbox phone' }).getByText('Hi! Can I book?')).toBeVisible(),
      },
      { name: 'account', path: 'account', ready: () => expect(page.getByRole('heading', { name: 'Customer defaults' })).toBeVisible() },
      { name: 'team', path: 'team', ready: () => expect(page.getByRole('list', { name: 'Team members' })).toContainText(customer.email) },
      { name: 'not found', path: 'no-such-page', ready: () => expect(page.getByRole('heading', { name: 'Nothing here' })).toBeVisible() },
      {
        name: 'operator',
        path: 'operator',
        ready: async () => {
          await page.getByLabel('Admin key').fill(testEnv().ADMIN_API_KEY);
          await page.getByRole('button', { name: 'Open console' }).click();
          await expect(page.getByRole('heading', { name: 'Health' })).toBeVisible();
        },
      },
      {
        name: 'sign-in',
        path: 'sign-in',
        signedOut: true,
        ready: () => expect(page.getByRole('heading', { name: 'Sign in to the dashboard' })).toBeVisible(),
      },
      {
        name: 'invite',
        path: invite.ownerInvite.url.slice(invite.ownerInvite.url.indexOf('/dashboard/') + '/dashboard/'.length),
        signedOut: true,
        ready: () => expect(page.getByRole('heading', { name: 'Join Axe Invitee' })).toBeVisible(),
      },
    ];

    await page.setViewportSize({ width: 1280, height: 900 });
    const cookies = await context.cookies();
    const found: Array<{ page: string; scheme: string; violations: Awaited<ReturnType<typeof seriousViolations>> }> = [];
    let checked = 0;
    for (const colorScheme of ['light', 'dark'] as const) {
      await page.emulateMedia({ colorScheme });
      for (const entry of pages) {
        if (entry.signedOut) await context.clearCookies();
        else if ((await context.cookies()).length === 0) await context.addCookies(cookies);
        await page.goto(`${gateway.apiUrl}/dashboard/${entry.path}`);
        await entry.ready();
        const violations = await seriousViolations(page);
        checked += 1;
        if (violations.length > 0) found.push({ page: entry.name, scheme: colorScheme, violations });
      }
    }
    expect(checked).toBe(pages.length * 2);
    expect(found).toEqual([]);
  });
});
