import { randomBytes } from 'node:crypto';
import type { Response } from 'supertest';
import { adminHeaders, type Customer } from './fixtures';
import type { Headers, Http } from './http';

/** A password that passes the policy (long, not common), different every call. */
export function strongPassword(): string {
  return `correct horse ${randomBytes(6).toString('hex')} staple`;
}

/** The session token from a response's `Set-Cookie`, with the cookie's attributes. */
export function sessionCookie(response: Response): { token: string; attributes: string } | undefined {
  const header = response.headers['set-cookie'] as unknown as string[] | undefined;
  const cookie = (header ?? []).find((line) => line.startsWith('mgw_session='));
  if (!cookie) return undefined;
  const [pair, ...attributes] = cookie.split(';');
  return { token: pair.slice('mgw_session='.length), attributes: attributes.map((part) => part.trim()).join('; ') };
}

export interface DashboardSession {
  token: string;
  csrfToken: string;
  userId: string;
  email: string;
}

/** Cookie plus CSRF token: what the dashboard sends on every request. */
export function sessionHeaders(session: DashboardSession): Headers {
  return { Cookie: `mgw_session=${session.token}`, 'X-CSRF-Token': session.csrfToken };
}

export interface CustomerWithOwner extends Customer {
  ownerEmail: string;
  inviteToken: string;
  inviteUrl: string;
}

export function tokenOf(inviteUrl: string): string {
  return inviteUrl.slice(inviteUrl.lastIndexOf('/') + 1);
}

export async function createCustomerWithOwner(
  http: Http,
  name: string,
  ownerEmail = `owner-${randomBytes(5).toString('hex')}@example.com`,
) {
  const response = await http.post('/admin/customers', { name, ownerEmail }, adminHeaders());
  if (response.status !== 201) throw new Error(`customer creation failed: ${response.status} ${JSON.stringify(response.body)}`);
  const body = response.body as Customer & { ownerInvite: { url: string; expiresAt: string } };
  return { ...body, ownerEmail, inviteUrl: body.ownerInvite.url, inviteToken: tokenOf(body.ownerInvite.url) } as CustomerWithOwner;
}

/** Accepts a one-time link with a password and returns the session it signs in. */
export async function acceptLink(http: Http, token: string, password: string): Promise<DashboardSession> {
  const response = await http.post(`/auth/invites/${token}/accept`, { password });
  if (response.status !== 200) throw new Error(`accept failed: ${response.status} ${JSON.stringify(response.body)}`);
  const body = response.body as { user: { id: string; email: string }; csrfToken: string };
  const cookie = sessionCookie(response);
  if (!cookie) throw new Error('accept set no session cookie');
  return { token: cookie.token, csrfToken: body.csrfToken, userId: body.user.id, email: body.user.email };
}

export async function signIn(http: Http, email: string, password: string): Promise<DashboardSession> {
  const response = await http.post('/auth/sign-in', { email, password });
  if (response.status !== 200) throw new Error(`sign-in failed: ${response.status} ${JSON.stringify(response.body)}`);
  const body = response.body as { user: { id: string; email: string }; csrfToken: string };
  const cookie = sessionCookie(response);
  if (!cookie) throw new Error('sign-in set no session cookie');
  return { token: cookie.token, csrfToken: body.csrfToken, userId: body.user.id, email: body.user.email };
}

/** A customer whose owner accepted the invite: its key, and a signed-in dashboard session. */
export async function customerWithSession(
  http: Http,
  name: string,
): Promise<{ customer: CustomerWithOwner; session: DashboardSession; password: string }> {
  const customer = await createCustomerWithOwner(http, name);
  const password = strongPassword();
  const session = await acceptLink(http, customer.inviteToken, password);
  return { customer, session, password };
}
