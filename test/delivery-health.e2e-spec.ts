import { startApi, type RunningApi } from './support/api-harness';
import { subPrefix } from './support/environment';
import { eventually } from './support/event-log';
import { createCustomer, createInstance, type CreatedInstance } from './support/fixtures';
import { Http } from './support/http';
import { expectErrorBody, useServedOpenApi } from './support/openapi';
import { spawnApp, type AppProcess } from './support/processes';
import { WebhookReceiver } from './support/webhook-receiver';

interface DeliveryStates {
  items: { eventId: string; receivedAt: string; state: string }[];
  truncated: boolean;
}

interface Hourly {
  hours: { hour: string; delivered: number; failed: number; pending: number }[];
}

const HOUR_MS = 3_600_000;

// A private queue prefix and a schedule that gives up at once, so a refused delivery is `failed` within moments.
describe('GET /events/deliveries and GET /events/deliveries/hourly', () => {
  let receiver: WebhookReceiver;
  let api: RunningApi;
  let worker: AppProcess;
  let http: Http;
  let instance: CreatedInstance;
  let other: CreatedInstance;
  const headersOf = (target: CreatedInstance) => ({ 'X-Api-Key': target.apiKey, 'X-Instance-Id': target.id });

  beforeAll(async () => {
    receiver = await WebhookReceiver.start();
    const prefix = subPrefix('health');
    [api, worker] = await Promise.all([
      startApi({ queuePrefix: prefix, webhookAllowedHosts: ['127.0.0.1'] }),
      spawnApp('worker', { QUEUE_PREFIX: prefix, WEBHOOK_ALLOWED_HOSTS: '127.0.0.1', WEBHOOK_RETRY_SCHEDULE: '0' }),
    ]);
    http = new Http(api.url);
    await useServedOpenApi(api.url);
    const customer = await createCustomer(http, 'Health Co');
    instance = await createInstance(http, customer.apiKey);
    other = await createInstance(http, (await createCustomer(http, 'Other Co')).apiKey);
    // The receiver takes text messages saying "ok" and refuses everything else.
    receiver.script('/hooks/health', (hook) => {
      const data = hook.envelope.eventData as { text?: string };
      return { status: hook.envelope.eventType !== 'message' || data.text === 'ok' ? 200 : 500 };
    });
    const saved = await http.put(
      '/instance/settings',
      { useCustomDefaults: false, webhookUrl: receiver.url('/hooks/health') },
      headersOf(instance),
    );
    expect(saved.status).toBe(204);
    expect((await http.post('/sandbox/pair', {}, headersOf(instance))).status).toBe(200);
  }, 120_000);

  afterAll(async () => {
    await Promise.all([api?.close(), worker?.stop(), receiver?.close()]);
  });

  it('lists each event’s delivery state newest first, counts them per hour, and shows another customer nothing', async () => {
    const since = new Date(Date.now() - 60_000).toISOString();
    for (const text of ['ok', 'refused', 'ok']) {
      expect((await http.post('/sandbox/inbound', { from: '447700900123', type: 'text', text }, headersOf(instance))).status).toBe(201);
    }
    const messages = await eventually(
      async () =>
        (
          (await http.get('/events?limit=1000', headersOf(instance))).body as {
            items: { event: { eventId: string; eventType: string; receivedAt: string } }[];
          }
        ).items
          .filter((item) => item.event.eventType === 'message')
          .map((item) => item.event),
      (found) => found.length === 3,
    );
    const states = await eventually(
      async () => (await http.get(`/events/deliveries?since=${encodeURIComponent(since)}`, headersOf(instance))).body as DeliveryStates,
      (body) => body.items.length > 0 && body.items.every((item) => item.state !== 'pending'),
      15_000,
    );
    const byEvent = new Map(states.items.map((item) => [item.eventId, item]));
    expect(messages.map((event) => byEvent.get(event.eventId))).toEqual(
      messages.map((event, index) => ({
        eventId: event.eventId,
        receivedAt: event.receivedAt,
        state: index === 1 ? 'failed' : 'delivered',
      })),
    );
    expect(states.truncated).toBe(false);
    const times = states.items.map((item) => item.receivedAt);
    expect(times).toEqual([...times].sort().reverse());

    const hourly = await http.get('/events/deliveries/hourly', headersOf(instance));
    expect(hourly.status).toBe(200);
    const { hours } = hourly.body as Hourly;
    const currentHour = Math.floor(Date.now() / HOUR_MS) * HOUR_MS;
    expect(hours.map((hour) => hour.hour)).toEqual(
      Array.from({ length: 24 }, (_, at) => new Date(currentHour - (23 - at) * HOUR_MS).toISOString()),
    );
    // The counts are the states of every delivery of the last 24 hours, by the hour their event arrived.
    const day = (await http.get(`/events/deliveries?since=${hours[0].hour}`, headersOf(instance))).body as DeliveryStates;
    const expected = hours.map(({ hour }) => {
      const inHour = day.items.filter((item) => Math.floor(Date.parse(item.receivedAt) / HOUR_MS) * HOUR_MS === Date.parse(hour));
      const count = (...wanted: string[]) => inHour.filter((item) => wanted.includes(item.state)).length;
      return { hour, delivered: count('delivered'), failed: count('failed', 'stopped'), pending: count('pending') };
    });
    expect(hours).toEqual(expected);
    expect(hours.reduce((sum, hour) => sum + hour.failed, 0)).toBe(1);
    expect(hours.reduce((sum, hour) => sum + hour.delivered, 0)).toBeGreaterThanOrEqual(3);

    // Another customer's instance sees none of it.
    expect((await http.get(`/events/deliveries?since=${encodeURIComponent(since)}`, headersOf(other))).body).toEqual({
      items: [],
      truncated: false,
    });
    const otherHours = ((await http.get('/events/deliveries/hourly', headersOf(other))).body as Hourly).hours;
    expect(otherHours.every((hour) => hour.delivered + hour.failed + hour.pending === 0)).toBe(true);
  }, 60_000);

  it('refuses a missing or malformed since with 400 and no credentials with 401', async () => {
    expectErrorBody(await http.get('/events/deliveries', headersOf(instance)), 400, 'validation error: since is required');
    expectErrorBody(
      await http.get('/events/deliveries?since=yesterday', headersOf(instance)),
      400,
      'validation error: since must be an ISO 8601 date-time',
    );
    const anonymous = await http.unchecked().get('/events/deliveries/hourly', { 'X-Instance-Id': instance.id });
    expect(anonymous.status).toBe(401);
  });
});
