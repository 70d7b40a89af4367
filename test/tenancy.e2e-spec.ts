import { startApi, type RunningApi } from './support/api-harness';
import { customerWithSession, sessionHeaders, type DashboardSession } from './support/dashboard';
import { createInstance, type CreatedInstance, type Customer } from './support/fixtures';
import { Http } from './support/http';
import { expectErrorBody, useServedOpenApi } from './support/openapi';

describe('tenant isolation', () => {
  let api: RunningApi;
  let http: Http;
  let alice: Customer;
  let bob: Customer;
  let aliceInstance: CreatedInstance;
  let bobInstance: CreatedInstance;
  let snapshot: unknown;
  let aliceSession: DashboardSession;
  let bobSession: DashboardSession;

  beforeAll(async () => {
    api = await startApi();
    http = new Http(api.url);
    await useServedOpenApi(api.url);
    ({ customer: alice, session: aliceSession } = await customerWithSession(http, 'Alice Corp'));
    ({ customer: bob, session: bobSession } = await customerWithSession(http, 'Bob Corp'));
    aliceInstance = await createInstance(http, alice.apiKey, { name: 'alice-main', sandbox: true });
    bobInstance = await createInstance(http, bob.apiKey, { name: 'bob-main', sandbox: true });
    snapshot = (await http.get(`/account/instances/${aliceInstance.id}`, { 'X-Api-Key': alice.apiKey })).body;
  });

  afterAll(async () => {
    await api.close();
  });

  const bobOnAlice = () => ({ 'X-Api-Key': bob.apiKey, 'X-Instance-Id': aliceInstance.id });
  const bobsInstanceKeyOnAlice = () => ({ 'X-Api-Key': bobInstance.apiKey, 'X-Instance-Id': aliceInstance.id });

  it.each([
    ['GET', '/instance/settings', undefined],
    ['PUT', '/instance/settings', { pullMode: true }],
    ['PUT', '/instance/apikey', undefined],
  ])("answers %s %s with 401 for another customer's key or instance key", async (method, path, body) => {
    for (const headers of [bobOnAlice(), bobsInstanceKeyOnAlice()]) {
      const response = method === 'GET' ? await http.get(path, headers) : await http.put(path, body, headers);
      expectErrorBody(response, 401, 'unauthorized');
    }
  });

  it.each([
    ['GET', '', undefined],
    ['PUT', '/apikey', undefined],
    ['PUT', '/name', { name: 'stolen' }],
    ['PUT', '/settings', { webhookUrl: 'https://evil.example.com/' }],
    ['DELETE', '', undefined],
  ])('answers %s /account/instances/{id}%s with 404 for another customer', async (method, suffix, body) => {
    const path = `/account/instances/${aliceInstance.id}${suffix}`;
    const headers = { 'X-Api-Key': bob.apiKey };
    const response =
      method === 'GET'
        ? await http.get(path, headers)
        : method === 'DELETE'
          ? await http.delete(path, headers)
          : await http.put(path, body, headers);
    expectErrorBody(response, 404, 'not found');
  });

  it("never lists another customer's instances", async () => {
    const response = await http.get('/account/instances', { 'X-Api-Key': bob.apiKey });
    expect((response.body as { items: { id: string }[] }).items.map((item) => item.id)).toEqual([bobInstance.id]);
  });

  it('refuses an instance key on /account endpoints', async () => {
    expectErrorBody(await http.get('/account/instances', { 'X-Api-Key': aliceInstance.apiKey }), 401, 'unauthorized');
    expectErrorBody(await http.get('/account/instances/defaults', { 'X-Api-Key': aliceInstance.apiKey }), 401, 'unauthorized');
    expectErrorBody(await http.post('/account/apikey/rotate', undefined, { 'X-Api-Key': aliceInstance.apiKey }), 401, 'unauthorized');
  });

  describe('with a dashboard session instead of a key', () => {
    const bobsSession = () => sessionHeaders(bobSession);

    it.each([
      ['GET', '/instance/settings', undefined],
      ['PUT', '/instance/settings', { pullMode: true }],
      ['PUT', '/instance/apikey', undefined],
      ['GET', '/events', undefined],
      ['GET', '/events/stream', undefined],
      ['GET', '/session/status', undefined],
      ['POST', '/session/logout', undefined],
    ])("answers %s %s with 401 for another customer's session", async (method, path, body) => {
      const headers = { ...bobsSession(), 'X-Instance-Id': aliceInstance.id };
      const response =
        method === 'GET'
          ? await http.get(path, headers)
          : method === 'PUT'
            ? await http.put(path, body, headers)
            : await http.post(path, body, headers);
      expectErrorBody(response, 401, 'unauthorized');
    });

    it.each([
      ['GET', '', undefined],
      ['PUT', '/apikey', undefined],
      ['PUT', '/name', { name: 'stolen' }],
      ['PUT', '/settings', { webhookUrl: 'https://evil.example.com/' }],
      ['GET', '/pacing', undefined],
      ['PUT', '/pacing', { minIntervalMs: 60000 }],
      ['PUT', '/restart', undefined],
      ['POST', '/webhook/test', undefined],
      ['DELETE', '', undefined],
    ])("answers %s /account/instances/{id}%s with 404 for another customer's session", async (method, suffix, body) => {
      const path = `/account/instances/${aliceInstance.id}${suffix}`;
      const headers = bobsSession();
      const response =
        method === 'GET'
          ? await http.get(path, headers)
          : method === 'DELETE'
            ? await http.delete(path, headers)
            : method === 'POST'
              ? await http.post(path, body, headers)
              : await http.put(path, body, headers);
      expectErrorBody(response, 404, 'not found');
    });

    it("never shows another customer's instances or users, and cannot remove them", async () => {
      const instances = await http.get('/account/instances', bobsSession());
      expect((instances.body as { items: { id: string }[] }).items.map((item) => item.id)).toEqual([bobInstance.id]);
      const users = await http.get('/account/users', bobsSession());
      expect((users.body as { id: string }[]).map((user) => user.id)).toEqual([bobSession.userId]);
      expectErrorBody(await http.delete(`/account/users/${aliceSession.userId}`, bobsSession()), 404, 'not found');
      expect((await http.get('/account/users', sessionHeaders(aliceSession))).body).toHaveLength(1);
    });

    it("reads only the signed-in user's own customer from /auth/session", async () => {
      const response = await http.get('/auth/session', { Cookie: `mgw_session=${bobSession.token}` });
      expect((response.body as { user: { customerId: string } }).user.customerId).toBe(bob.id);
    });
  });

  it("left the victim's instance and keys untouched", async () => {
    expect((await http.get(`/account/instances/${aliceInstance.id}`, { 'X-Api-Key': alice.apiKey })).body).toEqual(snapshot);
    expect((await http.get('/instance/settings', { 'X-Api-Key': aliceInstance.apiKey, 'X-Instance-Id': aliceInstance.id })).status).toBe(
      200,
    );
  });
});
