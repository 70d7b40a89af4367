import { startApi, type RunningApi } from './support/api-harness';
import { subPrefix } from './support/environment';
import { eventually } from './support/event-log';
import { createCustomer, createInstance, type CreatedInstance, type Customer } from './support/fixtures';
import { Http } from './support/http';
import { expectErrorBody, useServedOpenApi } from './support/openapi';
import { spawnApp, type AppProcess } from './support/processes';
import { WebhookReceiver, type ReceivedWebhook } from './support/webhook-receiver';

const OUTAGE_MS = 20_000;
const INBOUND = 300;

interface DeliveryReport {
  state: string;
  attempts: { outcome: string }[];
}

// Not the shared world: each schedule needs its own worker settings and a queue prefix no other suite's deliveries share.
/** One API and one worker sharing a private queue prefix, with the given worker settings. */
async function gateway(workerEnv: Record<string, string>): Promise<{ api: RunningApi; worker: AppProcess }> {
  const prefix = subPrefix('recovery');
  const [api, worker] = await Promise.all([
    startApi({ queuePrefix: prefix, webhookAllowedHosts: ['127.0.0.1'] }),
    spawnApp('worker', { QUEUE_PREFIX: prefix, WEBHOOK_ALLOWED_HOSTS: '127.0.0.1', ...workerEnv }),
  ]);
  return { api, worker };
}

describe('webhook recovery', () => {
  let receiver: WebhookReceiver;

  beforeAll(async () => {
    receiver = await WebhookReceiver.start();
  });

  afterAll(async () => {
    await receiver?.close();
  });

  const headersOf = (instance: CreatedInstance) => ({ 'X-Api-Key': instance.apiKey, 'X-Instance-Id': instance.id });

  async function hookedInstance(http: Http, customer: Customer, path: string): Promise<CreatedInstance> {
    const instance = await createInstance(http, customer.apiKey);
    const saved = await http.put('/instance/settings', { useCustomDefaults: false, webhookUrl: receiver.url(path) }, headersOf(instance));
    expect(saved.status).toBe(204);
    expect((await http.post('/sandbox/pair', {}, headersOf(instance))).status).toBe(200);
    await eventually(
      () => Promise.resolve(receiver.at(path).filter((hook) => hook.envelope.eventType === 'logged_in').length),
      (n) => n === 1,
    );
    return instance;
  }

  /** Event ids the receiver acknowledged with 2xx, in arrival order (repeats included). */
  function acknowledging(path: string, down: () => boolean): string[] {
    const acked: string[] = [];
    receiver.script(path, (hook: ReceivedWebhook) => {
      if (down()) return { status: 503 };
      acked.push(hook.envelope.eventId);
      return { status: 200 };
    });
    return acked;
  }

  /**
   * A hooked instance whose receiver at `path` is down (until `outage.down` is set false), three inbound text
   * messages sent to it meanwhile, and their event ids once logged.
   */
  async function messagesWhileDown(http: Http, customer: Customer, path: string, texts: string[]) {
    const outage = { down: false };
    const acked = acknowledging(path, () => outage.down);
    const instance = await hookedInstance(http, customer, path);
    outage.down = true;
    const since = new Date().toISOString();
    for (const text of texts) {
      expect((await http.post('/sandbox/inbound', { from: '447700900123', type: 'text', text }, headersOf(instance))).status).toBe(201);
    }
    const ids = await eventually(
      async () =>
        (
          (await http.get('/events?limit=1000', headersOf(instance))).body as {
            items: { event: { eventId: string; eventType: string } }[];
          }
        ).items
          .filter((item) => item.event.eventType === 'message')
          .map((item) => item.event.eventId),
      (found) => found.length === texts.length,
    );
    return { outage, acked, instance, since, ids };
  }

  describe('with the default retry schedule (at once, 5 s, 5 min, ...)', () => {
    let api: RunningApi;
    let worker: AppProcess;
    let http: Http;
    let customer: Customer;

    beforeAll(async () => {
      ({ api, worker } = await gateway({}));
      http = new Http(api.url);
      await useServedOpenApi(api.url);
      customer = await createCustomer(http, 'Recovery Co');
    });

    afterAll(async () => {
      await Promise.all([api?.close(), worker?.stop()]);
    });

    it('releases the backlog as soon as the receiver answers again: 300 events of a 20 s outage all arrive, each acknowledged once', async () => {
      const path = '/hooks/outage';
      let down = false;
      const acked = acknowledging(path, () => down);
      const instance = await hookedInstance(http, customer, path);
      const logged = async () =>
        (
          (await http.unchecked().get('/events?limit=1000', headersOf(instance))).body as { items: { event: { eventId: string } }[] }
        ).items.map((item) => item.event.eventId);
      const before = new Set(await logged());

      down = true;
      const outageStart = Date.now();
      // Spread over the outage, as traffic would be, each at its time even when the machine is slow to answer.
      const fast = new Http(api.url, { checkSpec: false });
      const inbound: Promise<number>[] = [];
      for (let n = 0; n < INBOUND; n += 1) {
        const due = outageStart + (n * OUTAGE_MS) / INBOUND;
        if (due > Date.now()) await new Promise((resolve) => setTimeout(resolve, due - Date.now()));
        const body = { from: '447700900123', type: 'text', text: `outage ${n}` };
        inbound.push(fast.post('/sandbox/inbound', body, headersOf(instance)).then((response) => response.status));
      }
      expect(new Set(await Promise.all(inbound))).toEqual(new Set([201]));
      const eventIds = (
        await eventually(
          async () => (await logged()).filter((id) => !before.has(id)),
          (ids) => ids.length >= INBOUND,
          60_000,
        )
      ).filter((id) => !acked.includes(id));
      expect(eventIds.length).toBeGreaterThanOrEqual(INBOUND);

      down = false;
      const recoveredAt = Date.now();
      // Fails naming the events still missing after a minute.
      await eventually(
        () => Promise.resolve(eventIds.filter((id) => !acked.includes(id))),
        (missing) => missing.length === 0,
        60_000,
      );
      console.log(`recovery: all ${eventIds.length} delivered ${Date.now() - recoveredAt} ms after the receiver came back`);
      // Nothing the receiver acknowledged came again, and every request carried its event's id as webhook-id.
      const repeats = acked.filter((id, index) => acked.indexOf(id) !== index);
      expect(repeats).toEqual([]);
      for (const hook of receiver.at(path)) expect(hook.headers['webhook-id']).toBe(hook.envelope.eventId);
    }, 180_000);

    it('POST /events/redeliver {state: "pending"} makes the waiting deliveries since a time due now and answers their count', async () => {
      const path = '/hooks/pending';
      const { acked, instance, since, ids } = await messagesWhileDown(http, customer, path, ['a', 'b', 'c']);
      // Each waits out its backoff after two failures (at once, then 5 s).
      for (const id of ids) {
        await eventually(
          async () => (await http.get(`/events/${id}/deliveries`, headersOf(instance))).body as DeliveryReport,
          (report) => report.state === 'pending' && report.attempts.length === 2,
          15_000,
        );
      }
      receiver.script(path, (hook) => {
        acked.push(hook.envelope.eventId);
        return { status: 200 };
      });
      const redelivered = await http.post('/events/redeliver', { since, state: 'pending' }, headersOf(instance));
      expect({ status: redelivered.status, body: redelivered.body as unknown }).toEqual({ status: 202, body: { count: 3 } });
      await eventually(
        () => Promise.resolve(acked),
        (done) => ids.every((id) => done.includes(id)),
        5_000,
      );
      expect(ids.filter((id) => !acked.includes(id))).toEqual([]);
    }, 60_000);
  });

  describe('with a schedule that runs out at once', () => {
    let api: RunningApi;
    let worker: AppProcess;
    let http: Http;
    let customer: Customer;

    beforeAll(async () => {
      ({ api, worker } = await gateway({ WEBHOOK_RETRY_SCHEDULE: '0' }));
      http = new Http(api.url);
      await useServedOpenApi(api.url);
      customer = await createCustomer(http, 'Bulk Co');
    });

    afterAll(async () => {
      await Promise.all([api?.close(), worker?.stop()]);
    });

    it('POST /events/redeliver {state: "failed"} sends every failed delivery since a time again, same webhook-id; bad bodies are 400', async () => {
      const path = '/hooks/failed';
      const { outage, acked, instance, since, ids } = await messagesWhileDown(http, customer, path, ['x', 'y', 'z']);
      for (const id of ids) {
        await eventually(
          async () => ((await http.get(`/events/${id}/deliveries`, headersOf(instance))).body as DeliveryReport).state,
          (state) => state === 'failed',
        );
      }

      const invalid: [unknown, string][] = [
        [{}, 'validation error: since is required; state is required'],
        [{ since, state: 'delivered' }, 'validation error: state must be failed or pending'],
        [{ since: 'yesterday', state: 'failed' }, 'validation error: since must be an ISO 8601 date-time'],
        [{ state: 'failed' }, 'validation error: since is required'],
        [{ since, state: 'failed', extra: 1 }, 'validation error: property extra should not exist'],
      ];
      for (const [body, detail] of invalid) expectErrorBody(await http.post('/events/redeliver', body, headersOf(instance)), 400, detail);

      // A time after the events finds none; nothing is sent.
      const later = await http.post(
        '/events/redeliver',
        { since: new Date(Date.now() + 60_000).toISOString(), state: 'failed' },
        headersOf(instance),
      );
      expect({ status: later.status, body: later.body as unknown }).toEqual({ status: 202, body: { count: 0 } });

      outage.down = false;
      const redelivered = await http.post('/events/redeliver', { since, state: 'failed' }, headersOf(instance));
      expect({ status: redelivered.status, body: redelivered.body as unknown }).toEqual({ status: 202, body: { count: 3 } });
      await eventually(
        () => Promise.resolve(acked),
        (done) => ids.every((id) => done.includes(id)),
      );
      expect(ids.filter((id) => !acked.includes(id))).toEqual([]);
      for (const id of ids) {
        const report = (await http.get(`/events/${id}/deliveries`, headersOf(instance))).body as DeliveryReport;
        expect({ state: report.state, outcomes: report.attempts.map((attempt) => attempt.outcome) }).toEqual({
          state: 'delivered',
          outcomes: ['failed', 'failed', 'delivered'],
        });
      }
      for (const hook of receiver.at(path)) expect(hook.headers['webhook-id']).toBe(hook.envelope.eventId);

      // Pull mode has no webhooks to redeliver.
      expect((await http.put('/instance/settings', { pullMode: true }, headersOf(instance))).status).toBe(204);
      expectErrorBody(
        await http.post('/events/redeliver', { since, state: 'failed' }, headersOf(instance)),
        409,
        'webhooks are off for this instance (pull mode, or no webhook URL)',
      );
    }, 60_000);
  });
});
