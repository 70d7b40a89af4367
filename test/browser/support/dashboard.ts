import { randomBytes } from 'node:crypto';
import type { BrowserContext, Page } from '@playwright/test';
import { testEnv } from '../../support/environment';
import type { GatewayClient } from './gateway-client';

/** A password the policy takes (long, not common), different every call. */
export function strongPassword(): string {
  return `correct horse ${randomBytes(6).toString('hex')} staple`;
}

export interface DashboardCustomer {
  customerId: string;
  customerKey: string;
  email: string;
  password: string;
}

/**
 * A new customer whose owner has accepted their invite through the API, and the owner's session cookie put into
 * the browser context: the page opens signed in. (The invite → password → sign-in journey itself is a browser test.)
 */
export async function signedInCustomer(client: GatewayClient, context: BrowserContext, label: string): Promise<DashboardCustomer> {
  const email = `owner-${randomBytes(4).toString('hex')}@example.com`;
  const created = (await client.expectStatus(
    201,
    client.post(
      '/admin/customers',
      { name: `Dashboard ${label}`.slice(0, 100), ownerEmail: email },
      { 'X-Admin-Key': testEnv().ADMIN_API_KEY },
    ),
  )) as { id: string; apiKey: string; ownerInvite: { url: string } };
  const token = created.ownerInvite.url.slice(created.ownerInvite.url.lastIndexOf('/') + 1);
  const password = strongPassword();
  const response = await fetch(`${client.baseUrl}/auth/invites/${token}/accept`, {
    method: 'POST',
    headers: { 'Content-Type': 'application/json' },
    body: JSON.stringify({ password }),
  });
  if (response.status !== 200) throw new Error(`invite accept answered ${response.status}: ${await response.text()}`);
  const cookie = response.headers.getSetCookie().find((line) => line.startsWith('mgw_session='));
  if (!cookie) throw new Error('no session cookie');
  const value = cookie.slice('mgw_session='.length, cookie.indexOf(';'));
  // With the sign-in hint the console reads (apps/api/src/auth/session-cookie.ts), as a browser signing in gets both.
  await context.addCookies([
    { name: 'mgw_session', value, url: client.baseUrl, httpOnly: true, sameSite: 'Strict' },
    { name: 'mgw_signed_in', value: '1', url: client.baseUrl, sameSite: 'Strict' },
  ]);
  return { customerId: created.id, customerKey: created.apiKey, email, password };
}

/** A sandbox instance of the customer, paired to `phone` and connected, made through the API. */
export async function pairedSandboxInstance(
  client: GatewayClient,
  customerKey: string,
  phone: string,
): Promise<{ id: string; headers: Record<string, string> }> {
  const instance = (await client.expectStatus(
    201,
    client.post('/account/instances', { name: 'Support line', sandbox: true }, { 'X-Api-Key': customerKey }),
  )) as {
    id: string;
  };
  const headers = { 'X-Api-Key': customerKey, 'X-Instance-Id': instance.id };
  await client.expectStatus(200, client.post('/sandbox/pair', { phone }, headers));
  await client.waitFor(async () => {
    const status = await client.get('/session/status', headers);
    return (status.body as { isConnected?: boolean }).isConnected === true;
  }, 'the instance to connect');
  return { id: instance.id, headers };
}

/** Fails the test on any console error or uncaught page error: the dashboard must run clean. */
export function collectConsoleErrors(page: Page): string[] {
  const errors: string[] = [];
  page.on('console', (message) => {
    if (message.type() === 'error') errors.push(message.text());
  });
  page.on('pageerror', (error) => errors.push(error.stack ?? error.message));
  return errors;
}

/**
 * Watches a page's console for the whole test. Chromium logs every non-2xx answer to a fetch as a console error
 * ("Failed to load resource"); a test that provokes a refusal on purpose allows it with `allow(status, path)` just
 * before provoking it. Any other console error, a refusal before it was allowed, and any uncaught page error is
 * reported by `unexpected()`.
 */
export function watchConsole(page: Page): { allow: (status: number, path: string) => void; unexpected: () => string[] } {
  const allowed: Array<{ status: number; path: string }> = [];
  const unexpected: string[] = [];
  const failedLoad = /^Failed to load resource: the server responded with a status of (\d{3})/;
  page.on('console', (message) => {
    if (message.type() !== 'error') return;
    const status = Number(failedLoad.exec(message.text())?.[1]);
    const url = message.location().url;
    if (allowed.some((entry) => entry.status === status && url.includes(entry.path))) return;
    unexpected.push(`${message.text()} (${url})`);
  });
  page.on('pageerror', (error) => unexpected.push(error.stack ?? error.message));
  return { allow: (status, path) => allowed.push({ status, path }), unexpected: () => [...unexpected] };
}
