import { randomUUID } from 'node:crypto';
import { Queue, type Job } from 'bullmq';
import Redis from 'ioredis';
import { Client } from 'pg';
import { shardOf, workerCommandChannel, workerSendQueueName } from '@app/contracts';
import { ScratchDatabase } from './repositories/scratch-database';
import { testEnv, subPrefix } from './support/environment';
import { eventually } from './support/event-log';
import { ownsAllShards, spawnApp, type AppProcess } from './support/processes';

const SHARDS = 4;

/**
 * What a worker does with values from another version, through real Redis and PostgreSQL (docs/architecture.md,
 * "Shapes on the wire and versions"): a command of a newer version or with arguments it cannot read is answered with an
 * error at once; a send job it cannot read fails as unrecoverable (the row stays for the reconciler); a stored send it
 * cannot read is failed with the reason. The previous release's shapes (no `v`) are served as before.
 */
describe('wire versions: a worker meeting shapes it cannot read', () => {
  const scratch = new ScratchDatabase('wire');
  const prefix = subPrefix('wire');
  let worker: AppProcess;
  let workerId: string;
  let redis: Redis;
  let subscriber: Redis;
  let db: Client;
  const replyTo = `${prefix}:reply:${randomUUID()}`;
  const replies = new Map<string, Record<string, unknown>>();

  beforeAll(async () => {
    await scratch.create();
    await scratch.migrate();
    worker = await spawnApp('worker', { DATABASE_URL: scratch.url, QUEUE_PREFIX: prefix, SHARD_COUNT: String(SHARDS), LOG_LEVEL: 'info' });
    await ownsAllShards(worker, SHARDS);
    workerId = ((await (await fetch(`${worker.url}/status`)).json()) as { workerId: string }).workerId;
    redis = new Redis(testEnv().REDIS_URL);
    subscriber = new Redis(testEnv().REDIS_URL);
    subscriber.on('message', (_channel: string, message: string) => {
      const reply = JSON.parse(message) as Record<string, unknown>;
      replies.set(String(reply.requestId), reply);
    });
    await subscriber.subscribe(replyTo);
    db = new Client({ connectionString: scratch.url });
    await db.connect();
  });

  afterAll(async () => {
    await worker?.stop('SIGKILL');
    subscriber?.disconnect();
    redis?.disconnect();
    await db?.end();
    await scratch.drop();
  });

  /** Publishes a raw request on the worker's channel and waits for its reply. */
  async function command(request: Record<string, unknown>): Promise<Record<string, unknown>> {
    const requestId = randomUUID();
    const message = { requestId, replyTo, instanceId: 'ins_wire_none', deadline: Date.now() + 5_000, args: {}, ...request };
    expect(await redis.publish(workerCommandChannel(prefix, workerId), JSON.stringify(message))).toBe(1);
    return eventually(
      () => Promise.resolve(replies.get(requestId)),
      (reply) => reply !== undefined,
      5_000,
    ) as Promise<Record<string, unknown>>;
  }

  it('answers a newer command version with 503 and unreadable arguments with 500, naming the field; serves the previous release', async () => {
    expect(await command({ v: 99, name: 'session.qr' })).toMatchObject({
      v: 2,
      ok: false,
      code: 'instance_unavailable',
      detail: 'this worker does not understand command version 99; it is older than the API',
    });
    expect(await command({ v: 2, name: 'session.teleport' })).toMatchObject({
      ok: false,
      code: 'instance_unavailable',
      detail: 'this worker does not know command session.teleport; it is older than the API',
    });
    expect(await command({ v: 2, name: 'session.pairCode', args: { phone: 14155550123 } })).toMatchObject({
      ok: false,
      code: 'internal',
      detail: expect.stringContaining('phone: Invalid input: expected string, received number') as string,
    });
    // The previous release's request (no v) is read and handled: here the instance is unknown, an answer all the same.
    const old = await command({ name: 'session.qr' });
    expect(old.detail ?? '').not.toMatch(/version|cannot read/);
  });

  it('fails a send job it cannot read as unrecoverable, leaves the row accepted, and fails a stored send it cannot read', async () => {
    const instanceId = `ins_wire_${randomUUID().slice(0, 8)}`;
    await db.query("INSERT INTO customers (id, name) VALUES ($1, 'Wire Co')", [`cus_${instanceId}`]);
    await db.query('INSERT INTO instances (id, customer_id, name, shard, updated_at) VALUES ($1, $2, $1, $3, now())', [
      instanceId,
      `cus_${instanceId}`,
      shardOf(instanceId, SHARDS),
    ]);
    const insert = (id: string, seq: number, kind: string, payload: object) =>
      db.query('INSERT INTO messages (id, instance_id, seq, kind, chat_jid, payload) VALUES ($1, $2, $3, $4, $5, $6)', [
        id,
        instanceId,
        seq,
        kind,
        '14155550123@s.whatsapp.net',
        JSON.stringify(payload),
      ]);
    await insert('3EB0WIRE00000000000001', 1, 'text', { v: 2, text: 42 });
    const queue = new Queue(workerSendQueueName(workerId), { connection: { url: testEnv().REDIS_URL }, prefix });
    try {
      const newer = await queue.add('message.send', { v: 99, instanceId, messageId: '3EB0WIRE00000000000001' }, { jobId: 'newer' });
      await eventually(
        async () => (await newer.isFailed()) || (await newer.isCompleted()),
        (settled) => settled,
        10_000,
      );
      const failed = (await queue.getJob('newer')) as Job;
      expect(failed.failedReason).toBe('unreadable send job: version 99 is newer than this process understands (2)');
      expect(failed.attemptsMade).toBeLessThanOrEqual(1);
      const row = await db.query<{ status: string }>('SELECT status FROM messages WHERE id = $1', ['3EB0WIRE00000000000001']);
      expect(row.rows[0].status).toBe('accepted');

      // The previous release's doorbell (no v) is read: its drain meets the malformed stored payload and fails it.
      await queue.add('message.send', { instanceId, messageId: '3EB0WIRE00000000000001' }, { jobId: 'previous' });
      const outcome = await eventually(
        async () =>
          (
            await db.query<{ status: string; error: string | null }>('SELECT status, error FROM messages WHERE id = $1', [
              '3EB0WIRE00000000000001',
            ])
          ).rows[0],
        (stored) => stored.status !== 'accepted',
        10_000,
      );
      expect(outcome).toEqual({
        status: 'failed',
        error: 'the stored send could not be read (text: Invalid input: expected string, received number)',
      });
    } finally {
      await queue.close();
    }
    const log = worker.output();
    expect(log).toContain('send job refused: unreadable');
    expect(log).toContain('stored send failed: unreadable');
    expect(log).not.toContain('"text":42');
  });

  it('counts each refusal in gateway_decode_failures_total by boundary', async () => {
    const metrics = await (await fetch(`${worker.url}/metrics`)).text();
    const count = (boundary: string) =>
      Number(new RegExp(`gateway_decode_failures_total\\{boundary="${boundary}"\\} (\\d+)`).exec(metrics)?.[1] ?? 0);
    expect(count('command_request')).toBe(3);
    expect(count('send_job')).toBe(1);
    expect(count('stored_send')).toBeGreaterThanOrEqual(1);
  });
});
