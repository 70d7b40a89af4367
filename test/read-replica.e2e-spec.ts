import { spawnSync } from 'node:child_process';
import { join } from 'node:path';
import { Client } from 'pg';
import { startApi, type RunningApi } from './support/api-harness';
import { subPrefix } from './support/environment';
import { eventually } from './support/event-log';
import { adminHeaders, createInstance, type CreatedInstance } from './support/fixtures';
import { Http } from './support/http';
import { headersOf, waitForStatus } from './support/instance-world';
import { expectErrorBody } from './support/openapi';
import { spawnApp, type AppProcess } from './support/processes';
import { startPrimaryWithReplica, type PrimaryWithReplica } from './support/replica';
import { SseClient } from './support/sse-client';

const DATABASE = 'gateway';
const ANN = '447700900123';
const BOB = '447700900456';
const jid = (phone: string) => `${phone}@s.whatsapp.net`;

/**
 * Issue 24 goal 4: with `DATABASE_READ_URL` on a real streaming replica whose replay is paused, the reads where lag is
 * harmless (event pages, SSE catch-up, chats, contacts) show the replica's older state, and every read that decides
 * something (key resolution, the instance-list version, idempotency, sends) still sees the primary.
 */
describe('a read replica where lag is harmless', () => {
  let pair: PrimaryWithReplica;
  let api: RunningApi;
  let worker: AppProcess;
  let http: Http;
  let primary: Client;
  let customerKey: string;
  let instance: CreatedInstance;
  const clients: SseClient[] = [];

  beforeAll(async () => {
    pair = await startPrimaryWithReplica();
    const admin = new Client({ connectionString: pair.primaryUrl('postgres') });
    await admin.connect();
    await admin.query(`CREATE DATABASE ${DATABASE}`);
    await admin.end();
    const migrated = spawnSync(process.execPath, [join(__dirname, '..', 'scripts', 'migrate.mjs')], {
      env: { ...process.env, DATABASE_URL: pair.primaryUrl(DATABASE), DATABASE_MIGRATION_URL: pair.primaryUrl(DATABASE) },
      encoding: 'utf8',
    });
    if (migrated.status !== 0) throw new Error(`migration failed:\n${migrated.stderr}`);
    const databaseUrl = pair.primaryUrl(DATABASE);
    const databaseReadUrl = pair.replicaUrl(DATABASE);
    const queuePrefix = subPrefix('replica');
    await pair.caughtUp();
    [api, worker] = await Promise.all([
      startApi({ databaseUrl, databaseReadUrl, queuePrefix }),
      spawnApp('worker', { DATABASE_URL: databaseUrl, DATABASE_READ_URL: databaseReadUrl, QUEUE_PREFIX: queuePrefix }),
    ]);
    http = new Http(api.url, { checkSpec: false });
    primary = new Client({ connectionString: databaseUrl });
    await primary.connect();
    const created = await http.post('/admin/customers', { name: 'Replicated' }, adminHeaders());
    customerKey = (created.body as { apiKey: string }).apiKey;
    instance = await createInstance(http, customerKey);
    expect((await http.post('/sandbox/pair', { phone: '15550002001' }, headersOf(instance))).status).toBe(200);
    await waitForStatus(http, instance, (status) => status.isConnected);
    expect((await http.post('/sandbox/contacts', { id: ANN, pushName: 'Ann' }, headersOf(instance))).status).toBe(201);
    expect((await http.post('/sandbox/inbound', { from: ANN, type: 'text', text: 'before' }, headersOf(instance))).status).toBe(201);
  });

  afterAll(async () => {
    clients.splice(0).forEach((client) => client.close());
    await primary?.end();
    await Promise.all([api?.close(), worker?.stop()]);
    await pair?.stop();
  });

  const get = async <T>(path: string, headers = headersOf(instance)) => (await http.get(path, headers)).body as T;
  const eventTexts = async () =>
    (await get<{ items: { event: { eventType: string; eventData: { text?: string } } }[] }>('/events?after=0&limit=100')).items
      .filter((item) => item.event.eventType === 'message')
      .map((item) => item.event.eventData.text);
  const chatIds = async () => (await get<{ id: string }[]>('/chats')).map((chat) => chat.id).sort();
  const contactIds = async () => (await get<{ id: string }[]>('/contacts')).map((contact) => contact.id).sort();
  const onPrimary = async (sql: string, values: unknown[]) => (await primary.query<{ n: number }>(sql, values)).rows[0].n;

  it('serves event pages, stream catch-up, chats and contacts from the replica, stale while its replay is paused', async () => {
    await eventually(eventTexts, (texts) => texts.includes('before'));
    await pair.caughtUp();
    expect(await chatIds()).toEqual([jid(ANN)]);
    expect(await contactIds()).toEqual([jid(ANN)]);

    await pair.pauseReplay();
    expect((await http.post('/sandbox/contacts', { id: BOB, pushName: 'Bob' }, headersOf(instance))).status).toBe(201);
    expect((await http.post('/sandbox/inbound', { from: BOB, type: 'text', text: 'while paused' }, headersOf(instance))).status).toBe(201);
    // Committed on the primary ...
    await eventually(
      () => onPrimary(`SELECT count(*)::int AS n FROM event_log WHERE instance_id = $1 AND data->>'text' = 'while paused'`, [instance.id]),
      (n) => n === 1,
    );
    await eventually(
      () => onPrimary(`SELECT count(*)::int AS n FROM chats WHERE instance_id = $1 AND jid = $2`, [instance.id, jid(BOB)]),
      (n) => n === 1,
    );
    // ... and not shown: these reads follow the replica.
    expect(await eventTexts()).toEqual(['before']);
    expect(await chatIds()).toEqual([jid(ANN)]);
    expect(await contactIds()).toEqual([jid(ANN)]);
    expectErrorBody(await http.get(`/chats/${jid(BOB)}`, headersOf(instance)), 404, 'not found');
    const stream = await SseClient.open(api.url, '/events/stream?after=0', headersOf(instance));
    clients.push(stream);
    await stream.waitFor((client) => client.messages.some((m) => m.event.eventData.text === 'before'));
    await new Promise((resolve) => setTimeout(resolve, 500));
    expect(stream.messages.map((m) => m.event.eventData.text).filter(Boolean)).toEqual(['before']);

    await pair.resumeReplay();
    await eventually(eventTexts, (texts) => texts.length === 2);
    expect(await eventTexts()).toEqual(['before', 'while paused']);
    expect(await chatIds()).toEqual([jid(BOB), jid(ANN)].sort());
    expect(await contactIds()).toEqual([jid(BOB), jid(ANN)].sort());
    await stream.waitFor((client) => client.messages.some((m) => m.event.eventData.text === 'while paused'));
  });

  it('resolves keys, checks the instance list, keeps idempotency and sends on the primary while the replica is stale', async () => {
    await pair.pauseReplay();
    try {
      // A new instance and its key work at once.
      const fresh = await createInstance(http, customerKey);
      expect((await http.get('/instance/settings', headersOf(fresh))).status).toBe(200);
      const listed = await get<{ items: { id: string }[] }>('/account/instances', { 'X-Api-Key': customerKey });
      expect(listed.items.map((item) => item.id).sort()).toEqual([instance.id, fresh.id].sort());

      // Idempotency: the second request finds the first on the primary.
      const keyed = { ...headersOf(instance), 'Idempotency-Key': 'replica-1' };
      const first = await http.post('/messages/text', { to: ANN, message: 'once' }, keyed);
      const again = await http.post('/messages/text', { to: ANN, message: 'once' }, keyed);
      expect(first.status).toBe(201);
      expect((again.body as { id: string }).id).toBe((first.body as { id: string }).id);
      const id = (first.body as { id: string }).id;
      await eventually(
        async () => (await get<{ id: string }[]>('/sandbox/outbox')).map((entry) => entry.id),
        (ids) => ids.includes(id),
      );
      expect(
        await onPrimary(`SELECT count(*)::int AS n FROM messages WHERE instance_id = $1 AND idempotency_key = 'replica-1'`, [instance.id]),
      ).toBe(1);

      // A rotated key is refused at once, and the new one works.
      const rotated = await http.post('/account/apikey/rotate', undefined, { 'X-Api-Key': customerKey });
      expect(rotated.status).toBe(200);
      expectErrorBody(await http.get('/account/instances', { 'X-Api-Key': customerKey }), 401, 'unauthorized');
      customerKey = rotated.body as string;
      expect((await http.get('/account/instances', { 'X-Api-Key': customerKey })).status).toBe(200);

      // Deleted: gone from the list at once.
      expect((await http.delete(`/account/instances/${fresh.id}`, { 'X-Api-Key': customerKey })).status).toBe(204);
      const after = await get<{ items: { id: string }[] }>('/account/instances', { 'X-Api-Key': customerKey });
      expect(after.items.map((item) => item.id)).toEqual([instance.id]);
      expectErrorBody(await http.get('/instance/settings', headersOf(fresh)), 401, 'unauthorized');
    } finally {
      await pair.resumeReplay();
    }
  });
});
