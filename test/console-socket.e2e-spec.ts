import { startApi, type RunningApi } from './support/api-harness';
import { ConsoleSocketClient } from './support/console-socket-client';
import { customerWithSession, type DashboardSession } from './support/dashboard';
import { createInstance, type CreatedInstance } from './support/fixtures';
import { Http } from './support/http';
import { spawnApp, type AppProcess } from './support/processes';

/**
 * The console's one WebSocket per tab (`/dashboard/socket`): authenticated like the dashboard (session cookie, own
 * Origin), and carrying the same feeds as the SSE routes, with the same access checks and resume point.
 */
describe('console socket', () => {
  let api: RunningApi;
  let worker: AppProcess;
  let http: Http;
  let owner: { session: DashboardSession; customerKey: string };
  let instance: CreatedInstance;
  let foreign: CreatedInstance;
  const sockets: ConsoleSocketClient[] = [];

  const inbound = (text: string) =>
    http.post(
      '/sandbox/inbound',
      { from: '14155550142', type: 'text', text },
      { 'X-Api-Key': instance.apiKey, 'X-Instance-Id': instance.id },
    );

  beforeAll(async () => {
    [api, worker] = await Promise.all([startApi(), spawnApp('worker')]);
    http = new Http(api.url, { checkSpec: false });
    const created = await customerWithSession(http, 'Socket Co');
    owner = { session: created.session, customerKey: created.customer.apiKey };
    instance = await createInstance(http, owner.customerKey, { name: 'Front desk', sandbox: true });
    expect((await http.post('/sandbox/pair', {}, { 'X-Api-Key': instance.apiKey, 'X-Instance-Id': instance.id })).status).toBe(200);
    const other = await customerWithSession(http, 'Other Co');
    foreign = await createInstance(http, other.customer.apiKey, { name: 'Not yours', sandbox: true });
  }, 60_000);

  afterEach(() => sockets.splice(0).forEach((socket) => socket.close()));

  afterAll(async () => {
    await api?.close();
    await worker?.stop();
  });

  async function open(): Promise<ConsoleSocketClient> {
    const socket = await ConsoleSocketClient.open(api.url, owner.session.token);
    sockets.push(socket);
    return socket;
  }

  it('refuses an upgrade without a session, with an API key instead, or from a page of another origin', async () => {
    expect(await ConsoleSocketClient.refusal(api.url, {}, api.url)).toEqual({ status: 401, body: { status: 401, detail: 'unauthorized' } });
    expect(await ConsoleSocketClient.refusal(api.url, { 'X-Api-Key': owner.customerKey }, api.url)).toEqual({
      status: 401,
      body: { status: 401, detail: 'unauthorized' },
    });
    const cookie = { Cookie: `mgw_session=${owner.session.token}` };
    const csrf = { status: 403, body: { status: 403, detail: 'forbidden: csrf token missing or invalid' } };
    expect(await ConsoleSocketClient.refusal(api.url, cookie, 'https://evil.example')).toEqual(csrf);
    expect(await ConsoleSocketClient.refusal(api.url, cookie)).toEqual(csrf);
  });

  it("streams the customer's instance statuses, and an instance's events from a resume point, over one socket", async () => {
    const socket = await open();
    socket.send({ type: 'subscribe', id: 'status', stream: 'instances' });
    await socket.waitFor((client) => client.dataOf('status').length > 0);
    expect(socket.of('status')[0]).toEqual({ id: 'status', type: 'open' });
    expect(socket.dataOf('status')).toEqual([
      { data: { instanceId: instance.id, status: 'connected', deviceId: expect.any(String), updatedAt: expect.any(String) } },
    ]);

    expect((await inbound('first')).status).toBe(201);
    socket.send({ type: 'subscribe', id: 'log', stream: 'events', instanceId: instance.id, after: 0 });
    await socket.waitFor((client) =>
      client.dataOf('log').some((frame) => (frame.data as { eventData?: { text?: string } }).eventData?.text === 'first'),
    );
    const seen = socket.dataOf('log');
    const lastId = seen[seen.length - 1].id;
    expect(lastId).toMatch(/^\d+$/);

    // A page coming back resumes after the last id it saw: only what came later.
    socket.send({ type: 'unsubscribe', id: 'log' });
    expect((await inbound('second')).status).toBe(201);
    socket.send({ type: 'subscribe', id: 'log2', stream: 'events', instanceId: instance.id, lastEventId: lastId });
    await socket.waitFor((client) => client.dataOf('log2').length > 0);
    expect(socket.dataOf('log2').map((frame) => (frame.data as { eventData?: { text?: string } }).eventData?.text)).toEqual(['second']);
  });

  it("refuses another customer's instance and unreadable messages", async () => {
    const socket = await open();
    socket.send({ type: 'subscribe', id: 'theirs', stream: 'events', instanceId: foreign.id });
    await socket.waitFor((client) => client.of('theirs').length > 0);
    expect(socket.of('theirs')).toEqual([{ id: 'theirs', type: 'error', status: 401, detail: 'unauthorized' }]);
    socket.send({ type: 'subscribe', id: 'bad', stream: 'events', instanceId: instance.id, lastEventId: 'abc' });
    await socket.waitFor((client) => client.closeCode !== undefined);
    expect(socket.closeCode).toBe(1008);
  });
});
