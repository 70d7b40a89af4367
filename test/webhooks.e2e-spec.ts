import { createHmac, randomBytes } from 'node:crypto';
import { Client } from 'pg';
import { Webhook } from 'standardwebhooks';
import { startApi, type RunningApi } from './support/api-harness';
import { testEnv } from './support/environment';
import { eventLog, eventually } from './support/event-log';
import { createCustomer, createInstance, type CreatedInstance, type Customer } from './support/fixtures';
import { Http } from './support/http';
import { expectErrorBody, useServedOpenApi } from './support/openapi';
import { spawnApp, type AppProcess } from './support/processes';
import { WebhookReceiver, type ReceivedWebhook } from './support/webhook-receiver';

const CONTACT = '447700900123';
const STANDARD_SECRET = `whsec_${randomBytes(32).toString('base64')}`;
const PLAIN_SECRET = 'a plain shared secret of some length';
/** Shortened retry schedule for the tests: at once, then every 0.4 s, eight retries. */
const SCHEDULE = '0,0.4,0.4,0.4,0.4,0.4,0.4,0.4';

describe('webhook delivery', () => {
  let api: RunningApi;
  let worker: AppProcess;
  let http: Http;
  let customer: Customer;
  let receiver: WebhookReceiver;
  // Few delivery slots, so the test of one slow receiver against another is not decided by a large pool.
  const workerEnv = {
    WEBHOOK_ALLOWED_HOSTS: '127.0.0.1',
    WEBHOOK_RETRY_SCHEDULE: SCHEDULE,
    WEBHOOK_CONCURRENCY: '6',
    WEBHOOK_PER_URL_CONCURRENCY: '2',
  };

  beforeAll(async () => {
    receiver = await WebhookReceiver.start();
    [api, worker] = await Promise.all([startApi({ webhookAllowedHosts: ['127.0.0.1'] }), spawnApp('worker', workerEnv)]);
    http = new Http(api.url);
    await useServedOpenApi(api.url);
    customer = await createCustomer(http, 'Hooks Co');
  });

  afterAll(async () => {
    await Promise.all([api?.close(), worker?.stop(), receiver?.close()]);
  });

  const headersOf = (instance: CreatedInstance) => ({ 'X-Api-Key': instance.apiKey, 'X-Instance-Id': instance.id });

  /** A paired sandbox instance delivering to `path` on the receiver. */
  async function hookedInstance(path: string, settings: Record<string, unknown> = {}): Promise<CreatedInstance> {
    const instance = await createInstance(http, customer.apiKey);
    const saved = await http.put(
      '/instance/settings',
      { useCustomDefaults: false, webhookUrl: receiver.url(path), eventSigningSecret: STANDARD_SECRET, ...settings },
      headersOf(instance),
    );
    expect(saved.status).toBe(204);
    expect((await http.post('/sandbox/pair', { phone: '15550007777' }, headersOf(instance))).status).toBe(200);
    await eventually(
      async () => (await http.get('/session/status', headersOf(instance))).body as { isConnected: boolean },
      (status) => status.isConnected,
    );
    return instance;
  }

  /** The instance's logged events as the API lists them (envelopes, with their ids). */
  const logged = async (instance: CreatedInstance) =>
    (
      (await http.get('/events?after=0&limit=100', headersOf(instance))).body as { items: { event: ReceivedWebhook['envelope'] }[] }
    ).items.map((item) => item.event);
  const typesAt = (path: string) => receiver.at(path).map((hook) => hook.envelope.eventType);
  const hooksOf = (path: string, type: string) => receiver.at(path).filter((hook) => hook.envelope.eventType === type);
  const waitForHooks = (path: string, done: (hooks: ReceivedWebhook[]) => boolean, timeoutMs = 15_000) =>
    eventually(() => Promise.resolve(receiver.at(path)), done, timeoutMs);

  function independentBodySignature(secretBytes: Buffer, body: string): string {
    return `sha256=${createHmac('sha256', secretBytes).update(body).digest('hex')}`;
  }

  async function sendButtons(instance: CreatedInstance): Promise<string> {
    const sent = await http.post(
      '/messages/buttons',
      {
        to: CONTACT,
        text: 'Confirm?',
        buttons: [
          { id: 'yes', text: 'Yes' },
          { type: 'url', text: 'Site', url: 'https://example.com' },
          { id: 'no', text: 'No' },
        ],
      },
      headersOf(instance),
    );
    expect(sent.status).toBe(201);
    return (sent.body as { id: string }).id;
  }

  it('delivers a button tap as a signed button_reply (both schemes), each tap its own event; list taps likewise', async () => {
    const path = '/hooks/taps';
    const instance = await hookedInstance(path);
    const buttonsId = await sendButtons(instance);
    await waitForHooks(path, (hooks) =>
      hooks.some((hook) => hook.envelope.eventType === 'message_status' && hook.envelope.eventData.id === buttonsId),
    );
    for (let tap = 0; tap < 2; tap += 1) {
      const tapped = await http.post(
        '/sandbox/inbound',
        { from: CONTACT, type: 'button_reply', replyTo: buttonsId, buttonId: 'no' },
        headersOf(instance),
      );
      expect(tapped.status).toBe(201);
    }
    const taps = (
      await waitForHooks(path, (hooks) => hooks.filter((hook) => hook.envelope.eventData.type === 'button_reply').length === 2)
    ).filter((hook) => hook.envelope.eventData.type === 'button_reply');
    expect(taps).toHaveLength(2);
    for (const hook of taps) {
      expect(hook.envelope).toEqual({
        eventId: expect.stringMatching(/^evt_\d+_[0-9a-f]{16}$/),
        instanceId: instance.id,
        eventType: 'message',
        receivedAt: expect.any(String),
        eventData: expect.objectContaining({
          type: 'button_reply',
          buttonReply: { id: 'no', text: 'No' },
          text: 'No',
          replyTo: { id: buttonsId },
          sender: expect.objectContaining({ isMe: false }),
        }),
      });
      expect(hook.headers['content-type']).toBe('application/json');
      expect(hook.headers['x-instance-id']).toBe(instance.id);
      expect(hook.headers['webhook-id']).toBe(hook.envelope.eventId);
      // Standard Webhooks, verified by its own published verifier library.
      const verified = new Webhook(STANDARD_SECRET).verify(hook.rawBody, {
        'webhook-id': String(hook.headers['webhook-id']),
        'webhook-timestamp': String(hook.headers['webhook-timestamp']),
        'webhook-signature': String(hook.headers['webhook-signature']),
      });
      expect(verified).toEqual(hook.envelope);
      // X-Webhook-Signature, recomputed independently over the raw body with the decoded whsec_ key.
      const key = Buffer.from(STANDARD_SECRET.slice('whsec_'.length), 'base64');
      expect(hook.headers['x-webhook-signature']).toBe(independentBodySignature(key, hook.rawBody));
    }
    expect(taps[0].envelope.eventId).not.toBe(taps[1].envelope.eventId);
    // A tampered body fails verification: the check above can fail.
    expect(() =>
      new Webhook(STANDARD_SECRET).verify(taps[0].rawBody.replace('"no"', '"yes"'), {
        'webhook-id': String(taps[0].headers['webhook-id']),
        'webhook-timestamp': String(taps[0].headers['webhook-timestamp']),
        'webhook-signature': String(taps[0].headers['webhook-signature']),
      }),
    ).toThrow();

    const list = await http.post(
      '/messages/list',
      {
        to: CONTACT,
        text: 'Pick',
        buttonText: 'Slots',
        sections: [
          {
            title: 'Any',
            rows: [
              { id: 'r1', title: 'Nine', description: 'Early' },
              { id: 'r2', title: 'Ten' },
            ],
          },
        ],
      },
      headersOf(instance),
    );
    const listId = (list.body as { id: string }).id;
    await waitForHooks(path, (hooks) =>
      hooks.some((hook) => hook.envelope.eventType === 'message_status' && hook.envelope.eventData.id === listId),
    );
    await http.post('/sandbox/inbound', { from: CONTACT, type: 'list_reply', replyTo: listId, rowId: 'r2' }, headersOf(instance));
    const listTap = (await waitForHooks(path, (hooks) => hooks.some((hook) => hook.envelope.eventData.type === 'list_reply'))).find(
      (hook) => hook.envelope.eventData.type === 'list_reply',
    ) as ReceivedWebhook;
    expect(listTap.envelope.eventData).toEqual(
      expect.objectContaining({ type: 'list_reply', listReply: { id: 'r2', title: 'Ten' }, text: 'Ten', replyTo: { id: listId } }),
    );
    expect(new Webhook(STANDARD_SECRET).verify(listTap.rawBody, listTap.headers as Record<string, string>)).toEqual(listTap.envelope);
  });

  it('signs with a plain secret as its UTF-8 bytes', async () => {
    const path = '/hooks/plain';
    const instance = await hookedInstance(path, { eventSigningSecret: PLAIN_SECRET });
    const [hook] = await waitForHooks(path, (hooks) => hooks.length >= 1);
    expect(hook.envelope.eventType).toBe('logged_in');
    expect(hook.headers['x-webhook-signature']).toBe(independentBodySignature(Buffer.from(PLAIN_SECRET, 'utf8'), hook.rawBody));
    const standardKey = `whsec_${Buffer.from(PLAIN_SECRET, 'utf8').toString('base64')}`;
    expect(new Webhook(standardKey).verify(hook.rawBody, hook.headers as Record<string, string>)).toEqual(hook.envelope);
    expect(hook.envelope.instanceId).toBe(instance.id);
  });

  it('retries a failing receiver: five failures, then 200 → delivered once more with the same webhook-id; six attempts listed', async () => {
    const path = '/hooks/flaky';
    const failures = new Map<string, number>();
    receiver.script(path, (hook) => {
      if (hook.envelope.eventType !== 'message') return { status: 200 };
      const seen = failures.get(hook.envelope.eventId) ?? 0;
      failures.set(hook.envelope.eventId, seen + 1);
      return seen < 5 ? { status: 500 } : { status: 200 };
    });
    const instance = await hookedInstance(path);
    const inbound = await http.post('/sandbox/inbound', { from: CONTACT, type: 'text', text: 'hello' }, headersOf(instance));
    expect(inbound.status).toBe(201);
    const hooks = (await waitForHooks(path, (all) => all.filter((hook) => hook.envelope.eventType === 'message').length >= 6)).filter(
      (hook) => hook.envelope.eventType === 'message',
    );
    expect(hooks).toHaveLength(6);
    const eventId = hooks[0].envelope.eventId;
    expect(hooks.map((hook) => hook.headers['webhook-id'])).toEqual(Array(6).fill(eventId));
    expect(new Set(hooks.map((hook) => hook.rawBody)).size).toBe(1);

    const report = await eventually(
      async () => (await http.get(`/events/${eventId}/deliveries`, headersOf(instance))).body as { state: string; attempts: unknown[] },
      (body) => body.state === 'delivered',
    );
    expect(report).toEqual({
      eventId,
      state: 'delivered',
      nextAttemptAt: null,
      sink: null,
      attempts: [1, 2, 3, 4, 5, 6].map((number) => ({
        number,
        url: receiver.url(path),
        startedAt: expect.any(String),
        durationMs: expect.any(Number),
        statusCode: number < 6 ? 500 : 200,
        outcome: number < 6 ? 'failed' : 'delivered',
        error: number < 6 ? 'receiver answered 500: {"ok":true}' : null,
      })),
    });
    // The barrier: a later event through the same five failures. Any further attempt of the first would have been due
    // 0.4 s after its last one, long before the later event's sixth attempt.
    const later = await http.post('/sandbox/inbound', { from: CONTACT, type: 'text', text: 'later' }, headersOf(instance));
    expect(later.status).toBe(201);
    const messageHooks = await waitForHooks(path, (all) => all.filter((hook) => hook.envelope.eventType === 'message').length >= 12);
    const byEvent = new Map<string, number>();
    for (const hook of messageHooks.filter((each) => each.envelope.eventType === 'message'))
      byEvent.set(hook.envelope.eventId, (byEvent.get(hook.envelope.eventId) ?? 0) + 1);
    expect({ first: byEvent.get(eventId), attemptsPerEvent: [...byEvent.values()] }).toEqual({ first: 6, attemptsPerEvent: [6, 6] });
  });

  it('honours Retry-After on 429', async () => {
    const path = '/hooks/busy';
    let first = true;
    receiver.script(path, (hook) => {
      if (hook.envelope.eventType !== 'message' || !first) return { status: 200 };
      first = false;
      return { status: 429, headers: { 'Retry-After': '2' } };
    });
    const instance = await hookedInstance(path);
    await http.post('/sandbox/inbound', { from: CONTACT, type: 'text', text: 'later please' }, headersOf(instance));
    const hooks = (await waitForHooks(path, (all) => all.filter((hook) => hook.envelope.eventType === 'message').length >= 2)).filter(
      (hook) => hook.envelope.eventType === 'message',
    );
    // The schedule alone would retry at once; the receiver asked for two seconds.
    expect(hooks[1].at - hooks[0].at).toBeGreaterThanOrEqual(1_900);
  });

  it('a receiver down for a whole burst gets every event once it recovers', async () => {
    const path = '/hooks/down';
    let down = true;
    receiver.script(path, () => (down ? { status: 503 } : { status: 200 }));
    const instance = await hookedInstance(path);
    const burst = 25;
    // One request for the whole burst: posted one by one on a busy machine, the first events could run out of the short
    // retry schedule below before the last one was even received.
    const messages = Array.from({ length: burst }, (_, index) => ({ from: CONTACT, type: 'text', text: `burst ${index}` }));
    expect((await http.post('/sandbox/inbound/batch', { messages }, headersOf(instance))).status).toBe(201);
    // Down until every event of the burst has been refused at least once; no longer, or the first events could run
    // out of this suite's short retry schedule (eight attempts in 2.8 s) before the receiver comes back.
    await eventually(
      () =>
        Promise.resolve(
          new Set(
            receiver
              .at(path)
              .filter((hook) => hook.envelope.eventType === 'message')
              .map((hook) => hook.envelope.eventId),
          ).size,
        ),
      (refusedEvents) => refusedEvents === burst,
    );
    down = false;
    const recoveredAt = Date.now();
    const texts = await eventually(
      () =>
        Promise.resolve(
          new Set(
            receiver
              .at(path)
              .filter((hook) => hook.envelope.eventType === 'message' && hook.at >= recoveredAt)
              .map((hook) => hook.envelope.eventData.text),
          ),
        ),
      (seen) => seen.size === burst,
    );
    expect(texts.size).toBe(burst);
    const log = await eventLog(instance.id);
    const messageIds = log.filter((event) => event.eventType === 'message').map((event) => event.data.id);
    expect(messageIds).toHaveLength(burst);
    const delivered = await eventually(
      async () => {
        const states = await Promise.all(
          receiver
            .at(path)
            .filter((hook) => hook.envelope.eventType === 'message')
            .map((hook) => hook.envelope.eventId)
            .filter((id, index, all) => all.indexOf(id) === index)
            .map(async (id) => ((await http.get(`/events/${id}/deliveries`, headersOf(instance))).body as { state: string }).state),
        );
        return states;
      },
      (states) => states.length === burst && states.every((state) => state === 'delivered'),
    );
    expect(delivered).toEqual(Array(burst).fill('delivered'));
  });

  it('stops delivering to a URL that answered 410 until the settings are saved again', async () => {
    const path = '/hooks/gone';
    receiver.script(path, (hook) => (hook.envelope.eventType === 'logged_in' ? { status: 410 } : { status: 200 }));
    const instance = await hookedInstance(path);
    const [gone] = await waitForHooks(path, (hooks) => hooks.length >= 1);
    const report = await eventually(
      async () => (await http.get(`/events/${gone.envelope.eventId}/deliveries`, headersOf(instance))).body as { state: string },
      (body) => body.state === 'stopped',
    );
    expect(report).toEqual({
      eventId: gone.envelope.eventId,
      state: 'stopped',
      nextAttemptAt: null,
      sink: null,
      attempts: [expect.objectContaining({ number: 1, statusCode: 410, outcome: 'gone' })],
    });
    await http.post('/sandbox/inbound', { from: CONTACT, type: 'text', text: 'nobody listens' }, headersOf(instance));
    const [quiet] = await eventually(
      async () => (await logged(instance)).filter((event) => event.eventType === 'message'),
      (events) => events.length === 1,
    );
    expect(quiet.eventData.text).toBe('nobody listens');
    // The event was logged without a delivery (the URL is gone), so nothing can ever be sent for it.
    expect((await http.get(`/events/${quiet.eventId}/deliveries`, headersOf(instance))).body).toEqual({
      eventId: quiet.eventId,
      state: 'none',
      nextAttemptAt: null,
      sink: null,
      attempts: [],
    });
    expect(typesAt(path)).toEqual(['logged_in']);

    expect((await http.put('/instance/settings', { webhookUrl: receiver.url(path) }, headersOf(instance))).status).toBe(204);
    await http.post('/sandbox/inbound', { from: CONTACT, type: 'text', text: 'back again' }, headersOf(instance));
    const back = await waitForHooks(path, (hooks) => hooks.some((hook) => hook.envelope.eventData.text === 'back again'));
    expect(back.map((hook) => hook.envelope.eventType)).toEqual(['logged_in', 'message']);
  });

  it('redelivers an event on request with the same webhook-id, and refuses unknown events and pull mode', async () => {
    const path = '/hooks/redeliver';
    const instance = await hookedInstance(path);
    const [first] = await waitForHooks(path, (hooks) => hooks.length >= 1);
    const eventId = first.envelope.eventId;
    await eventually(
      async () => ((await http.get(`/events/${eventId}/deliveries`, headersOf(instance))).body as { state: string }).state,
      (state) => state === 'delivered',
    );
    const again = await http.post(`/events/${eventId}/redeliver`, {}, headersOf(instance));
    expect(again.status).toBe(202);
    expect(again.body).toEqual({ eventId, state: 'pending' });
    const hooks = await waitForHooks(path, (all) => all.length >= 2);
    expect(hooks.map((hook) => hook.headers['webhook-id'])).toEqual([eventId, eventId]);
    expect(hooks[1].rawBody).toBe(hooks[0].rawBody);
    const report = await eventually(
      async () =>
        (await http.get(`/events/${eventId}/deliveries`, headersOf(instance))).body as { state: string; attempts: { number: number }[] },
      (body) => body.state === 'delivered' && body.attempts.length === 2,
    );
    expect(report.attempts.map((attempt) => attempt.number)).toEqual([1, 2]);

    expectErrorBody(await http.post('/events/evt_1_0000000000000000/redeliver', {}, headersOf(instance)), 404, 'not found');
    expectErrorBody(await http.get('/events/evt_1_0000000000000000/deliveries', headersOf(instance)), 404, 'not found');
    expectErrorBody(await http.get('/events/not-an-event/deliveries', headersOf(instance)), 404, 'not found');
    // Another instance of the same customer cannot see or redeliver it.
    const other = await createInstance(http, customer.apiKey);
    expectErrorBody(await http.get(`/events/${eventId}/deliveries`, headersOf(other)), 404, 'not found');
    expectErrorBody(
      await http.post(`/events/${eventId}/redeliver`, {}, headersOf({ ...other, apiKey: customer.apiKey })),
      409,
      'webhooks are off for this instance (pull mode, or no webhook URL)',
    );

    expect((await http.put('/instance/settings', { pullMode: true }, headersOf(instance))).status).toBe(204);
    expectErrorBody(
      await http.post(`/events/${eventId}/redeliver`, {}, headersOf(instance)),
      409,
      'webhooks are off for this instance (pull mode, or no webhook URL)',
    );
  });

  it('redelivers at once an event whose retry is waiting out a long Retry-After', async () => {
    const path = '/hooks/backoff';
    let calls = 0;
    receiver.script(path, () => {
      calls += 1;
      return calls === 1 ? { status: 503, headers: { 'Retry-After': '3600' } } : { status: 200 };
    });
    const instance = await hookedInstance(path);
    const [first] = await waitForHooks(path, (hooks) => hooks.length >= 1);
    const eventId = first.envelope.eventId;
    const waiting = await eventually(
      async () =>
        (await http.get(`/events/${eventId}/deliveries`, headersOf(instance))).body as { state: string; nextAttemptAt: string | null },
      (body) => body.state === 'pending' && body.nextAttemptAt !== null,
    );
    expect(Date.parse(waiting.nextAttemptAt as string) - Date.now()).toBeGreaterThan(3_000_000);
    expect((await http.post(`/events/${eventId}/redeliver`, {}, headersOf(instance))).status).toBe(202);
    const hooks = await waitForHooks(path, (all) => all.length >= 2, 5_000);
    expect(hooks.map((hook) => hook.headers['webhook-id'])).toEqual([eventId, eventId]);
  });

  it('sends nothing by webhook in pull mode; the events are still logged', async () => {
    const path = '/hooks/pull';
    const instance = await hookedInstance(path, { pullMode: true });
    await http.post('/sandbox/inbound', { from: CONTACT, type: 'text', text: 'pull me' }, headersOf(instance));
    const log = await eventually(
      () => logged(instance),
      (events) => events.some((event) => event.eventType === 'message'),
    );
    expect(log.map((event) => event.eventType)).toEqual(['logged_in', 'message']);
    // Both were logged without a delivery, so nothing can ever be sent for them.
    for (const { eventId } of log) {
      expect((await http.get(`/events/${eventId}/deliveries`, headersOf(instance))).body).toEqual({
        eventId,
        state: 'none',
        nextAttemptAt: null,
        sink: null,
        attempts: [],
      });
    }
    expect(receiver.at(path)).toEqual([]);
  });

  it('applies event filters: disallowed types never arrive, session events always do, and a change applies at once', async () => {
    const path = '/hooks/filtered';
    const instance = await hookedInstance(path, { eventFilters: ['message_status', 'message_read'] });
    const sent = await http.post('/messages/text', { to: CONTACT, message: 'filtered' }, headersOf(instance));
    const sentId = (sent.body as { id: string }).id;
    await waitForHooks(path, (hooks) => hooks.some((hook) => hook.envelope.eventType === 'message_status'));
    await http.post('/sandbox/inbound', { from: CONTACT, type: 'text', text: 'not wanted' }, headersOf(instance));
    // The barrier: the contact then reads our message. An instance's network events are recorded in the order they
    // happened, so once the read has arrived, the message before it was recorded (or dropped) too.
    expect((await http.post('/sandbox/receipts', { messageId: sentId, status: 'read' }, headersOf(instance))).status).toBe(204);
    await waitForHooks(path, (hooks) => hooks.some((hook) => hook.envelope.eventType === 'message_read'));
    expect(typesAt(path)).toEqual(['logged_in', 'message_status', 'message_read']);
    expect(hooksOf(path, 'message_status')[0].envelope.eventData).toEqual({
      id: sentId,
      chatId: `${CONTACT}@s.whatsapp.net`,
      status: 'sent',
    });
    // Filtered events are not stored either.
    expect((await eventLog(instance.id)).map((event) => event.eventType)).toEqual(['logged_in', 'message_status', 'message_read']);

    expect((await http.put('/instance/settings', { eventFilters: [] }, headersOf(instance))).status).toBe(204);
    await http.post('/sandbox/inbound', { from: CONTACT, type: 'text', text: 'wanted now' }, headersOf(instance));
    const hooks = await waitForHooks(path, (all) => all.some((hook) => hook.envelope.eventType === 'message'));
    expect(hooks.map((hook) => hook.envelope.eventType)).toEqual(['logged_in', 'message_status', 'message_read', 'message']);
  });

  it('does not let one slow receiver starve another', async () => {
    const slowPath = '/hooks/slow';
    const fastPath = '/hooks/fast';
    receiver.script(slowPath, (hook) => (hook.envelope.eventType === 'message' ? { status: 200, delayMs: 2_000 } : { status: 200 }));
    const [slow, fast] = await Promise.all([hookedInstance(slowPath), hookedInstance(fastPath)]);
    for (let index = 0; index < 12; index += 1) {
      await http.post('/sandbox/inbound', { from: CONTACT, type: 'text', text: `slow ${index}` }, headersOf(slow));
    }
    await waitForHooks(slowPath, (hooks) => hooks.some((hook) => hook.envelope.eventType === 'message'));
    const started = Date.now();
    await http.post('/sandbox/inbound', { from: CONTACT, type: 'text', text: 'fast one' }, headersOf(fast));
    const hooks = await waitForHooks(fastPath, (all) => all.some((hook) => hook.envelope.eventType === 'message'));
    const fastHook = hooks.find((hook) => hook.envelope.eventType === 'message') as ReceivedWebhook;
    // Twelve slow deliveries at two at a time take 12 s; the other receiver is served meanwhile.
    expect(fastHook.at - started).toBeLessThan(1_500);
    expect(hooksOf(slowPath, 'message').length).toBeLessThan(12);
    // No more than two deliveries to the slow receiver were ever open at once.
    const slowMessages = hooksOf(slowPath, 'message');
    const maxOverlap = Math.max(
      ...slowMessages.map((hook) => slowMessages.filter((other) => other.at <= hook.at && other.at + 2_000 > hook.at).length),
    );
    expect(maxOverlap).toBeLessThanOrEqual(2);
  });

  it('loses nothing when the worker is killed with -9 during a delivery', async () => {
    const path = '/hooks/crash';
    let answered = 0;
    receiver.script(path, (hook) => {
      if (hook.envelope.eventType !== 'message') return { status: 200 };
      answered += 1;
      // The first attempt hangs long enough for the worker to die holding it.
      return answered === 1 ? { status: 200, delayMs: 10_000 } : { status: 200 };
    });
    const instance = await hookedInstance(path);
    await http.post('/sandbox/inbound', { from: CONTACT, type: 'text', text: 'survive' }, headersOf(instance));
    await waitForHooks(path, (hooks) => hooks.some((hook) => hook.envelope.eventType === 'message'));
    await worker.stop('SIGKILL');
    worker = await spawnApp('worker', workerEnv);
    const hooks = await waitForHooks(path, (all) => all.filter((hook) => hook.envelope.eventType === 'message').length >= 2, 40_000);
    const attempts = hooks.filter((hook) => hook.envelope.eventType === 'message');
    expect(attempts[1].headers['webhook-id']).toBe(attempts[0].headers['webhook-id']);
    const report = await eventually(
      async () => (await http.get(`/events/${attempts[0].envelope.eventId}/deliveries`, headersOf(instance))).body as { state: string },
      (body) => body.state === 'delivered',
    );
    expect(report.state).toBe('delivered');
  }, 60_000);

  it('delivers an event whose delivery was committed but never attempted (a worker gone between the two): same webhook-id, same bytes', async () => {
    const path = '/hooks/unattempted';
    const instance = await hookedInstance(path);
    await http.post('/sandbox/inbound', { from: CONTACT, type: 'text', text: 'left behind' }, headersOf(instance));
    const [first] = (await waitForHooks(path, (hooks) => hooks.some((hook) => hook.envelope.eventType === 'message'))).filter(
      (hook) => hook.envelope.eventType === 'message',
    );
    const eventId = first.envelope.eventId;
    // The first attempt was made from the worker's memory right after the commit. Put the delivery back in the state a
    // worker killed between its commit and that attempt leaves: pending, never attempted, no queued job, overdue.
    const db = new Client({ connectionString: testEnv().DATABASE_URL });
    await db.connect();
    try {
      await db.query('DELETE FROM webhook_attempts WHERE event_id = $1', [eventId]);
      const reset = await db.query(
        `UPDATE webhook_deliveries SET state = 'pending', attempts = 0, schedule_step = 0, last_error = NULL,
           next_attempt_at = (now() AT TIME ZONE 'UTC') - interval '30 seconds' WHERE event_id = $1`,
        [eventId],
      );
      expect(reset.rowCount).toBe(1);
    } finally {
      await db.end();
    }
    const again = (
      await waitForHooks(path, (all) => all.filter((hook) => hook.envelope.eventType === 'message').length >= 2, 30_000)
    ).filter((hook) => hook.envelope.eventType === 'message');
    expect(again).toHaveLength(2);
    expect(again[1].headers['webhook-id']).toBe(eventId);
    // The recovered attempt reads the event from PostgreSQL; its body is byte for byte the one first sent from memory.
    expect(again[1].rawBody).toBe(first.rawBody);
    const report = await eventually(
      async () => (await http.get(`/events/${eventId}/deliveries`, headersOf(instance))).body as { state: string },
      (body) => body.state === 'delivered',
    );
    expect(report).toEqual({
      eventId,
      state: 'delivered',
      nextAttemptAt: null,
      sink: null,
      attempts: [
        {
          number: 1,
          url: receiver.url(path),
          startedAt: expect.any(String),
          durationMs: expect.any(Number),
          statusCode: 200,
          outcome: 'delivered',
          error: null,
        },
      ],
    });
  }, 60_000);

  it('prunes events older than the retention (72 h) with their deliveries, and keeps the rest', async () => {
    const path = '/hooks/retention';
    const instance = await hookedInstance(path);
    const db = new Client({ connectionString: testEnv().DATABASE_URL });
    await db.connect();
    try {
      const oldId = `evt_${Date.now() - 80 * 3600_000}_0123456789abcdef`;
      await db.query(
        `WITH counter AS (UPDATE event_counters SET last_seq = last_seq + 1 WHERE instance_id = $1 RETURNING last_seq)
         INSERT INTO event_log (id, instance_id, seq, event_type, received_at, data)
         SELECT $2, $1, last_seq, 'message', now() - interval '80 hours', '{}'::jsonb FROM counter`,
        [instance.id, oldId],
      );
      await db.query(
        `INSERT INTO webhook_deliveries (event_id, received_at, instance_id, state)
         SELECT id, received_at, instance_id, 'failed' FROM event_log WHERE id = $1 AND instance_id = $2`,
        [oldId, instance.id],
      );
      const before = (await eventLog(instance.id)).length;
      // Pruning runs shortly after a worker starts, then every ten minutes. A worker an earlier suite killed during its
      // run still holds the maintenance lease (for 30 minutes): with no worker running now, nobody is doing the job.
      await worker.stop();
      await db.query('UPDATE maintenance_leases SET expires_at = clock_timestamp()');
      worker = await spawnApp('worker', workerEnv);
      const remaining = await eventually(
        async () =>
          (await db.query('SELECT id FROM event_log WHERE instance_id = $1', [instance.id])).rows.map((row: { id: string }) => row.id),
        (ids) => !ids.includes(oldId),
        20_000,
      );
      expect(remaining).not.toContain(oldId);
      expect(remaining).toHaveLength(before - 1);
      expect((await db.query('SELECT count(*)::int AS n FROM webhook_deliveries WHERE event_id = $1', [oldId])).rows[0].n).toBe(0);
    } finally {
      await db.end();
    }
  }, 40_000);
});

describe('webhook URLs and SSRF', () => {
  let api: RunningApi;
  let http: Http;
  let customer: Customer;

  beforeAll(async () => {
    api = await startApi();
    http = new Http(api.url);
    await useServedOpenApi(api.url);
    customer = await createCustomer(http, 'SSRF Co');
  });

  afterAll(async () => {
    await api?.close();
  });

  it.each([
    ['http://10.0.0.8/hook', '10.0.0.8 is not a public address'],
    ['http://10.255.1.2:8080/x', '10.255.1.2 is not a public address'],
    ['http://169.254.169.254/latest/meta-data/', '169.254.169.254 is not a public address'],
    ['http://[::1]:3000/hook', '::1 is not a public address'],
    ['http://127.0.0.1:9/hook', '127.0.0.1 is not a public address'],
    ['http://localhost:9/hook', 'localhost does not resolve to a public address'],
    ['http://192.168.1.10/hook', '192.168.1.10 is not a public address'],
  ])('refuses %s in instance settings and customer defaults', async (url, reason) => {
    const instance = await createInstance(http, customer.apiKey);
    const key = { 'X-Api-Key': customer.apiKey };
    expectErrorBody(
      await http.put(`/account/instances/${instance.id}/settings`, { webhookUrl: url }, key),
      400,
      `validation error: webhookUrl must point to a public http(s) address: ${reason}`,
    );
    expectErrorBody(
      await http.put(
        '/account/instances/defaults',
        { defaultWebhookUrl: url, defaultSigningSecret: '', defaultEventFilters: [], defaultHistorySync: false, defaultPullMode: false },
        key,
      ),
      400,
      `validation error: defaultWebhookUrl must point to a public http(s) address: ${reason}`,
    );
    // Nothing was stored.
    expect(
      ((await http.get(`/account/instances/${instance.id}`, key)).body as { settings: { webhookUrl: string } }).settings.webhookUrl,
    ).toBe('');
    expect(((await http.get('/account/instances/defaults', key)).body as { defaultWebhookUrl: string }).defaultWebhookUrl).toBe('');
  });

  it('accepts public addresses and names it cannot resolve here (the connection is checked again on delivery)', async () => {
    const instance = await createInstance(http, customer.apiKey);
    const key = { 'X-Api-Key': customer.apiKey };
    for (const url of ['https://93.184.215.14/hook', 'https://hooks.example.invalid/wa']) {
      expect((await http.put(`/account/instances/${instance.id}/settings`, { webhookUrl: url }, key)).status).toBe(204);
    }
  });
});
