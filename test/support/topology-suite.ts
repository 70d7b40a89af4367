import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { Client } from 'pg';
import { Webhook } from 'standardwebhooks';
import { subPrefix, testEnv } from './environment';
import { eventLog, eventually } from './event-log';
import { adminHeaders, createCustomer, createInstance, type CreatedInstance } from './fixtures';
import { Http } from './http';
import { expectErrorBody } from './openapi';
import { spawnApp, type AppProcess } from './processes';
import { startRedisTopology, type RedisTopology } from './redis-topology';
import { SseClient } from './sse-client';
import { WebhookReceiver } from './webhook-receiver';

const SHARDS = 4;
// Long enough that lease renewals on a busy CI machine do not lapse by themselves (that churn would answer 503s too).
const LEASE_MS = 8_000;
const SECRET = `whsec_${Buffer.alloc(24, 7).toString('base64')}`;
const PNG = Buffer.from('iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk+M9QDwADhgGAWjR9awAAAABJRU5ErkJggg==', 'base64');
const TO = '447700900123';
const UNAVAILABLE = { status: 503, body: { status: 503, detail: 'instance not available' } };

const headersOf = (instance: CreatedInstance) => ({ 'X-Api-Key': instance.apiKey, 'X-Instance-Id': instance.id });

async function shardsOf(worker: AppProcess): Promise<number[]> {
  try {
    const response = await fetch(`${worker.url}/status`);
    return response.ok ? ((await response.json()) as { shards: number[] }).shards : [];
  } catch {
    return [];
  }
}

/**
 * The core flows on one Redis topology, in one `describe` sharing one started topology: two API replicas and two
 * workers use it. Pairing, every kind of send, a signed webhook and an SSE event, key rotation reaching both replicas,
 * a shard failover between the workers, and a Redis failover (a master killed) while sends and inbound messages flow.
 */
export function describeRedisTopology(mode: 'cluster' | 'sentinel'): void {
  describe(`on a Redis ${mode === 'cluster' ? 'Cluster' : 'Sentinel group'}`, () => {
    let topology: RedisTopology;
    let receiver: WebhookReceiver;
    let db: Client;
    const apis: AppProcess[] = [];
    const workers: AppProcess[] = [];
    let one: Http;
    let two: Http;

    const waitForShards = () =>
      eventually(
        async () => Promise.all(workers.map(shardsOf)),
        (owned) => owned.flat().sort().join() === '0,1,2,3' && owned.every((shards) => shards.length > 0),
        30_000,
      );

    beforeAll(async () => {
      [topology, receiver] = await Promise.all([startRedisTopology(mode), WebhookReceiver.start()]);
      const env = {
        ...topology.env,
        QUEUE_PREFIX: subPrefix(mode),
        SHARD_COUNT: String(SHARDS),
        SHARD_LEASE_MS: String(LEASE_MS),
        // A long cache TTL: only invalidation can make a replica drop a rotated key.
        KEY_CACHE_TTL_MS: '600000',
        WEBHOOK_ALLOWED_HOSTS: '127.0.0.1',
      };
      // One at a time: four processes starting at once on a busy CI machine may miss spawnApp's 30 s readiness wait.
      for (const list of [apis, apis, workers, workers]) list.push(await spawnApp(list === apis ? 'api' : 'worker', env));
      one = new Http(apis[0].url, { checkSpec: false });
      two = new Http(apis[1].url, { checkSpec: false });
      db = new Client({ connectionString: testEnv().DATABASE_URL });
      await db.connect();
      await waitForShards();
    }, 90_000);

    afterAll(async () => {
      // The processes' logs, for a failure's post-mortem: .test-tmp/redis-<mode>-<app>.log
      const logs = join(__dirname, '..', '..', '.test-tmp');
      mkdirSync(logs, { recursive: true });
      [...apis, ...workers].forEach((app, index) => writeFileSync(join(logs, `redis-${mode}-${index}.log`), app.output()));
      await db?.end();
      await Promise.all([...apis, ...workers].map((app) => app.stop('SIGKILL')));
      await receiver?.close();
      await topology?.stop();
    }, 30_000);

    async function paired(http: Http, apiKey: string, phone: string): Promise<CreatedInstance> {
      const instance = await createInstance(http, apiKey);
      const pairing = await http.post('/sandbox/pair', { phone }, headersOf(instance));
      expect(pairing.status).toBe(200);
      // Read on the other replica: the live status crosses Redis.
      const other = http === one ? two : one;
      await eventually(
        async () => (await other.get('/session/status', headersOf(instance))).body as { isConnected: boolean },
        (status) => status.isConnected,
        15_000,
      );
      return instance;
    }

    it('pairs, sends every kind, delivers a signed webhook and an SSE event', async () => {
      const customer = await createCustomer(one, `${mode} Co`);
      const instance = await paired(one, customer.apiKey, '15550001001');
      const path = `/${mode}`;
      expect(
        (
          await one.put(
            '/instance/settings',
            { useCustomDefaults: false, webhookUrl: receiver.url(path), eventSigningSecret: SECRET },
            headersOf(instance),
          )
        ).status,
      ).toBe(204);
      const stream = await SseClient.open(apis[1].url, '/events/stream', headersOf(instance));
      try {
        expect(stream.status).toBe(200);
        const sends: [string, object][] = [
          ['text', { to: TO, message: `hello over ${mode}` }],
          ['image', { to: TO, data: PNG.toString('base64'), mimeType: 'image/png' }],
          ['document', { to: TO, data: Buffer.from('%PDF-1.4\n').toString('base64'), filename: 'a.pdf' }],
          ['buttons', { to: TO, text: 'Pick', buttons: [{ id: 'y', text: 'Yes' }] }],
          ['list', { to: TO, text: 'Slots', buttonText: 'Open', sections: [{ title: 'Now', rows: [{ id: 'a', title: 'A' }] }] }],
          ['contact', { to: TO, displayName: 'Ann', vcard: 'BEGIN:VCARD\nVERSION:3.0\nFN:Ann\nEND:VCARD' }],
          ['location', { to: TO, latitude: 51.5, longitude: -0.12 }],
          ['link', { to: TO, text: 'See https://example.com', url: 'https://example.com' }],
        ];
        const ids: string[] = [];
        for (const [kind, body] of sends) {
          const sent = await one.post(`/messages/${kind}`, body, headersOf(instance));
          expect({ kind, status: sent.status }).toEqual({ kind, status: 201 });
          ids.push((sent.body as { id: string }).id);
        }
        const outbox = await eventually(
          async () => (await two.get('/sandbox/outbox', headersOf(instance))).body as { id: string; type: string }[],
          (entries) => entries.length >= sends.length,
          20_000,
        );
        expect(outbox.map((entry) => [entry.id, entry.type])).toEqual(ids.map((id, index) => [id, sends[index][0]]));
        // A command (not a queued send) crosses pub/sub to the worker owning the shard and back.
        expect((await two.post(`/messages/${ids[0]}/reaction`, { to: TO, reaction: '👍' }, headersOf(instance))).status).toBe(200);

        expect(
          (await two.post('/sandbox/inbound', { from: TO, type: 'text', text: `ping over ${mode}` }, headersOf(instance))).status,
        ).toBe(201);
        const hooks = await eventually(
          () =>
            Promise.resolve(
              receiver
                .at(path)
                .filter((hook) => hook.envelope.eventType === 'message' && hook.envelope.eventData.text === `ping over ${mode}`),
            ),
          (found) => found.length === 1,
          15_000,
        );
        const verified = new Webhook(SECRET).verify(hooks[0].rawBody, {
          'webhook-id': String(hooks[0].headers['webhook-id']),
          'webhook-timestamp': String(hooks[0].headers['webhook-timestamp']),
          'webhook-signature': String(hooks[0].headers['webhook-signature']),
        });
        expect(verified).toEqual(hooks[0].envelope);
        await stream.waitFor((client) => client.messages.some((message) => message.event.eventId === hooks[0].envelope.eventId), 10_000);
      } finally {
        stream.close();
      }
    }, 60_000);

    it('rotates a key with the invalidation reaching both API replicas', async () => {
      const created = await one.post('/admin/customers', { name: `${mode} rotation` }, adminHeaders());
      const oldKey = (created.body as { apiKey: string }).apiKey;
      for (const http of [one, two]) expect((await http.get('/account/instances', { 'X-Api-Key': oldKey })).status).toBe(200);
      const rotated = await one.post('/account/apikey/rotate', undefined, { 'X-Api-Key': oldKey });
      expect(rotated.status).toBe(200);
      for (const http of [two, one]) {
        expectErrorBody(await http.get('/account/instances', { 'X-Api-Key': oldKey }), 401, 'unauthorized');
        expect((await http.get('/account/instances', { 'X-Api-Key': rotated.body as string })).status).toBe(200);
      }
    }, 30_000);

    it('loses and duplicates no send, keeps order, and answers 503 only briefly when a Redis master dies under load', async () => {
      const INSTANCES = 6;
      const SENDS = 240;
      const CLIENTS = 6;
      const customer = await createCustomer(one, `${mode} failover`);
      const instances = await Promise.all(Array.from({ length: INSTANCES }, (_, n) => paired(one, customer.apiKey, `1555000${2000 + n}`)));

      // Never two sessions of one instance: sampled from the workers' own view of the shards they serve.
      const overlaps: number[][] = [];
      let sampling = true;
      const sampler = (async () => {
        while (sampling) {
          const owned = await Promise.all(workers.map(shardsOf));
          const both = owned[0].filter((shard) => owned.slice(1).some((shards) => shards.includes(shard)));
          if (both.length > 0) overlaps.push(both);
          await new Promise((resolve) => setTimeout(resolve, 100));
        }
      })();

      const accepted = new Map<string, { instanceId: string; text: string }>();
      const refusals: { status: number; body: unknown; at: number }[] = [];
      const inbound: { instanceId: string; text: string; status: number }[] = [];
      let issued = 0;
      let killedAt = 0;
      const sender = async (client: number) => {
        while (issued < SENDS) {
          const n = issued;
          issued += 1;
          const instance = instances[n % INSTANCES];
          const http = client % 2 === 0 ? one : two;
          const text = `${mode} ${n}`;
          const response = await http.post('/messages/text', { to: TO, message: text }, headersOf(instance));
          if (response.status === 201) accepted.set((response.body as { id: string }).id, { instanceId: instance.id, text });
          else refusals.push({ status: response.status, body: response.body as unknown, at: Date.now() });
          if (n % 6 === 0) {
            const reply = await http.post('/sandbox/inbound', { from: TO, type: 'text', text: `in ${text}` }, headersOf(instance));
            inbound.push({ instanceId: instance.id, text: `in ${text}`, status: reply.status });
          }
          if (killedAt === 0 && issued >= SENDS / 3) {
            killedAt = Date.now();
            const [master] = await topology.masters();
            await topology.kill(master.port);
          }
          // Paced, so the run spans the failover rather than finishing before it.
          await new Promise((resolve) => setTimeout(resolve, 40));
        }
      };
      const startedAt = Date.now();
      await Promise.all(Array.from({ length: CLIENTS }, (_, client) => sender(client)));
      const sendingMs = Date.now() - startedAt;
      sampling = false;
      await sampler;

      // The 503s: when, relative to the kill (answered at, so a request that waited its whole deadline counts late).
      const refusedMs = refusals.map((refusal) => refusal.at - killedAt);
      const refusedWindowMs = refusedMs.length > 0 ? Math.max(...refusedMs) : 0;
      const ids = [...accepted.keys()];
      const delivered = await eventually(
        async () => (await db.query<{ n: number }>('SELECT count(*)::int AS n FROM sandbox_messages WHERE id = ANY($1)', [ids])).rows[0].n,
        (n) => n === accepted.size,
        60_000,
      );
      const drainedMs = Date.now() - startedAt - sendingMs;
      const instanceIds = instances.map((instance) => instance.id);
      const network = (
        await db.query<{ instance_id: string; id: string; text: string; duplicates: number }>(
          `SELECT instance_id, id, content->>'text' AS text, duplicates FROM sandbox_messages
           WHERE instance_id = ANY($1) AND direction = 'outbound' ORDER BY instance_id, seq`,
          [instanceIds],
        )
      ).rows;
      const duplicates = network.reduce((sum, row) => sum + row.duplicates, 0);
      console.log(
        `${mode} failover: ${accepted.size} accepted, ${delivered} reached the network, ${refusals.length} refused over ` +
          `${Math.min(...refusedMs, 0)}..${refusedWindowMs} ms after the kill, ${duplicates} duplicates, ${inbound.length} inbound, ${overlaps.length} samples with a shard served twice; ` +
          `sending took ${sendingMs} ms (master killed after ${killedAt - startedAt} ms), the rest arrived ${drainedMs} ms later`,
      );
      expect(
        refusals.filter((refusal) => JSON.stringify({ status: refusal.status, body: refusal.body }) !== JSON.stringify(UNAVAILABLE)),
      ).toEqual([]);
      // Only around the failover: none before the kill, none later than a few seconds after it.
      expect(refusedMs.filter((ms) => ms < 0 || ms > 10_000)).toEqual([]);
      expect(network.filter((row) => accepted.get(row.id)?.text !== row.text)).toEqual([]);
      expect(network).toHaveLength(accepted.size);
      expect(duplicates).toBe(0);
      expect(overlaps).toEqual([]);

      // Each instance's messages reached the network in the order they were accepted.
      const acceptance = (
        await db.query<{ instance_id: string; id: string }>(
          'SELECT instance_id, id FROM messages WHERE id = ANY($1) ORDER BY instance_id, seq',
          [ids],
        )
      ).rows;
      const byInstance = (rows: { instance_id: string; id: string }[]) => {
        const lists = new Map<string, string[]>();
        for (const row of rows) lists.set(row.instance_id, [...(lists.get(row.instance_id) ?? []), row.id]);
        return lists;
      };
      const received = byInstance(network);
      expect([...byInstance(acceptance)].filter(([instanceId, order]) => order.join() !== received.get(instanceId)?.join())).toEqual([]);

      // Every inbound message the network accepted was logged once.
      const accepting = inbound.filter((message) => message.status === 201);
      const loggedCounts = async () => {
        const logged = new Map<string, number>();
        for (const instanceId of instanceIds) {
          for (const event of await eventLog(instanceId)) {
            if (event.eventType !== 'message' || typeof event.data.text !== 'string') continue;
            logged.set(event.data.text, (logged.get(event.data.text) ?? 0) + 1);
          }
        }
        return accepting.filter((message) => logged.get(message.text) !== 1);
      };
      expect(await eventually(loggedCounts, (missing) => missing.length === 0, 20_000)).toEqual([]);
      expect(inbound.filter((message) => message.status !== 201 && message.status !== 503)).toEqual([]);
    }, 110_000);

    it('moves the shards of a killed worker to the other one, which then sends', async () => {
      const customer = await createCustomer(one, `${mode} takeover`);
      const instance = await paired(one, customer.apiKey, '15550001002');
      const victim = workers.shift()!;
      const killedAt = Date.now();
      await victim.stop('SIGKILL');
      await eventually(
        () => shardsOf(workers[0]),
        (shards) => shards.length === SHARDS,
        20_000,
      );
      const tookOverMs = Date.now() - killedAt;
      const sent = await eventually(
        () => one.post('/messages/text', { to: TO, message: 'after takeover' }, headersOf(instance)),
        (response) => response.status === 201,
        15_000,
      );
      const id = (sent.body as { id: string }).id;
      await eventually(
        async () => (await one.get('/sandbox/outbox', headersOf(instance))).body as { id: string }[],
        (entries) => entries.some((entry) => entry.id === id),
        15_000,
      );
      // Last in the suite: the failover test above needed both workers.
      console.log(`${mode}: shards taken over ${tookOverMs} ms after the kill`);
    }, 60_000);
  });
}
