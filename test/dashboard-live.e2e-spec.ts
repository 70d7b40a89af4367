import { webhookSignatureHeaders } from '@app/security';
import { startApi, type RunningApi } from './support/api-harness';
import { customerWithSession, sessionHeaders, type DashboardSession } from './support/dashboard';
import { eventually } from './support/event-log';
import { adminHeaders, type CreatedInstance, type Customer } from './support/fixtures';
import { Http } from './support/http';
import { waitForStatus } from './support/instance-world';
import { expectErrorBody, useServedOpenApi } from './support/openapi';
import { spawnApp, type AppProcess } from './support/processes';
import { WebhookReceiver } from './support/webhook-receiver';

interface StatusMessage {
  instanceId: string;
  status: string;
  deviceId: string;
  updatedAt: string;
}

/** Reads the status stream the way the dashboard does: fetch with the cookie, and a stream reader. */
async function openStatusStream(baseUrl: string, session: DashboardSession) {
  const controller = new AbortController();
  const response = await fetch(`${baseUrl}/account/instances/stream`, {
    headers: { Cookie: `mgw_session=${session.token}` },
    signal: controller.signal,
  });
  const messages: StatusMessage[] = [];
  const reader = response.body?.getReader();
  const decoder = new TextDecoder();
  let buffer = '';
  void (async () => {
    try {
      for (;;) {
        const chunk = await reader?.read();
        if (!chunk || chunk.done) return;
        buffer += decoder.decode(chunk.value, { stream: true });
        for (let end = buffer.indexOf('\n\n'); end >= 0; end = buffer.indexOf('\n\n')) {
          const frame = buffer.slice(0, end);
          buffer = buffer.slice(end + 2);
          for (const line of frame.split('\n')) if (line.startsWith('data: ')) messages.push(JSON.parse(line.slice(6)) as StatusMessage);
        }
      }
    } catch {
      // aborted by close()
    }
  })();
  return { response, messages, close: () => controller.abort() };
}

describe('dashboard: live instance list, test webhook, newest-first events, operator overview', () => {
  let api: RunningApi;
  let worker: AppProcess;
  let http: Http;
  let receiver: WebhookReceiver;
  let owner: { customer: Customer; session: DashboardSession };
  let stranger: { customer: Customer; session: DashboardSession };
  let instance: CreatedInstance;

  beforeAll(async () => {
    receiver = await WebhookReceiver.start();
    [api, worker] = await Promise.all([startApi({ webhookAllowedHosts: ['127.0.0.1'] }), spawnApp('worker')]);
    http = new Http(api.url);
    await useServedOpenApi(api.url);
    [owner, stranger] = await Promise.all([customerWithSession(http, 'Live Co'), customerWithSession(http, 'Live Stranger')]);
    const created = await http.post('/account/instances', { name: 'live', sandbox: true }, sessionHeaders(owner.session));
    instance = created.body as CreatedInstance;
  });

  afterAll(async () => {
    await Promise.all([api?.close(), worker?.stop(), receiver?.close()]);
  });

  const asOwner = () => ({ ...sessionHeaders(owner.session), 'X-Instance-Id': instance.id });

  it("streams the current status of the customer's instances, then each change, and nothing of other customers", async () => {
    const stream = await openStatusStream(api.url, owner.session);
    const strangers = await openStatusStream(api.url, stranger.session);
    try {
      expect(stream.response.status).toBe(200);
      expect(stream.response.headers.get('content-type')).toBe('text/event-stream');
      const first = await eventually(
        () => Promise.resolve(stream.messages),
        (messages) => messages.length > 0,
        5_000,
      );
      expect(first[0]).toEqual({ instanceId: instance.id, status: 'unpaired', deviceId: '', updatedAt: expect.any(String) });

      const paired = await http.post('/sandbox/pair', { phone: '15557770001' }, asOwner());
      expect(paired.status).toBe(200);
      const seen = await eventually(
        () => Promise.resolve(stream.messages),
        (messages) => messages.some((message) => message.status === 'connected'),
        5_000,
      );
      const connected = seen.find((message) => message.status === 'connected');
      expect(connected).toEqual({
        instanceId: instance.id,
        status: 'connected',
        deviceId: (paired.body as { deviceId: string }).deviceId,
        updatedAt: expect.any(String),
      });
      // Each message reports a change: the same status is never sent twice in a row.
      const statuses = seen.map((message) => message.status);
      expect(statuses.filter((status, index) => index > 0 && status === statuses[index - 1])).toEqual([]);
      expect(strangers.messages).toEqual([]);
      expectErrorBody(await http.get('/account/instances/stream'), 401, 'unauthorized');
    } finally {
      stream.close();
      strangers.close();
    }
  });

  it('sends a signed test event to the webhook and reports the answer', async () => {
    await waitForStatus(http, instance, (status) => status.isConnected);
    const path = `/test-hook-${Date.now()}`;
    const secret = 'whsec_' + Buffer.from('a test signing secret of some length').toString('base64');
    expectErrorBody(
      await http.post(`/account/instances/${instance.id}/webhook/test`, undefined, sessionHeaders(owner.session)),
      400,
      'validation error: the instance has no webhook URL (its own, or the customer default it follows)',
    );
    const saved = await http.put(
      `/account/instances/${instance.id}/settings`,
      { useCustomDefaults: false, webhookUrl: receiver.url(path), eventSigningSecret: secret },
      sessionHeaders(owner.session),
    );
    expect(saved.status).toBe(204);

    const sent = await http.post(`/account/instances/${instance.id}/webhook/test`, undefined, sessionHeaders(owner.session));
    expect(sent.status).toBe(200);
    expect(sent.body).toEqual({
      url: receiver.url(path),
      delivered: true,
      statusCode: 200,
      durationMs: expect.any(Number),
      responseSnippet: '{"ok":true}',
    });
    const [hook] = receiver.at(path);
    expect(hook.envelope).toEqual({
      eventId: expect.stringMatching(/^evt_\d+_[0-9a-f]{16}$/),
      instanceId: instance.id,
      eventType: 'test',
      receivedAt: expect.any(String),
      eventData: { message: expect.any(String) },
    });
    const expected = webhookSignatureHeaders(secret, hook.envelope.eventId, Number(hook.headers['webhook-timestamp']), hook.rawBody);
    expect(hook.headers['x-webhook-signature']).toBe(expected['X-Webhook-Signature']);
    expect(hook.headers['webhook-signature']).toBe(expected['webhook-signature']);

    receiver.script(path, () => ({ status: 500 }));
    const failed = await http.post(`/account/instances/${instance.id}/webhook/test`, undefined, sessionHeaders(owner.session));
    expect(failed.body).toEqual({
      url: receiver.url(path),
      delivered: false,
      statusCode: 500,
      durationMs: expect.any(Number),
      responseSnippet: '{"ok":true}',
      error: 'receiver answered 500',
    });
    expectErrorBody(
      await http.post(`/account/instances/${instance.id}/webhook/test`, undefined, sessionHeaders(stranger.session)),
      404,
      'not found',
    );
  });

  it('pages the event log newest first with before/nextBefore, leaving the oldest-first paging as it was', async () => {
    for (const text of ['one', 'two', 'three']) {
      expect((await http.post('/sandbox/inbound', { from: '447700900123', type: 'text', text }, asOwner())).status).toBe(201);
    }
    const ascending = await eventually(
      () => http.get('/events?limit=1000', asOwner()),
      (response) => (response.body as { items: unknown[] }).items.length >= 4,
    );
    const all = (ascending.body as { items: { seq: number }[] }).items.map((item) => item.seq);
    expect(all.length).toBeGreaterThanOrEqual(3);
    expect(Object.keys(ascending.body as object).sort()).toEqual(['items', 'nextAfter']);

    const newest = await http.get('/events?order=desc&limit=2', asOwner());
    const page = newest.body as { items: { seq: number }[]; nextAfter: number; nextBefore: number };
    expect(page.items.map((item) => item.seq)).toEqual([all[all.length - 1], all[all.length - 2]]);
    expect(page.nextBefore).toBe(all[all.length - 2]);
    expect(page.nextAfter).toBe(all[all.length - 1]);
    const older = await http.get(`/events?order=desc&before=${page.nextBefore}&limit=1000`, asOwner());
    expect((older.body as { items: { seq: number }[] }).items.map((item) => item.seq)).toEqual(all.slice(0, -2).reverse());
    const empty = await http.get(`/events?order=desc&before=${all[0]}`, asOwner());
    expect(empty.body).toEqual({ items: [], nextAfter: 0, nextBefore: all[0] });
    expectErrorBody(await http.get('/events?order=sideways', asOwner()), 400, 'validation error: order must be asc or desc');
    expectErrorBody(await http.get('/events?before=0', asOwner()), 400, 'validation error: before must be a positive whole number');
  });

  it("shows the operator the workers and every shard's owner", async () => {
    const overview = await eventually(
      async () =>
        (await http.get('/admin/overview', adminHeaders())).body as {
          workers: { id: string; shards: number[] }[];
          shards: { owned: number };
        },
      (body) => body.shards.owned === 4096,
    );
    // SHARD_COUNT's default: 4,096 virtual shards, all owned by the suite's worker.
    expect(overview.shards).toEqual({ total: 4096, owned: 4096, unowned: 0 });
    expect(overview.workers.flatMap((entry) => entry.shards).sort((a, b) => a - b)).toEqual(
      Array.from({ length: 4096 }, (_, shard) => shard),
    );
    expect(
      (overview as unknown as { instances: { byStatus: Record<string, number> } }).instances.byStatus.connected,
    ).toBeGreaterThanOrEqual(1);
  });
});
