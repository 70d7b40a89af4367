import { Client } from 'pg';
import { startApi, type RunningApi } from './support/api-harness';
import { subPrefix, testEnv } from './support/environment';
import { eventually } from './support/event-log';
import { createCustomer, createInstance, type CreatedInstance } from './support/fixtures';
import { Http } from './support/http';
import { spawnApp, type AppProcess } from './support/processes';
import { ScratchDatabase } from './repositories/scratch-database';

const LEASE_MS = 3_000;

interface WorkerStatus {
  shards: number[];
  sessions: number;
  resume: { pending: number; resumed: number; total: number };
}

async function statusOf(worker: AppProcess): Promise<WorkerStatus | undefined> {
  try {
    const response = await fetch(`${worker.url}/status`);
    return response.ok ? ((await response.json()) as WorkerStatus) : undefined;
  } catch {
    return undefined;
  }
}

const headersOf = (instance: CreatedInstance) => ({ 'X-Api-Key': instance.apiKey, 'X-Instance-Id': instance.id });

describe('planned moves of sessions between workers', () => {
  const workers: AppProcess[] = [];
  let api: RunningApi;
  let db: Client;
  // A database of its own: the workers open every paired instance of the shards they take, and the suite counts them.
  const scratch = new ScratchDatabase('paced');
  let prefix: string;
  let shardCount: number;

  const startWorker = async (env: Record<string, string> = {}) => {
    const worker = await spawnApp('worker', {
      DATABASE_URL: scratch.url,
      QUEUE_PREFIX: prefix,
      SHARD_LEASE_MS: String(LEASE_MS),
      SHARD_COUNT: String(shardCount),
      ...env,
    });
    workers.push(worker);
    return worker;
  };

  const connectedCount = async (customerId: string) =>
    (
      await db.query<{ n: number }>("SELECT count(*)::int AS n FROM instances WHERE customer_id = $1 AND status = 'connected'", [
        customerId,
      ])
    ).rows[0].n;

  /** A customer with `count` sandbox instances, each paired and connected. */
  const pairedInstances = async (http: Http, name: string, count: number) => {
    const customer = await createCustomer(http, name);
    const instances: CreatedInstance[] = [];
    for (let i = 0; i < count; i += 1) instances.push(await createInstance(http, customer.apiKey, { name: `${name}-${i}`, sandbox: true }));
    for (const instance of instances) {
      const paired = await http.post('/sandbox/pair', {}, headersOf(instance));
      expect({ status: paired.status, body: paired.body as unknown }).toEqual({ status: 200, body: { deviceId: expect.any(String) } });
    }
    await eventually(
      () => connectedCount(customer.id),
      (n) => n === count,
      20_000,
    );
    return { customer, instances };
  };

  beforeAll(async () => {
    await scratch.create();
    await scratch.migrate();
    db = new Client({ connectionString: scratch.url });
    await db.connect();
  });

  afterAll(async () => {
    await db?.end();
    await scratch.drop();
  });

  afterEach(async () => {
    await Promise.all(workers.splice(0).map((worker) => worker.stop('SIGKILL')));
    await api?.close();
    // Each test counts the sessions its workers open: none of an earlier test's instances may be left to open.
    await db.query('DELETE FROM customers');
  });

  it('answers no 503 while a worker joins and another leaves on SIGTERM, and delivers every accepted send once, in order', async () => {
    shardCount = 16;
    prefix = subPrefix('move');
    api = await startApi({ databaseUrl: scratch.url, queuePrefix: prefix, shardCount });
    const http = new Http(api.url, { checkSpec: false });
    const first = await startWorker();
    await eventually(
      async () => (await statusOf(first))?.shards.length,
      (owned) => owned === shardCount,
      15_000,
    );
    const began = Date.now();
    const { instances } = await pairedInstances(http, 'Move Co', 8);

    /** Per instance, the ids of its accepted sends in the order they were accepted, and their texts. */
    const accepted = new Map<string, string[]>(instances.map((instance) => [instance.id, []]));
    const texts = new Map<string, string>();
    const refusals: { status: number; body: unknown }[] = [];
    let sending = true;
    // One client per instance sends one message after another, so each instance's acceptance order is well defined.
    const clients = instances.map(async (instance) => {
      for (let n = 0; sending; n += 1) {
        const text = `move ${instance.id} ${n}`;
        const response = await http.post('/messages/text', { to: '447700900123', message: text }, headersOf(instance));
        if (response.status === 201) {
          const id = (response.body as { id: string }).id;
          accepted.get(instance.id)?.push(id);
          texts.set(id, text);
        } else refusals.push({ status: response.status, body: response.body as unknown });
        await new Promise((resolve) => setTimeout(resolve, 10));
      }
    });

    const mark = (what: string) => console.log(`planned move: ${what} after ${Date.now() - began} ms`);
    try {
      await new Promise((resolve) => setTimeout(resolve, 1_000));
      mark('joining');
      const second = await startWorker();
      await eventually(
        async () => [(await statusOf(first))?.shards.length, (await statusOf(second))?.shards.length],
        ([a, b]) => a === shardCount / 2 && b === shardCount / 2,
        30_000,
      );
      mark('split');
      await new Promise((resolve) => setTimeout(resolve, 1_000));
      await first.stop('SIGTERM');
      mark('first stopped');
      await eventually(
        async () => (await statusOf(second))?.shards.length,
        (owned) => owned === shardCount,
        15_000,
      );
      await eventually(
        async () => (await statusOf(second))?.sessions,
        (sessions) => sessions === instances.length,
        15_000,
      );
      mark('all taken over');
      await new Promise((resolve) => setTimeout(resolve, 1_000));
    } finally {
      // Also when a step fails: the clients must not go on sending to an API that is being closed.
      sending = false;
      await Promise.all(clients);
    }

    const total = [...accepted.values()].reduce((sum, ids) => sum + ids.length, 0);
    console.log(`planned move: ${total} sends accepted, ${refusals.length} refused`);
    expect(refusals).toEqual([]);
    expect(total).toBeGreaterThan(100);

    const ids = [...texts.keys()];
    await eventually(
      async () => (await db.query<{ n: number }>('SELECT count(*)::int AS n FROM sandbox_messages WHERE id = ANY($1)', [ids])).rows[0].n,
      (n) => n === total,
      60_000,
    );
    for (const instance of instances) {
      const network = (
        await db.query<{ id: string; text: string; duplicates: number }>(
          `SELECT id, content->>'text' AS text, duplicates FROM sandbox_messages
           WHERE instance_id = $1 AND direction = 'outbound' ORDER BY seq`,
          [instance.id],
        )
      ).rows;
      // Exactly the accepted sends, each once, in acceptance order, each with its own text.
      expect(network.map((row) => row.id)).toEqual(accepted.get(instance.id));
      expect(network.filter((row) => row.duplicates !== 0 || row.text !== texts.get(row.id))).toEqual([]);
    }
  }, 240_000);

  it('opens the sessions it takes over at the configured rate, oldest-connected first, and shows its progress', async () => {
    const COUNT = 30;
    const RATE = 5;
    // One shard: the new worker acquires every instance at once, so the whole order is the pacer's.
    shardCount = 1;
    prefix = subPrefix('pace');
    api = await startApi({ databaseUrl: scratch.url, queuePrefix: prefix, shardCount });
    const http = new Http(api.url, { checkSpec: false });
    const first = await startWorker({ RESUME_RATE_PER_SECOND: '1000' });
    await eventually(
      async () => (await statusOf(first))?.shards.length,
      (owned) => owned === 1,
      15_000,
    );
    const { customer, instances } = await pairedInstances(http, 'Pace Co', COUNT);
    await first.stop('SIGTERM');
    // When each last connected, in an order unlike creation: instance i at 10:00 plus (7i mod 30) minutes.
    const minutes = instances.map((_, i) => (7 * i) % COUNT);
    for (const [i, instance] of instances.entries())
      await db.query(`UPDATE instances SET status_changed_at = timestamp '2026-01-01 10:00' + $2 * interval '1 minute' WHERE id = $1`, [
        instance.id,
        minutes[i],
      ]);
    const before = new Date();

    const second = await startWorker({ RESUME_RATE_PER_SECOND: String(RATE) });
    // What the worker and the operator overview show while it resumes, sampled (each on its own) until every session is open.
    const workerSamples: unknown[] = [];
    const overviewSamples: unknown[] = [];
    const servingSamples: unknown[] = [];
    let sampling = true;
    const sample = async (take: () => Promise<unknown>, into: unknown[]) => {
      while (sampling) {
        into.push(await take());
        await new Promise((resolve) => setTimeout(resolve, 50));
      }
    };
    const samplers = Promise.all([
      sample(async () => (await statusOf(second))?.resume, workerSamples),
      sample(async () => {
        const overview = await http.get('/admin/overview', { 'X-Admin-Key': testEnv().ADMIN_API_KEY });
        const workers = (overview.body as { workers?: { shards: number[]; resume?: unknown }[] }).workers ?? [];
        return workers.find((worker) => worker.shards.length === 1)?.resume;
      }, overviewSamples),
      // The orchestrator's readiness (deploy/kubernetes): not serving until every session it took is open.
      sample(async () => {
        const response = await fetch(`${second.url}/health/serving`);
        return { status: response.status, body: await response.json() };
      }, servingSamples),
    ]);
    await eventually(
      () => connectedSince(customer.id, before),
      (rows) => rows.length === COUNT,
      20_000,
    );
    sampling = false;
    await samplers;
    const opened = await connectedSince(customer.id, before);
    // Opened in the order they last connected, oldest first. Seen from the link's side: an open finishes after a round
    // trip to the (simulated) network, so two opens that fell a few ms apart at the ends of adjacent slots may finish in
    // either order; none lands more than two places from its turn.
    const byAge = [...instances.keys()].sort((a, b) => minutes[a] - minutes[b]).map((i) => instances[i].id);
    const turns = opened.map((row) => byAge.indexOf(row.id));
    expect(turns.filter((turn, place) => Math.abs(turn - place) > 2)).toEqual([]);
    expect([...turns].sort((a, b) => a - b)).toEqual([...byAge.keys()]);
    // 30 opens at 5 a second, each at a random point of its own 200 ms slot: at least 5.6 s from first to last, and no
    // second holds more than 6 (one more for timer rounding). A busy machine only makes it slower (a late timer takes a
    // slot of its own), so the upper bound is loose: without the pacer all 30 open within a few hundred ms.
    const times = opened.map((row) => row.at);
    const span = times[times.length - 1] - times[0];
    const busiest = Math.max(...times.map((from) => times.filter((at) => at >= from && at < from + 1000).length));
    console.log(`paced takeover: ${COUNT} sessions opened over ${span} ms at ${RATE}/s, at most ${busiest} in a second`);
    expect(busiest).toBeLessThanOrEqual(RATE + 2);
    expect(span).toBeGreaterThanOrEqual(((COUNT - 2) * 1000) / RATE - 100);
    expect(span).toBeLessThanOrEqual((2 * COUNT * 1000) / RATE);

    // Midway, both showed "resuming n of 30" (the overview a second behind at most), and the counts add up.
    const midway = (progress: unknown) => {
      const { pending, resumed, total } = (progress ?? {}) as { pending?: number; resumed?: number; total?: number };
      return total === COUNT && pending !== undefined && resumed !== undefined && pending > 0 && resumed > 0 && pending + resumed === COUNT;
    };
    expect(workerSamples.filter(midway).length).toBeGreaterThan(0);
    expect(overviewSamples.filter(midway).length).toBeGreaterThan(0);
    await eventually(
      async () =>
        (await http.get('/admin/overview', { 'X-Admin-Key': testEnv().ADMIN_API_KEY })).body as { workers: { resume?: unknown }[] },
      (overview) =>
        overview.workers.some((worker) => JSON.stringify(worker.resume) === JSON.stringify({ pending: 0, resumed: COUNT, total: COUNT })),
      5_000,
    );
    expect((await statusOf(second))?.resume).toEqual({ pending: 0, resumed: COUNT, total: COUNT });
    const resuming = servingSamples.filter((sampled) =>
      /^not ready: resuming sessions \(([1-9]|[12]\d) of 30 open\)$/.test((sampled as { body: { detail?: string } }).body.detail ?? ''),
    );
    expect(resuming.length).toBeGreaterThan(0);
    expect(resuming[0]).toEqual({ status: 503, body: { status: 503, detail: expect.stringMatching(/^not ready: resuming sessions/) } });
    const serving = await fetch(`${second.url}/health/serving`);
    expect({ status: serving.status, body: await serving.json() }).toEqual({
      status: 200,
      body: expect.objectContaining({ status: 'ok', info: { database: { status: 'up' }, redis: { status: 'up' } } }),
    });

    const metrics = await (await fetch(`${second.url}/metrics`)).text();
    expect(metrics).toContain(`worker_sessions_resumed_total ${COUNT}`);
    expect(metrics).toContain('worker_sessions_resume_pending 0');
    expect(metrics).toContain(`worker_sessions_resume_wave_total ${COUNT}`);
  }, 120_000);

  /** The instances of a customer whose link opened after `since`, in the order it opened, with when (ms). */
  async function connectedSince(customerId: string, since: Date): Promise<{ id: string; at: number }[]> {
    const rows = await db.query<{ id: string; at: Date }>(
      `SELECT id, status_changed_at AS at FROM instances
       WHERE customer_id = $1 AND status = 'connected' AND status_changed_at > $2 ORDER BY status_changed_at`,
      [customerId, since],
    );
    return rows.rows.map((row) => ({ id: row.id, at: row.at.getTime() }));
  }
});
