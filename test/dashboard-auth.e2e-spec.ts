import { execFile } from 'node:child_process';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { promisify } from 'node:util';
import { Client } from 'pg';
import type { Response } from 'supertest';
import { startApi, type RunningApi } from './support/api-harness';
import {
  acceptLink,
  createCustomerWithOwner,
  customerWithSession,
  sessionCookie,
  sessionHeaders,
  signIn,
  strongPassword,
  tokenOf,
} from './support/dashboard';
import { subPrefix, testConfig, testEnv } from './support/environment';
import { eventually } from './support/event-log';
import { adminHeaders, createInstance } from './support/fixtures';
import { Http } from './support/http';
import { expectErrorBody, useServedOpenApi } from './support/openapi';
import { spawnApp } from './support/processes';

const CSRF_REFUSED = 'forbidden: csrf token missing or invalid';

describe('dashboard users, invites and sessions', () => {
  let api: RunningApi;
  let http: Http;

  beforeAll(async () => {
    api = await startApi();
    http = new Http(api.url);
    await useServedOpenApi(api.url);
  });

  afterAll(async () => {
    await api.close();
  });

  it('invite → set password → sign in, then every customer route works with the cookie (and the CSRF token to change things)', async () => {
    const customer = await createCustomerWithOwner(http, 'Dash Co', 'Owner@Example.com'.replace('Owner', `owner-${Date.now()}`));
    const email = customer.ownerEmail.toLowerCase();
    expect(customer.inviteUrl).toBe(`${api.url}/dashboard/invite/${customer.inviteToken}`);
    expect(customer.inviteToken).toMatch(/^[A-Za-z0-9_-]{43}$/);

    const described = await http.get(`/auth/invites/${customer.inviteToken}`);
    expect(described.status).toBe(200);
    expect(described.body).toEqual({ email, customerName: 'Dash Co', expiresAt: expect.any(String), purpose: 'invite' });
    const expiresIn = Date.parse((described.body as { expiresAt: string }).expiresAt) - Date.now();
    expect(expiresIn).toBeGreaterThan(71 * 3600_000);
    expect(expiresIn).toBeLessThanOrEqual(72 * 3600_000);

    const password = strongPassword();
    const accepted = await http.post(`/auth/invites/${customer.inviteToken}/accept`, { password });
    expect(accepted.status).toBe(200);
    const user = { id: expect.stringMatching(/^usr_/), email, customerId: customer.id, customerName: 'Dash Co' };
    expect(accepted.body).toEqual({ user, csrfToken: expect.stringMatching(/^[A-Za-z0-9_-]{43}$/) });
    expect(sessionCookie(accepted)?.attributes).toBe('Path=/; HttpOnly; SameSite=Strict; Max-Age=604800');

    const session = await signIn(http, email.toUpperCase(), password);
    expect(session.token).not.toBe(sessionCookie(accepted)?.token);
    const current = await http.get('/auth/session', { Cookie: `mgw_session=${session.token}` });
    expect(current.status).toBe(200);
    expect(current.body).toEqual({ user, csrfToken: session.csrfToken });

    const created = await http.post('/account/instances', { name: 'from the dashboard', sandbox: true }, sessionHeaders(session));
    expect(created.status).toBe(201);
    const instanceId = (created.body as { id: string }).id;
    const listed = await http.get('/account/instances', { Cookie: `mgw_session=${session.token}` });
    expect((listed.body as { items: { id: string }[] }).items.map((item) => item.id)).toEqual([instanceId]);
    const settings = await http.get('/instance/settings', { Cookie: `mgw_session=${session.token}`, 'X-Instance-Id': instanceId });
    expect(settings.status).toBe(200);
    const renamed = await http.put(`/account/instances/${instanceId}/name`, { name: 'renamed' }, sessionHeaders(session));
    expect(renamed.status).toBe(204);
    const keyHeaders = { 'X-Api-Key': customer.apiKey };
    expect((await http.get(`/account/instances/${instanceId}`, keyHeaders)).body).toMatchObject({ name: 'renamed' });
  });

  it('refuses short and common passwords with a clear 400 and leaves the link usable', async () => {
    const customer = await createCustomerWithOwner(http, 'Weak Passwords');
    const refusals: [string, string][] = [
      ['short-pw', 'validation error: password must be at least 12 characters'],
      ['password1234', 'validation error: password is too common'],
      ['qwertyuiop123!', 'validation error: password is too common'],
      ['qwertyqwerty', 'validation error: password is too common'],
      ['aaaaaaaaaaaaaaaa', 'validation error: password is too common'],
      ['123456789012', 'validation error: password is too common'],
    ];
    for (const [password, detail] of refusals) {
      expectErrorBody(await http.post(`/auth/invites/${customer.inviteToken}/accept`, { password }), 400, detail);
    }
    expectErrorBody(await http.post(`/auth/invites/${customer.inviteToken}/accept`, {}), 400, 'validation error: password is required');
    expect((await http.get(`/auth/invites/${customer.inviteToken}`)).status).toBe(200);
    await acceptLink(http, customer.inviteToken, strongPassword());
  });

  it('answers a reused link with 410 and an unknown one with 404, changing nothing', async () => {
    const customer = await createCustomerWithOwner(http, 'Reuse');
    const password = strongPassword();
    await acceptLink(http, customer.inviteToken, password);
    expectErrorBody(await http.get(`/auth/invites/${customer.inviteToken}`), 410, 'gone: this link has expired or was already used');
    const second = await http.post(`/auth/invites/${customer.inviteToken}/accept`, { password: strongPassword() });
    expectErrorBody(second, 410, 'gone: this link has expired or was already used');
    expect(sessionCookie(second)).toBeUndefined();
    // The first password still works: the refused second use changed nothing.
    await signIn(http, customer.ownerEmail, password);
    expectErrorBody(await http.get(`/auth/invites/${'x'.repeat(43)}`), 404, 'not found');
    expectErrorBody(await http.post(`/auth/invites/nonsense/accept`, { password: strongPassword() }), 404, 'not found');
  });

  it('answers one way for an unknown email and a wrong password', async () => {
    const { customer } = await customerWithSession(http, 'Wrong Password');
    for (const body of [
      { email: customer.ownerEmail, password: 'not the password at all' },
      { email: 'nobody-here@example.com', password: 'not the password at all' },
    ]) {
      const response = await http.post('/auth/sign-in', body);
      expectErrorBody(response, 401, 'unauthorized: wrong email or password');
      expect(sessionCookie(response)).toBeUndefined();
    }
    expectErrorBody(
      await http.post('/auth/sign-in', { email: 'not-an-email', password: 'x' }),
      400,
      'validation error: email must be an email address',
    );
  });

  it('never adopts a session id the browser brought: a new token on every sign-in, and the old session ends', async () => {
    const { customer, password } = await customerWithSession(http, 'Fixation');
    const planted = 'A'.repeat(43);
    const response = await http.post('/auth/sign-in', { email: customer.ownerEmail, password }, { Cookie: `mgw_session=${planted}` });
    expect(response.status).toBe(200);
    const issued = sessionCookie(response)?.token;
    expect(issued).toMatch(/^[A-Za-z0-9_-]{43}$/);
    expect(issued).not.toBe(planted);
    expectErrorBody(await http.get('/auth/session', { Cookie: `mgw_session=${planted}` }), 401, 'unauthorized');
    expectErrorBody(await http.get('/account/instances', { Cookie: `mgw_session=${planted}` }), 401, 'unauthorized');

    // Signing in again from a browser that holds a live session replaces that session.
    const again = await http.post('/auth/sign-in', { email: customer.ownerEmail, password }, { Cookie: `mgw_session=${issued}` });
    const next = sessionCookie(again)?.token;
    expect(next).not.toBe(issued);
    expectErrorBody(await http.get('/auth/session', { Cookie: `mgw_session=${issued}` }), 401, 'unauthorized');
    expect((await http.get('/auth/session', { Cookie: `mgw_session=${next}` })).status).toBe(200);
  });

  it('refuses state-changing cookie requests without the CSRF token or from another origin, and changes nothing', async () => {
    const { customer, session } = await customerWithSession(http, 'Csrf');
    const instance = await createInstance(http, customer.apiKey);
    const cookie = { Cookie: `mgw_session=${session.token}` };
    const evil = { Origin: 'https://evil.example' };
    const attempts: [string, () => Promise<Response>][] = [
      ['no token', () => http.post('/account/instances', { name: 'forged' }, cookie)],
      ['a wrong token', () => http.post('/account/instances', { name: 'forged' }, { ...cookie, 'X-CSRF-Token': 'x'.repeat(43) })],
      ['another origin', () => http.post('/account/instances', { name: 'forged' }, { ...sessionHeaders(session), ...evil })],
      [
        'a cross-origin form post',
        () =>
          http
            .unchecked()
            .raw('post', '/account/apikey/rotate', '', { ...cookie, ...evil, 'Content-Type': 'application/x-www-form-urlencoded' }),
      ],
      ['a delete without token', () => http.delete(`/account/instances/${instance.id}`, cookie)],
      ['an invite without token', () => http.post('/account/users', { email: 'mallory@example.com' }, cookie)],
      ['a sign-out without token', () => http.post('/auth/sign-out', undefined, cookie)],
      [
        'an instance route without token',
        () => http.put('/instance/settings', { pullMode: true }, { ...cookie, 'X-Instance-Id': instance.id }),
      ],
    ];
    for (const [label, attempt] of attempts) {
      const response = await attempt();
      expect({ label, status: response.status, body: response.body }).toEqual({
        label,
        status: 403,
        body: { status: 403, detail: CSRF_REFUSED },
      });
    }
    const sameOrigin = await http.post('/account/instances', { name: 'legit' }, { ...sessionHeaders(session), Origin: api.url });
    expect(sameOrigin.status).toBe(201);
    const names = (await http.get('/account/instances', { 'X-Api-Key': customer.apiKey })).body as { items: { name: string }[] };
    expect(names.items.map((item) => item.name).sort()).toEqual(['legit', 'main']);
    expect((await http.get('/account/users', { 'X-Api-Key': customer.apiKey })).body).toHaveLength(1);
    expect((await http.get('/instance/settings', { 'X-Api-Key': customer.apiKey, 'X-Instance-Id': instance.id })).body).toMatchObject({
      pullMode: false,
    });
    expect((await http.get('/auth/session', cookie)).status).toBe(200);
    // The key was not rotated by the forged form post.
    expect((await http.get('/account/instances', { 'X-Api-Key': customer.apiKey })).status).toBe(200);
    expectErrorBody(await http.post('/auth/sign-in', { email: customer.ownerEmail, password: 'whatever it is' }, evil), 403, CSRF_REFUSED);
    // A cookie that is not one of ours does not get a body parsed on its behalf.
    const junk = await http
      .unchecked()
      .raw('post', '/account/instances', '{"name":', { Cookie: 'mgw_session=junk', 'Content-Type': 'application/json' });
    expectErrorBody(junk, 401, 'unauthorized');
  });

  it('signs out one session, or every session of the user', async () => {
    const { customer, password, session: first } = await customerWithSession(http, 'Sign Out');
    const second = await signIn(http, customer.ownerEmail, password);
    const third = await signIn(http, customer.ownerEmail, password);
    const out = await http.post('/auth/sign-out', undefined, sessionHeaders(first));
    expect(out.status).toBe(204);
    expect(sessionCookie(out)?.attributes).toContain('Max-Age=0');
    expectErrorBody(await http.get('/account/instances', { Cookie: `mgw_session=${first.token}` }), 401, 'unauthorized');
    expect((await http.get('/account/instances', { Cookie: `mgw_session=${second.token}` })).status).toBe(200);

    expect((await http.post('/auth/sign-out-everywhere', undefined, sessionHeaders(second))).status).toBe(204);
    for (const session of [second, third]) {
      expectErrorBody(await http.get('/auth/session', { Cookie: `mgw_session=${session.token}` }), 401, 'unauthorized');
    }
    expect((await signIn(http, customer.ownerEmail, password)).token).toMatch(/\S/);
  });

  it('invites and removes teammates; the last user who can sign in stays', async () => {
    const { customer, session } = await customerWithSession(http, 'Team');
    const mateEmail = `mate-${Date.now()}@example.com`;
    const invited = await http.post('/account/users', { email: ` ${mateEmail.toUpperCase()} ` }, sessionHeaders(session));
    expect(invited.status).toBe(201);
    const invite = invited.body as { user: { id: string }; inviteUrl: string; inviteExpiresAt: string };
    expect(invite).toEqual({
      user: { id: expect.stringMatching(/^usr_/), email: mateEmail, status: 'invited', createdAt: expect.any(String) },
      inviteUrl: expect.stringMatching(new RegExp(`^${api.url}/dashboard/invite/[A-Za-z0-9_-]{43}$`)),
      inviteExpiresAt: expect.any(String),
    });
    expectErrorBody(
      await http.post('/account/users', { email: mateEmail }, sessionHeaders(session)),
      409,
      'conflict: a dashboard user with this email already exists',
    );
    expectErrorBody(
      await http.post('/account/users', { email: customer.ownerEmail }, { 'X-Api-Key': customer.apiKey }),
      409,
      'conflict: a dashboard user with this email already exists',
    );

    const mate = await acceptLink(http, tokenOf(invite.inviteUrl), strongPassword());
    const listed = await http.get('/account/users', { 'X-Api-Key': customer.apiKey });
    expect(listed.body).toEqual([
      { id: session.userId, email: customer.ownerEmail, status: 'active', createdAt: expect.any(String), lastSignInAt: expect.any(String) },
      { id: mate.userId, email: mateEmail, status: 'active', createdAt: expect.any(String), lastSignInAt: expect.any(String) },
    ]);

    // The teammate removes the owner; the owner's session ends at once.
    expect((await http.delete(`/account/users/${session.userId}`, sessionHeaders(mate))).status).toBe(204);
    expectErrorBody(await http.get('/account/users', { Cookie: `mgw_session=${session.token}` }), 401, 'unauthorized');
    // Now the teammate is the last active user: refused, whoever asks.
    expectErrorBody(
      await http.delete(`/account/users/${mate.userId}`, sessionHeaders(mate)),
      409,
      'conflict: the last active user of a customer cannot be removed',
    );
    expectErrorBody(
      await http.delete(`/account/users/${mate.userId}`, { 'X-Api-Key': customer.apiKey }),
      409,
      'conflict: the last active user of a customer cannot be removed',
    );
    // An invited (not yet active) user can always go, and their link dies with them.
    const pending = (await http.post('/account/users', { email: `pending-${Date.now()}@example.com` }, sessionHeaders(mate)))
      .body as typeof invite;
    expect((await http.delete(`/account/users/${pending.user.id}`, sessionHeaders(mate))).status).toBe(204);
    expectErrorBody(await http.get(`/auth/invites/${tokenOf(pending.inviteUrl)}`), 404, 'not found');
    expectErrorBody(await http.delete('/account/users/usr_unknown', sessionHeaders(mate)), 404, 'not found');
    expect((await http.get('/account/users', sessionHeaders(mate))).body).toHaveLength(1);
  });

  it("refuses a disabled customer's keys, sessions and sign-ins, and lets them back in when re-enabled", async () => {
    const { customer, session, password } = await customerWithSession(http, 'Disabled');
    const instance = await createInstance(http, customer.apiKey);
    const disabled = await http.put(`/admin/customers/${customer.id}/disabled`, { disabled: true }, adminHeaders());
    expect(disabled.status).toBe(200);
    expect(disabled.body).toEqual({ id: customer.id, name: 'Disabled', created: expect.any(String), disabled: true });
    const refused = 'forbidden: this customer is disabled';
    expectErrorBody(await http.get('/account/instances', { 'X-Api-Key': customer.apiKey }), 403, refused);
    expectErrorBody(await http.get('/instance/settings', { 'X-Api-Key': instance.apiKey, 'X-Instance-Id': instance.id }), 403, refused);
    expectErrorBody(await http.get('/account/instances', { Cookie: `mgw_session=${session.token}` }), 403, refused);
    expectErrorBody(await http.post('/auth/sign-in', { email: customer.ownerEmail, password }), 403, refused);
    const listed = await http.get('/admin/customers?pageSize=100', adminHeaders());
    expect((listed.body as { items: { id: string; disabled: boolean }[] }).items.find((item) => item.id === customer.id)?.disabled).toBe(
      true,
    );

    expect((await http.put(`/admin/customers/${customer.id}/disabled`, { disabled: false }, adminHeaders())).body).toMatchObject({
      disabled: false,
    });
    expect((await http.get('/account/instances', { 'X-Api-Key': customer.apiKey })).status).toBe(200);
    expect((await http.get('/account/instances', { Cookie: `mgw_session=${session.token}` })).status).toBe(200);
    expectErrorBody(await http.put('/admin/customers/cus_unknown/disabled', { disabled: true }, adminHeaders()), 404, 'not found');
    expectErrorBody(
      await http.put(`/admin/customers/${customer.id}/disabled`, {}, adminHeaders()),
      400,
      'validation error: disabled is required',
    );
  });

  it('gives the operator the users, a password-reset link, and an overview', async () => {
    const { customer, session, password } = await customerWithSession(http, 'Operator View');
    const users = await http.get(`/admin/customers/${customer.id}/users`, adminHeaders());
    expect(users.body).toEqual([
      { id: session.userId, email: customer.ownerEmail, status: 'active', createdAt: expect.any(String), lastSignInAt: expect.any(String) },
    ]);
    expectErrorBody(await http.get(`/admin/customers/${customer.id}/users`, { 'X-Api-Key': customer.apiKey }), 401, 'unauthorized');
    expectErrorBody(await http.get('/admin/customers/cus_unknown/users', adminHeaders()), 404, 'not found');

    const reset = await http.post(`/admin/customers/${customer.id}/users/${session.userId}/password-reset`, undefined, adminHeaders());
    expect(reset.status).toBe(201);
    const link = reset.body as { inviteUrl: string; expiresAt: string };
    expect(link).toEqual({ inviteUrl: expect.stringMatching(/\/dashboard\/invite\/[A-Za-z0-9_-]{43}$/), expiresAt: expect.any(String) });
    expect((await http.get(`/auth/invites/${tokenOf(link.inviteUrl)}`)).body).toMatchObject({
      purpose: 'password_reset',
      email: customer.ownerEmail,
    });
    // Until the link is used, the old password still works.
    await signIn(http, customer.ownerEmail, password);
    const newPassword = strongPassword();
    await acceptLink(http, tokenOf(link.inviteUrl), newPassword);
    expectErrorBody(await http.get('/auth/session', { Cookie: `mgw_session=${session.token}` }), 401, 'unauthorized');
    expectErrorBody(
      await http.post('/auth/sign-in', { email: customer.ownerEmail, password }),
      401,
      'unauthorized: wrong email or password',
    );
    await signIn(http, customer.ownerEmail, newPassword);
    const otherCustomer = await createCustomerWithOwner(http, 'Somebody Else');
    expectErrorBody(
      await http.post(`/admin/customers/${otherCustomer.id}/users/${session.userId}/password-reset`, undefined, adminHeaders()),
      404,
      'not found',
    );

    const overview = await http.get('/admin/overview', adminHeaders());
    expect(overview.status).toBe(200);
    const body = overview.body as {
      shards: { total: number; owned: number; unowned: number };
      customers: { total: number };
      instances: { total: number };
    };
    // SHARD_COUNT's default: 4,096 virtual shards.
    expect(body.shards.total).toBe(4096);
    expect(body.shards.owned + body.shards.unowned).toBe(4096);
    expect(body.customers.total).toBeGreaterThanOrEqual(2);
    expectErrorBody(
      await http.post('/admin/customers', { name: 'Dup', ownerEmail: customer.ownerEmail }, adminHeaders()),
      409,
      'conflict: a dashboard user with this email already exists',
    );
  });
});

describe('the CLI', () => {
  it('creates a customer with its first dashboard user and prints the one-time invite link', async () => {
    const api = await startApi();
    try {
      const http = new Http(api.url);
      await useServedOpenApi(api.url);
      const email = `cli-${Date.now()}@example.com`;
      const cli = join(__dirname, '..', 'dist', 'apps', 'api', 'src', 'cli.js');
      const { stdout } = await promisify(execFile)(
        process.execPath,
        [cli, 'customers:create', '--name', 'From CLI', '--owner-email', email],
        {
          env: { ...process.env, ...testEnv(), LOG_LEVEL: 'silent', PORT: '4321' },
        },
      );
      const created = JSON.parse(stdout.trim()) as { id: string; ownerInvite: { url: string; expiresAt: string } };
      expect(created).toEqual({
        id: expect.stringMatching(/^cus_/),
        name: 'From CLI',
        apiKey: expect.stringMatching(/^mgw_ck_/),
        ownerInvite: {
          url: expect.stringMatching(/^http:\/\/localhost:4321\/dashboard\/invite\/[A-Za-z0-9_-]{43}$/),
          expiresAt: expect.any(String),
        },
      });
      const described = await http.get(`/auth/invites/${tokenOf(created.ownerInvite.url)}`);
      expect(described.body).toEqual({ email, customerName: 'From CLI', expiresAt: created.ownerInvite.expiresAt, purpose: 'invite' });
    } finally {
      await api.close();
    }
  });
});

describe('dashboard cookie over HTTPS', () => {
  it('marks the session cookie Secure when the request came over HTTPS through a trusted proxy', async () => {
    const api = await startApi({ trustProxy: ['loopback'] });
    try {
      const http = new Http(api.url);
      await useServedOpenApi(api.url);
      const customer = await createCustomerWithOwner(http, 'Behind TLS');
      const accepted = await http.post(
        `/auth/invites/${customer.inviteToken}/accept`,
        { password: strongPassword() },
        { 'X-Forwarded-Proto': 'https', Origin: api.url.replace('http:', 'https:') },
      );
      expect(accepted.status).toBe(200);
      expect(sessionCookie(accepted)?.attributes).toBe('Path=/; HttpOnly; SameSite=Strict; Max-Age=604800; Secure');
    } finally {
      await api.close();
    }
  });
});

describe('dashboard sign-in limits', () => {
  it('limits failed sign-ins per email address, whatever the password of the next try', async () => {
    const api = await startApi({ queuePrefix: subPrefix('signin'), dashboard: { ...testConfig().dashboard, signInFailureLimit: 3 } });
    try {
      const http = new Http(api.url);
      await useServedOpenApi(api.url);
      const { customer, password } = await customerWithSession(http, 'Brute');
      const other = await customerWithSession(http, 'Bystander');
      for (let attempt = 0; attempt < 3; attempt += 1) {
        expectErrorBody(
          await http.post('/auth/sign-in', { email: customer.ownerEmail, password: `guess number ${attempt}` }),
          401,
          'unauthorized: wrong email or password',
        );
      }
      const blocked = await http.post('/auth/sign-in', { email: customer.ownerEmail, password });
      expectErrorBody(
        blocked,
        429,
        /^rate limited: too many failed sign-ins for this email address; try again at \d{4}-\d\d-\d\dT[\d:.]+Z$/,
      );
      expect(Number(blocked.headers['retry-after'])).toBeGreaterThan(800);
      expect(sessionCookie(blocked)).toBeUndefined();
      await signIn(http, other.customer.ownerEmail, other.password);
    } finally {
      await api.close();
    }
  });

  it('blocks an address after repeated failed sign-ins, across email addresses', async () => {
    const api = await startApi({
      queuePrefix: subPrefix('signin_addr'),
      authFailureLimit: { limit: 4, windowSeconds: 60, blockSeconds: 60 },
    });
    try {
      const http = new Http(api.url);
      await useServedOpenApi(api.url);
      const { customer, password } = await customerWithSession(http, 'Address Block');
      for (let attempt = 0; attempt < 5; attempt += 1) {
        const response = await http.post('/auth/sign-in', { email: `spray-${attempt}@example.com`, password: 'a guessed password' });
        expectErrorBody(response, 401, 'unauthorized: wrong email or password');
      }
      const blocked = await http.post('/auth/sign-in', { email: customer.ownerEmail, password });
      expectErrorBody(blocked, 429, /^rate limited: too many failed sign-ins from your address; try again at [\dT:.-]+Z$/);
      // The time named is the time Retry-After gives.
      const until = Date.parse((blocked.body as { detail: string }).detail.split('try again at ')[1]);
      expect(Math.abs(until - (Date.now() + Number(blocked.headers['retry-after']) * 1000))).toBeLessThan(2_000);
    } finally {
      await api.close();
    }
  });

  it('counts failed API keys apart: 30 wrong keys from an address leave its correct sign-in working', async () => {
    const api = await startApi({
      queuePrefix: subPrefix('signin_keys'),
      authFailureLimit: { limit: 30, windowSeconds: 60, blockSeconds: 900 },
    });
    try {
      const http = new Http(api.url);
      await useServedOpenApi(api.url);
      const { customer, password } = await customerWithSession(http, 'Shared NAT');
      // 30 within the limit, and the one that crosses it: all answered 401.
      for (let attempt = 0; attempt < 31; attempt += 1) {
        expectErrorBody(await http.get('/account/instances', { 'X-Api-Key': `mgw_wrong_${attempt}` }), 401, 'unauthorized');
      }
      // The key guessing is now blocked for the address...
      expectErrorBody(await http.get('/account/instances', { 'X-Api-Key': 'mgw_wrong_again' }), 429, 'rate limited');
      // ...and the person behind the same address still signs in and uses the console.
      const session = await signIn(http, customer.ownerEmail, password);
      expect((await http.get('/account/instances', sessionHeaders(session))).status).toBe(200);
    } finally {
      await api.close();
    }
  });
});

describe('dashboard session expiry', () => {
  it('ends a session after its idle time, and after its absolute lifetime however active it is', async () => {
    const api = await startApi({ dashboard: { ...testConfig().dashboard, sessionIdleSeconds: 3, sessionMaxSeconds: 6 } });
    try {
      const http = new Http(api.url);
      await useServedOpenApi(api.url);
      const { customer, password, session: active } = await customerWithSession(http, 'Expiry');
      const idle = await signIn(http, customer.ownerEmail, password);
      const started = Date.now();
      const use = (session: { token: string }) => http.get('/auth/session', { Cookie: `mgw_session=${session.token}` });
      // Used every 1.5 s (under the 3 s idle time): alive until the 6 s lifetime is over.
      while (Date.now() - started < 4_500) {
        expect((await use(active)).status).toBe(200);
        await sleep(1_500);
      }
      expectErrorBody(await use(idle), 401, 'unauthorized');
      await sleep(Math.max(0, 6_300 - (Date.now() - started)));
      expectErrorBody(await use(active), 401, 'unauthorized');
    } finally {
      await api.close();
    }
  });

  it('answers an expired one-time link with 410', async () => {
    const api = await startApi({ dashboard: { ...testConfig().dashboard, linkTtlSeconds: 1 } });
    try {
      const http = new Http(api.url);
      await useServedOpenApi(api.url);
      const customer = await createCustomerWithOwner(http, 'Late');
      await sleep(1_200);
      expectErrorBody(await http.get(`/auth/invites/${customer.inviteToken}`), 410, 'gone: this link has expired or was already used');
      expectErrorBody(
        await http.post(`/auth/invites/${customer.inviteToken}/accept`, { password: strongPassword() }),
        410,
        'gone: this link has expired or was already used',
      );
    } finally {
      await api.close();
    }
  });
});

describe('passwords stay secret', () => {
  it('never appear in responses or logs (even at trace level), and only an argon2id hash is stored', async () => {
    // Its own key prefix: the address-failure counters of the run's other suites must not decide this test's answers.
    const app = await spawnApp('api', { LOG_LEVEL: 'trace', QUEUE_PREFIX: subPrefix('secrets') });
    const database = new Client({ connectionString: testEnv().DATABASE_URL });
    try {
      const http = new Http(app.url, { checkSpec: false });
      const customer = await createCustomerWithOwner(http, 'Secret Keeper');
      const password = strongPassword();
      const responses: Response[] = [];
      responses.push(await http.post(`/auth/invites/${customer.inviteToken}/accept`, { password: 'short' }));
      responses.push(await http.post(`/auth/invites/${customer.inviteToken}/accept`, { password, extra: password }));
      responses.push(await http.post(`/auth/invites/${customer.inviteToken}/accept`, { password }));
      responses.push(await http.post('/auth/sign-in', { email: customer.ownerEmail, password: `${password}x` }));
      responses.push(await http.post('/auth/sign-in', { email: customer.ownerEmail, password }));
      responses.push(
        await http.raw('post', '/auth/sign-in', `{"email":"${customer.ownerEmail}","password":"${password}"`, {
          'Content-Type': 'application/json',
        }),
      );
      expect(responses.map((response) => response.status)).toEqual([400, 400, 200, 401, 200, 400]);
      for (const response of responses) expect(JSON.stringify({ headers: response.headers, body: response.body })).not.toContain(password);
      // The barrier: the log line of a later request. Lines are written in order, so every earlier one is there too.
      await http.get('/auth/session');
      await eventually(
        () => Promise.resolve(app.output()),
        (output) => output.includes('/auth/session'),
      );
      expect(app.output()).toContain('/auth/sign-in');
      expect(app.output()).not.toContain(password);
      await database.connect();
      const stored = await database.query<{ password_hash: string }>('SELECT password_hash FROM dashboard_users WHERE email = $1', [
        customer.ownerEmail,
      ]);
      expect(stored.rows[0].password_hash).toMatch(/^\$argon2id\$v=19\$m=19456,t=2,p=1\$/);
      expect(stored.rows[0].password_hash).not.toContain(password);
      const sessions = await database.query<{ token_hash: string }>('SELECT token_hash FROM dashboard_sessions');
      for (const row of sessions.rows) expect(row.token_hash).toMatch(/^[0-9a-f]{64}$/);
    } finally {
      await database.end();
      await app.stop();
    }
  });
});
