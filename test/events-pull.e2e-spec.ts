import { Client } from 'pg';
import { Redis } from 'ioredis';
import { eventAnnouncement, eventsChannel, type EventEnvelope } from '@app/contracts';
import { EventLogRepository } from '@app/database';
import { EVENT_STREAM_OPTIONS, type EventStreamOptions } from '../apps/api/src/events/event-stream.options';
import { EventStreamsService } from '../apps/api/src/events/event-streams.service';
import { startApi, type RunningApi } from './support/api-harness';
import { testEnv } from './support/environment';
import { eventLog, eventually } from './support/event-log';
import { createCustomer, createInstance, type CreatedInstance, type Customer } from './support/fixtures';
import { Http } from './support/http';
import { expectErrorBody, useServedOpenApi } from './support/openapi';
import { spawnApp, type AppProcess } from './support/processes';
import { SseClient } from './support/sse-client';

interface EventPage {
  items: { seq: number; event: EventEnvelope }[];
  nextAfter: number;
}

const EVENT_ID = /^evt_\d+_[0-9a-f]{16}$/;

describe('pull mode: GET /events and GET /events/stream', () => {
  let api: RunningApi;
  let worker: AppProcess;
  let http: Http;
  let customer: Customer;
  let otherCustomer: Customer;
  let redis: Redis;
  const clients: SseClient[] = [];

  beforeAll(async () => {
    [api, worker] = await Promise.all([startApi(), spawnApp('worker')]);
    http = new Http(api.url);
    await useServedOpenApi(api.url);
    customer = await createCustomer(http, 'Puller');
    otherCustomer = await createCustomer(http, 'Neighbour');
    redis = new Redis(testEnv().REDIS_URL);
  });

  afterEach(() => {
    clients.splice(0).forEach((client) => client.close());
  });

  afterAll(async () => {
    redis?.disconnect();
    await Promise.all([api?.close(), worker?.stop()]);
  });

  const headersOf = (instance: CreatedInstance) => ({ 'X-Api-Key': instance.apiKey, 'X-Instance-Id': instance.id });

  async function page(instance: CreatedInstance, query = ''): Promise<EventPage> {
    const response = await http.get(`/events${query}`, headersOf(instance));
    expect(response.status).toBe(200);
    return response.body as EventPage;
  }

  const logHas = (instance: CreatedInstance, count: number) =>
    eventually(
      () => page(instance, '?limit=1000'),
      (events) => events.items.length >= count,
    );

  async function pairedInstance(owner: Customer = customer): Promise<CreatedInstance> {
    const instance = await createInstance(http, owner.apiKey);
    expect((await http.post('/sandbox/pair', { phone: '15550004444' }, headersOf(instance))).status).toBe(200);
    expect((await logHas(instance, 1)).items.map((item) => item.event.eventType)).toEqual(['logged_in']);
    return instance;
  }

  async function inbound(instance: CreatedInstance, text: string): Promise<void> {
    expect((await http.post('/sandbox/inbound', { from: '447700900123', type: 'text', text }, headersOf(instance))).status).toBe(201);
  }

  async function stream(target: RunningApi, instance: CreatedInstance, query = '', extra: Record<string, string> = {}): Promise<SseClient> {
    const client = await SseClient.open(target.url, `/events/stream${query}`, { ...headersOf(instance), ...extra });
    clients.push(client);
    return client;
  }

  /** Every stream this API opened has been cleaned up (listeners and timers go with it). */
  async function expectNoOpenStreams(target: RunningApi): Promise<void> {
    const streams = target.app.get(EventStreamsService);
    await eventually(
      () => Promise.resolve(streams.size),
      (open) => open === 0,
    );
    expect(streams.size).toBe(0);
  }

  /** An event written to the log and announced, as the worker does it. */
  async function appendAnnounced(target: RunningApi, instance: CreatedInstance, marker: string): Promise<number> {
    const seq = await appendQuietly(target, instance, marker);
    await redis.publish(eventsChannel(testEnv().QUEUE_PREFIX), eventAnnouncement(instance.id, seq));
    return seq;
  }

  /** An event written to the log the way the worker writes it, but without any announcement. */
  async function appendQuietly(target: RunningApi, instance: CreatedInstance, marker: string): Promise<number> {
    const stored = await target.app.get(EventLogRepository).append(instance.id, 'message', { marker });
    if (!stored) throw new Error('append failed');
    return Number(stored.seq);
  }

  describe('GET /events', () => {
    it('pages the log oldest first with after and limit, and nextAfter continues', async () => {
      const instance = await pairedInstance();
      for (const text of ['one', 'two', 'three']) await inbound(instance, text);
      const all = await logHas(instance, 4);

      expect(all.items.map((item) => item.seq)).toEqual([1, 2, 3, 4]);
      expect(all.nextAfter).toBe(4);
      expect(all.items.map((item) => [item.event.eventType, item.event.eventData.text])).toEqual([
        ['logged_in', undefined],
        ['message', 'one'],
        ['message', 'two'],
        ['message', 'three'],
      ]);
      for (const { event } of all.items) {
        expect(event).toEqual({
          eventId: expect.stringMatching(EVENT_ID),
          instanceId: instance.id,
          eventType: expect.any(String),
          receivedAt: expect.stringMatching(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/),
          eventData: expect.any(Object),
        });
      }
      // The same events as the stored log, id for id.
      expect(all.items.map((item) => [String(item.seq), item.event.eventType, item.event.eventData])).toEqual(
        (await eventLog(instance.id)).map((row) => [row.seq, row.eventType, row.data]),
      );

      const defaults = await page(instance);
      expect(defaults).toEqual(all);
      const first = await page(instance, '?after=1&limit=2');
      expect({ seqs: first.items.map((item) => item.seq), nextAfter: first.nextAfter }).toEqual({ seqs: [2, 3], nextAfter: 3 });
      expect(first.items).toEqual(all.items.slice(1, 3));
      const second = await page(instance, `?after=${first.nextAfter}&limit=2`);
      expect({ seqs: second.items.map((item) => item.seq), nextAfter: second.nextAfter }).toEqual({ seqs: [4], nextAfter: 4 });
      expect(await page(instance, '?after=4')).toEqual({ items: [], nextAfter: 4 });
      expect(await page(instance, '?after=500&limit=1000')).toEqual({ items: [], nextAfter: 500 });
      expect((await page(instance, '?after=0&limit=1')).items.map((item) => item.seq)).toEqual([1]);
    });

    it('refuses bad after and limit values with a 400 naming the parameter', async () => {
      const instance = await createInstance(http, customer.apiKey);
      const cases: [string, string][] = [
        ['?after=-1', 'validation error: after must be a non-negative whole number'],
        ['?after=abc', 'validation error: after must be a non-negative whole number'],
        ['?after=1.5', 'validation error: after must be a non-negative whole number'],
        ['?after=', 'validation error: after must be a non-negative whole number'],
        ['?after=99999999999999999', 'validation error: after must be a non-negative whole number'],
        ['?limit=0', 'validation error: limit must be a whole number from 1 to 1000'],
        ['?limit=1001', 'validation error: limit must be a whole number from 1 to 1000'],
        ['?limit=ten', 'validation error: limit must be a whole number from 1 to 1000'],
        ['?after=1&after=2', 'validation error: after must be a non-negative whole number'],
        ['?since=3', 'validation error: property since should not exist'],
      ];
      for (const [query, detail] of cases) {
        const response = await http.get(`/events${query}`, headersOf(instance));
        expectErrorBody(response, 400, detail);
      }
      expect(await page(instance, '?after=0&limit=1000')).toEqual({ items: [], nextAfter: 0 });
    });

    it('answers 401 without a valid key for the instance, and 400 without X-Instance-Id', async () => {
      const instance = await createInstance(http, customer.apiKey);
      const stranger = await createInstance(http, otherCustomer.apiKey);
      expectErrorBody(await http.get('/events', { 'X-Instance-Id': instance.id }), 401, 'unauthorized');
      expectErrorBody(await http.get('/events', { 'X-Api-Key': 'mgw_ik_nope', 'X-Instance-Id': instance.id }), 401, 'unauthorized');
      expectErrorBody(await http.get('/events', { 'X-Api-Key': stranger.apiKey, 'X-Instance-Id': instance.id }), 401, 'unauthorized');
      expectErrorBody(await http.get('/events', { 'X-Api-Key': otherCustomer.apiKey, 'X-Instance-Id': instance.id }), 401, 'unauthorized');
      expectErrorBody(await http.get('/events', { 'X-Api-Key': customer.apiKey }), 400, 'missing X-Instance-Id header');
      // The customer's own key works as well as the instance key.
      expect((await http.get('/events', { 'X-Api-Key': customer.apiKey, 'X-Instance-Id': instance.id })).status).toBe(200);
    });

    it("never shows another instance's events", async () => {
      const mine = await pairedInstance();
      const sibling = await pairedInstance();
      const stranger = await pairedInstance(otherCustomer);
      await Promise.all([inbound(sibling, 'sibling'), inbound(stranger, 'stranger'), inbound(mine, 'mine')]);
      await Promise.all([logHas(sibling, 2), logHas(stranger, 2)]);
      const events = await logHas(mine, 2);
      expect(events.items.map((item) => [item.seq, item.event.instanceId, item.event.eventData.text])).toEqual([
        [1, mine.id, undefined],
        [2, mine.id, 'mine'],
      ]);
    });

    it('reads the log whatever pullMode says', async () => {
      const instance = await pairedInstance();
      const settings = (body: object) => http.put('/instance/settings', body, headersOf(instance));
      expect((await settings({ useCustomDefaults: false, pullMode: true })).status).toBe(204);
      await inbound(instance, 'pulled');
      expect((await logHas(instance, 2)).items.map((item) => item.event.eventData.text)).toEqual([undefined, 'pulled']);
      expect((await settings({ pullMode: false })).status).toBe(204);
      await inbound(instance, 'pushed');
      expect((await logHas(instance, 3)).items.map((item) => item.event.eventData.text)).toEqual([undefined, 'pulled', 'pushed']);
      const client = await stream(api, instance, '?after=1');
      await client.waitFor((c) => c.messages.length === 2);
      expect(client.ids).toEqual([2, 3]);
    });
  });

  describe('resuming past the retained log', () => {
    /** Deletes the instance's oldest events as the retention pruning does. */
    async function pruneUpTo(instance: CreatedInstance, seq: number): Promise<void> {
      const db = new Client({ connectionString: testEnv().DATABASE_URL });
      await db.connect();
      try {
        await db.query('DELETE FROM event_log WHERE instance_id = $1 AND seq <= $2', [instance.id, seq]);
      } finally {
        await db.end();
      }
    }

    it('GET /events answers 410 naming the oldest kept sequence for a cursor whose next events were pruned', async () => {
      const instance = await createInstance(http, customer.apiKey);
      for (let n = 0; n < 5; n += 1) await appendQuietly(api, instance, `kept ${n}`);
      // Nothing pruned yet: every cursor is good, including 0 and the newest.
      for (const after of [0, 1, 4, 5]) expect((await http.get(`/events?after=${after}`, headersOf(instance))).status).toBe(200);
      await pruneUpTo(instance, 3);

      for (const after of [1, 2]) {
        expectErrorBody(
          await http.get(`/events?after=${after}`, headersOf(instance)),
          410,
          `cursor ${after} is older than the retained events: events ${after + 1} to 3 were pruned, the oldest available sequence is 4`,
        );
      }
      // A cursor right before the oldest kept event lost nothing; 0 (and no cursor) means "all that is kept".
      expect((await page(instance, '?after=3')).items.map((item) => item.seq)).toEqual([4, 5]);
      expect((await page(instance, '?after=0')).items.map((item) => item.seq)).toEqual([4, 5]);
      expect((await page(instance)).items.map((item) => item.seq)).toEqual([4, 5]);
      expect(await page(instance, '?after=5')).toEqual({ items: [], nextAfter: 5 });

      // Everything pruned: the oldest available is the next event to come.
      await pruneUpTo(instance, 5);
      expectErrorBody(
        await http.get('/events?after=2', headersOf(instance)),
        410,
        'cursor 2 is older than the retained events: events 3 to 5 were pruned, the oldest available sequence is 6',
      );
      expect(await page(instance, '?after=5')).toEqual({ items: [], nextAfter: 5 });
    });

    it('opens the stream with an event: gap naming the first missing and the oldest kept sequence, then goes on from there', async () => {
      const instance = await createInstance(http, customer.apiKey);
      for (let n = 0; n < 6; n += 1) await appendQuietly(api, instance, `kept ${n}`);
      await pruneUpTo(instance, 3);

      const resumed = await stream(api, instance, '', { 'Last-Event-ID': '1' });
      expect(resumed.status).toBe(200);
      await resumed.waitFor((client) => client.messages.length === 3);
      expect(resumed.blocks[0]).toBe('id: 3\nevent: gap\ndata: {"firstMissing":2,"oldestKept":4}');
      expect(resumed.named).toEqual([
        {
          type: 'gap',
          id: 3,
          data: { firstMissing: 2, oldestKept: 4 },
          raw: 'id: 3\nevent: gap\ndata: {"firstMissing":2,"oldestKept":4}\n\n',
        },
      ]);
      expect(resumed.ids).toEqual([4, 5, 6]);

      // ?after= likewise; a cursor that lost nothing, and 0, get no gap.
      const viaQuery = await stream(api, instance, '?after=2');
      await viaQuery.waitFor((client) => client.messages.length === 3);
      expect(viaQuery.named.map((event) => event.data)).toEqual([{ firstMissing: 3, oldestKept: 4 }]);
      for (const query of ['?after=3', '?after=0']) {
        const whole = await stream(api, instance, query);
        await whole.waitFor((client) => client.messages.length === 3);
        expect({ named: whole.named, ids: whole.ids }).toEqual({ named: [], ids: [4, 5, 6] });
      }

      // Everything pruned: the gap runs up to the next event, which then arrives as usual.
      await pruneUpTo(instance, 6);
      const empty = await stream(api, instance, '?after=1');
      await empty.waitFor((client) => client.named.length === 1);
      expect(empty.named.map((event) => [event.id, event.data])).toEqual([[6, { firstMissing: 2, oldestKept: 7 }]]);
      const next = await appendAnnounced(api, instance, 'after the gap');
      await empty.waitFor((client) => client.messages.length === 1);
      expect(empty.ids).toEqual([next]);
    });
  });

  describe('GET /events/stream', () => {
    it('streams new events as id/data messages, and after a reconnect with Last-Event-ID sends exactly the missed ones', async () => {
      const instance = await pairedInstance();
      const live = await stream(api, instance);
      expect(live.status).toBe(200);
      expect(live.headers['content-type']).toBe('text/event-stream');
      expect(live.headers['cache-control']).toBe('no-cache');
      expect(live.headers['x-accel-buffering']).toBe('no');

      // Without Last-Event-ID or after, only events newer than the connection: not the earlier logged_in.
      await inbound(instance, 'one');
      await inbound(instance, 'two');
      await live.waitFor((c) => c.messages.length === 2);
      expect(live.ids).toEqual([2, 3]);
      expect(live.messages.map((m) => m.event.eventData.text)).toEqual(['one', 'two']);
      const logged = await page(instance, '?after=1');
      expect(live.messages.map((m) => m.event)).toEqual(logged.items.map((item) => item.event));
      expect(live.messages[0].raw).toBe(`id: 2\ndata: ${JSON.stringify(logged.items[0].event)}\n\n`);
      expect(live.others).toEqual([]);

      live.close();
      await expectNoOpenStreams(api);

      // Missed while disconnected: two inbound messages and a send (message_status and the own message event).
      await inbound(instance, 'three');
      await inbound(instance, 'four');
      await eventually(
        async () => (await http.get('/session/status', headersOf(instance))).body as { isConnected: boolean },
        (status) => status.isConnected,
      );
      expect((await http.post('/messages/text', { to: '447700900123', message: 'from me' }, headersOf(instance))).status).toBe(201);
      const missed = await eventually(
        () => page(instance, `?after=${live.ids.at(-1)}`),
        (events) => events.items.length === 4,
      );
      expect(missed.items.map((item) => item.event.eventType).sort()).toEqual(['message', 'message', 'message', 'message_status']);

      const resumed = await stream(api, instance, '', { 'Last-Event-ID': String(live.ids.at(-1)) });
      await resumed.waitFor((c) => c.messages.length >= 4);
      expect(resumed.ids).toEqual([4, 5, 6, 7]);
      expect(resumed.messages.map((m) => m.event)).toEqual(missed.items.map((item) => item.event));

      // Polls and wake-ups read on from one cursor: the read a later event wakes sends nothing twice.
      await inbound(instance, 'five');
      await resumed.waitFor((c) => c.messages.length >= 5);
      expect(resumed.ids).toEqual([4, 5, 6, 7, 8]);
      expect(resumed.messages[4].event.eventData.text).toBe('five');
      const union = [...live.messages, ...resumed.messages].map((m) => m.event.eventId);
      expect(new Set(union).size).toBe(union.length);
    });

    it('starts after ?after= when there is no Last-Event-ID, and Last-Event-ID wins over it', async () => {
      const instance = await pairedInstance();
      await inbound(instance, 'a');
      await inbound(instance, 'b');
      await logHas(instance, 3);

      const replay = await stream(api, instance, '?after=0');
      await replay.waitFor((c) => c.messages.length === 3);
      expect(replay.ids).toEqual([1, 2, 3]);
      expect(replay.messages[0].event.eventType).toBe('logged_in');

      const resumed = await stream(api, instance, '?after=0', { 'Last-Event-ID': '2' });
      await resumed.waitFor((c) => c.messages.length === 1);
      expect(resumed.ids).toEqual([3]);

      const ahead = await stream(api, instance, '?after=1000');
      await appendAnnounced(api, instance, 'not yet');
      await replay.waitFor((c) => c.messages.length === 4);
      await resumed.waitFor((c) => c.messages.length === 2);
      expect(ahead.messages).toEqual([]);
    });

    it('answers errors before the stream as JSON: 401 without a key, 400 for a bad Last-Event-ID or parameter', async () => {
      const instance = await createInstance(http, customer.apiKey);
      const cases: [Record<string, string>, string, number, string][] = [
        [{ 'X-Instance-Id': instance.id }, '', 401, 'unauthorized'],
        [{ 'X-Api-Key': otherCustomer.apiKey, 'X-Instance-Id': instance.id }, '', 401, 'unauthorized'],
        [headersOf(instance), '?after=-5', 400, 'validation error: after must be a non-negative whole number'],
        [headersOf(instance), '?limit=5', 400, 'validation error: property limit should not exist'],
        [
          { ...headersOf(instance), 'Last-Event-ID': 'evt_1' },
          '',
          400,
          'validation error: Last-Event-ID must be a non-negative whole number',
        ],
      ];
      for (const [headers, query, status, detail] of cases) {
        const client = await SseClient.open(api.url, `/events/stream${query}`, headers);
        clients.push(client);
        expect({ status: client.status, type: client.headers['content-type'], body: await client.json() }).toEqual({
          status,
          type: expect.stringContaining('application/json'),
          body: { status, detail },
        });
      }
      const spec = await http.get('/events/stream', { 'X-Instance-Id': instance.id });
      expectErrorBody(spec, 401, 'unauthorized');
      clients.splice(0).forEach((client) => client.close());
      await expectNoOpenStreams(api);
    });

    it("never sends another instance's events, even when they are announced to it", async () => {
      const mine = await pairedInstance();
      const sibling = await pairedInstance();
      const stranger = await pairedInstance(otherCustomer);
      const client = await stream(api, mine);
      const siblingClient = await stream(api, sibling);
      await Promise.all([inbound(sibling, 'sibling'), inbound(stranger, 'stranger')]);
      const strangerSeq = await appendQuietly(api, stranger, 'stranger quiet');
      // A wake-up names an instance; only that instance's log is ever read.
      await redis.publish(eventsChannel(testEnv().QUEUE_PREFIX), eventAnnouncement(mine.id, strangerSeq));
      await inbound(mine, 'mine');
      // The barrier: a later event of each instance. Announcements are read in the order they were published, so
      // once these have arrived, the misleading one before them has been handled.
      await Promise.all([inbound(mine, 'mine later'), inbound(sibling, 'sibling later')]);
      await client.waitFor((c) => c.messages.length >= 2);
      await siblingClient.waitFor((c) => c.messages.length >= 2);
      expect(client.messages.map((m) => [m.id, m.event.instanceId, m.event.eventData.text])).toEqual([
        [2, mine.id, 'mine'],
        [3, mine.id, 'mine later'],
      ]);
      expect(siblingClient.messages.map((m) => [m.id, m.event.instanceId, m.event.eventData.text])).toEqual([
        [2, sibling.id, 'sibling'],
        [3, sibling.id, 'sibling later'],
      ]);
    });

    it('ends the stream when the instance is deleted', async () => {
      const instance = await pairedInstance();
      const client = await stream(api, instance);
      expect((await http.delete(`/account/instances/${instance.id}`, { 'X-Api-Key': customer.apiKey })).status).toBe(204);
      await client.waitFor((c) => c.ended, 10_000);
      await expectNoOpenStreams(api);
    });
  });

  describe('with shortened timings', () => {
    const quiet = (options: Partial<EventStreamOptions>) =>
      startApi({}, [{ provide: EVENT_STREAM_OPTIONS, useValue: { keepAliveMs: 60_000, pollMs: 60_000, pageSize: 100, ...options } }]);

    it('sends a keep-alive comment line at the configured interval', async () => {
      const fast = await quiet({ keepAliveMs: 200 });
      try {
        const instance = await createInstance(http, customer.apiKey);
        const client = await stream(fast, instance);
        await client.waitFor((c) => c.comments.length >= 3, 5_000);
        expect(new Set(client.comments)).toEqual(new Set([': keep-alive']));
        expect(client.messages).toEqual([]);
        client.close();
        await expectNoOpenStreams(fast);
      } finally {
        await fast.close();
      }
    });

    it('wakes on the pub/sub announcement at once, in order and without repeats, with polling out of the way', async () => {
      // Polling every minute: anything arriving within seconds came through the announcement channel.
      const fast = await quiet({ pageSize: 5 });
      try {
        const instance = await createInstance(http, customer.apiKey);
        const channel = eventsChannel(testEnv().QUEUE_PREFIX);
        const client = await stream(fast, instance);

        const first = await appendQuietly(fast, instance, 'first');
        await eventually(
          async () => {
            await redis.publish(channel, eventAnnouncement(instance.id, first));
            return client.messages.length;
          },
          (count) => count === 1,
        );
        expect(client.ids).toEqual([first]);

        const second = await appendQuietly(fast, instance, 'second');
        const announcedAt = Date.now();
        await redis.publish(channel, eventAnnouncement(instance.id, second));
        await client.waitFor((c) => c.messages.length === 2, 5_000);
        expect(client.messages[1].at - announcedAt).toBeLessThan(1_000);

        // A burst: twelve events, announced shuffled, repeated, late and mixed with noise; read in pages of five.
        const seqs: number[] = [];
        for (let i = 0; i < 12; i += 1) seqs.push(await appendQuietly(fast, instance, `burst ${i}`));
        const shuffled = [...seqs].reverse().concat(seqs[3], seqs[0], second, first);
        await Promise.all([
          redis.publish(channel, 'garbage'),
          redis.publish(channel, `${instance.id} not-a-number`),
          redis.publish(channel, eventAnnouncement('ins_nobody', 5)),
          ...shuffled.map((seq) => redis.publish(channel, eventAnnouncement(instance.id, seq))),
        ]);
        await client.waitFor((c) => c.messages.length >= 14, 5_000);
        // The barrier: one more event, announced after all of those; by the time it arrives they have all been handled.
        const last = await appendQuietly(fast, instance, 'last');
        await redis.publish(channel, eventAnnouncement(instance.id, last));
        await client.waitFor((c) => c.messages.length >= 15, 5_000);
        expect(client.ids).toEqual([first, second, ...seqs, last]);
        expect(client.messages.slice(2).map((m) => m.event.eventData.marker)).toEqual([...seqs.map((_, i) => `burst ${i}`), 'last']);
      } finally {
        await fast.close();
      }
    });

    it('falls back to reading the log on its safety poll when no announcement comes', async () => {
      const polling = await quiet({ pollMs: 300 });
      try {
        const instance = await createInstance(http, customer.apiKey);
        const client = await stream(polling, instance);
        const seq = await appendQuietly(polling, instance, 'unannounced');
        await client.waitFor((c) => c.messages.length === 1, 5_000);
        expect(client.messages.map((m) => [m.id, m.event.eventData.marker])).toEqual([[seq, 'unannounced']]);
      } finally {
        await polling.close();
      }
    });

    it('reads once per stream when its subscription comes back, so an announcement lost meanwhile costs nothing', async () => {
      // Polling every minute: anything arriving within seconds came from the re-subscription's catch-up read.
      const fast = await quiet({});
      try {
        const instance = await createInstance(http, customer.apiKey);
        const client = await stream(fast, instance);
        const streams = fast.app.get(EventStreamsService);
        // Subscribed: an announced event arrives.
        const first = await appendQuietly(fast, instance, 'announced');
        await eventually(
          async () => {
            await redis.publish(eventsChannel(testEnv().QUEUE_PREFIX), eventAnnouncement(instance.id, first));
            return client.messages.length;
          },
          (count) => count === 1,
        );
        // Committed while the announcement cannot reach this API: it is never announced to it.
        const seq = await appendQuietly(fast, instance, 'missed');
        // The subscription's own connection drops and comes back (ioredis reconnects and resubscribes).
        (streams as unknown as { subscriber: { connection: Redis } }).subscriber.connection.disconnect(true);
        await client.waitFor((c) => c.messages.length === 2, 5_000);
        expect(client.messages.map((m) => [m.id, m.event.eventData.marker])).toEqual([
          [first, 'announced'],
          [seq, 'missed'],
        ]);
      } finally {
        await fast.close();
      }
    });

    it('ends open streams when the API shuts down', async () => {
      const doomed = await quiet({});
      const instance = await createInstance(http, customer.apiKey);
      const client = await stream(doomed, instance);
      expect(client.status).toBe(200);
      const started = Date.now();
      await doomed.close();
      expect(Date.now() - started).toBeLessThan(5_000);
      await client.waitFor((c) => c.ended, 5_000);
    });
  });
});
