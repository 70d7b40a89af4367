import { Client } from 'pg';
import { testEnv } from './support/environment';
import { eventLog, eventually } from './support/event-log';
import type { CreatedInstance } from './support/fixtures';
import type { Http } from './support/http';
import { headersOf, pairedInstance, type InstanceWorld } from './support/instance-world';
import { expectErrorBody } from './support/openapi';
import { useInstanceWorld } from './support/world-suite';

const PREFIX = '1555042';
const MESSAGE_ID = /^3EB0[0-9A-F]{18}$/;

describe('POST /messages/text', () => {
  let http: Http;
  let world: InstanceWorld;
  let db: Client;
  useInstanceWorld(PREFIX, (suite) => ({ http, world } = suite));

  beforeAll(async () => {
    db = new Client({ connectionString: testEnv().DATABASE_URL });
    await db.connect();
  });

  afterAll(async () => {
    await db?.end();
  });

  const outbox = async (instance: CreatedInstance) =>
    (await http.get('/sandbox/outbox', headersOf(instance))).body as {
      id: string;
      to: string;
      type: string;
      content: Record<string, unknown>;
    }[];

  /** A new connected instance of the world's customer, so each test reads an outbox of its own, with its phone. */
  let paired = 0;
  const connectedInstance = async (): Promise<CreatedInstance & { phone: string }> => {
    const phone = `${PREFIX}${String((paired += 1) + 100).padStart(4, '0')}`;
    return { ...(await pairedInstance(http, world.customer, phone)), phone };
  };

  it('accepts a text, delivers it to the network and reports the outcome as events', async () => {
    const instance = await connectedInstance();
    const response = await http.post(
      '/messages/text',
      { to: '+447700900123', message: 'Hello there', mentions: ['447700900123'] },
      headersOf(instance),
    );
    expect(response.status).toBe(201);
    expect(response.body).toEqual({ id: expect.stringMatching(MESSAGE_ID) });
    const { id } = response.body as { id: string };

    const delivered = await eventually(
      () => outbox(instance),
      (entries) => entries.length === 1,
    );
    expect(delivered).toEqual([
      {
        id,
        to: '447700900123@s.whatsapp.net',
        type: 'text',
        content: { text: 'Hello there', mentions: ['447700900123@s.whatsapp.net'] },
        receivedAt: expect.any(String),
      },
    ]);
    const log = await eventually(
      () => eventLog(instance.id),
      (events) => events.filter((e) => e.eventType !== 'logged_in').length === 2,
    );
    expect(log.filter((e) => e.eventType !== 'logged_in').map((e) => [e.eventType, e.data])).toEqual([
      ['message_status', { id, chatId: '447700900123@s.whatsapp.net', status: 'sent' }],
      [
        'message',
        {
          id,
          time: expect.any(String),
          chatId: '447700900123@s.whatsapp.net',
          sender: { id: `${instance.phone}@s.whatsapp.net`, phone: instance.phone, isMe: true },
          isGroup: false,
          isStatus: false,
          type: 'text',
          text: 'Hello there',
          mentions: ['447700900123@s.whatsapp.net'],
        },
      ],
    ]);
  });

  it('takes `text` as an alias of `message`, and refuses both or neither', async () => {
    const instance = await connectedInstance();
    expect((await http.post('/messages/text', { to: '447700900123', text: 'alias' }, headersOf(instance))).status).toBe(201);
    expectErrorBody(
      await http.post('/messages/text', { to: '447700900123', text: 'a', message: 'b' }, headersOf(instance)),
      400,
      /^validation error: /,
    );
    expectErrorBody(
      await http.post('/messages/text', { to: '447700900123' }, headersOf(instance)),
      400,
      /^validation error: message or text is required/,
    );
    expectErrorBody(
      await http.post('/messages/text', { to: 'not-a-jid', message: 'x' }, headersOf(instance)),
      400,
      /^validation error: to must be a chat JID/,
    );
  });

  it('stores and sends nothing for a rejected request', async () => {
    const instance = await connectedInstance();
    expectErrorBody(
      await http.post('/messages/text', { to: '447700900123', message: 'x'.repeat(4097) }, headersOf(instance)),
      400,
      /^validation error: message must be at most 4096 characters/,
    );
    const rows = await db.query('SELECT count(*)::int AS n FROM messages WHERE instance_id = $1', [instance.id]);
    expect(rows.rows[0]).toEqual({ n: 0 });
    expect(await outbox(instance)).toEqual([]);
  });

  it('answers the same Idempotency-Key and body with the same id and sends once; another body is 422', async () => {
    const instance = await connectedInstance();
    const headers = { ...headersOf(instance), 'Idempotency-Key': 'order-42' };
    const first = await http.post('/messages/text', { to: '447700900123', message: 'once' }, headers);
    const again = await http.post('/messages/text', { message: 'once', to: '447700900123' }, headers);
    expect(first.status).toBe(201);
    expect(again.body).toEqual(first.body);
    expectErrorBody(
      await http.post('/messages/text', { to: '447700900123', message: 'twice?' }, headers),
      422,
      'idempotency key reused with a different request',
    );
    // A later send is the barrier: an instance's sends reach the network in the order they were accepted.
    expect((await http.post('/messages/text', { to: '447700900123', message: 'after' }, headersOf(instance))).status).toBe(201);
    const delivered = await eventually(
      () => outbox(instance),
      (entries) => entries.some((entry) => entry.content.text === 'after'),
    );
    expect(delivered.map((entry) => entry.content.text)).toEqual(['once', 'after']);
    expect((await db.query('SELECT count(*)::int AS n FROM messages WHERE instance_id = $1', [instance.id])).rows[0]).toEqual({ n: 2 });
  });

  it('refuses sends on unpaired (403) and disconnected (503) instances', async () => {
    expectErrorBody(
      await http.post('/messages/text', { to: '447700900123', message: 'x' }, headersOf(world.unpaired)),
      403,
      'device not paired',
    );
    expectErrorBody(
      await http.post('/messages/text', { to: '447700900123', message: 'x' }, headersOf(world.offline)),
      503,
      'instance not available',
    );
  });

  it('delivers 1,000 concurrent sends to one instance in the order they were accepted', async () => {
    const instance = await connectedInstance();
    const statuses: number[] = [];
    const batches = 10;
    await Promise.all(
      Array.from({ length: batches }, async (_, batch) => {
        for (let i = 0; i < 100; i += 1) {
          statuses.push(
            (await http.post('/messages/text', { to: '447700900123', message: `m-${batch}-${i}` }, headersOf(instance))).status,
          );
        }
      }),
    );
    expect(statuses.filter((status) => status === 201)).toHaveLength(1000);
    const accepted = await db.query<{ id: string }>('SELECT id FROM messages WHERE instance_id = $1 ORDER BY seq', [instance.id]);
    const delivered = await eventually(
      () => outbox(instance),
      (entries) => entries.length === 1000,
      120_000,
    );
    expect(delivered.map((entry) => entry.id)).toEqual(accepted.rows.map((row) => row.id));
    // Each client's own sends, which it issued one after another, keep their order too.
    const texts = delivered.map((entry) => String(entry.content.text));
    for (let batch = 0; batch < batches; batch += 1) {
      const mine = texts.filter((text) => text.startsWith(`m-${batch}-`));
      expect(mine).toEqual(Array.from({ length: 100 }, (_, i) => `m-${batch}-${i}`));
    }
    // An order check, not a speed one: 2,000 requests and sends with other suites running beside it on two cores.
  }, 240_000);

  it('paces sends of an instance by its minimum interval (anti-ban)', async () => {
    const instance = await connectedInstance();
    const account = { 'X-Api-Key': world.customer.apiKey };
    expect((await http.get(`/account/instances/${instance.id}/pacing`, account)).body).toEqual({ minIntervalMs: 0 });
    expect((await http.put(`/account/instances/${instance.id}/pacing`, { minIntervalMs: 300 }, account)).status).toBe(204);
    expect((await http.get(`/account/instances/${instance.id}/pacing`, account)).body).toEqual({ minIntervalMs: 300 });
    expectErrorBody(
      await http.put(`/account/instances/${instance.id}/pacing`, { minIntervalMs: 60_001 }, account),
      400,
      'validation error: minIntervalMs must be from 0 to 60000',
    );
    expectErrorBody(
      await http.put(`/account/instances/${instance.id}/pacing`, { minIntervalMs: 0 }, { 'X-Api-Key': world.stranger.apiKey }),
      404,
      'not found',
    );

    for (let i = 0; i < 4; i += 1) await http.post('/messages/text', { to: '447700900123', message: `paced ${i}` }, headersOf(instance));
    const delivered = await eventually(
      () => outbox(instance),
      (entries) => entries.length === 4,
      15_000,
    );
    const times = (delivered as unknown as { receivedAt: string }[]).map((entry) => Date.parse(entry.receivedAt));
    const gaps = times.slice(1).map((time, index) => time - times[index]);
    for (const gap of gaps) expect(gap).toBeGreaterThanOrEqual(280);
  });
});
