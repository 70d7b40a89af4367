import { Pool } from 'pg';
import { EventAppendGroupCommit, type AppendRequest } from '../../libs/database/src/repositories/event-append-group-commit';
import { testEnv } from '../support/environment';
import { RepositoryDatabase } from './repository-database';
import { deliveryRows, eventRows } from './stored-rows';

describe('EventAppendGroupCommit on PostgreSQL', () => {
  const db = new RepositoryDatabase();
  // A second worker: its own pool and its own batcher, as another process would have.
  const otherWorkerPool = new Pool({ connectionString: testEnv().DATABASE_URL, max: 4 });

  afterAll(async () => {
    await otherWorkerPool.end();
    await db.close();
  });

  const request = (instanceId: string, tag: string, count: number, deliver = false): AppendRequest => ({
    instanceId,
    events: Array.from({ length: count }, (_, i) => ({ eventType: 'message', data: { tag, i } })),
    deliver,
    receivedAt: new Date(),
  });

  it('fails only the request whose data PostgreSQL refuses; the rest of its batch is appended in order', async () => {
    const [instance] = await db.instances(1);
    const group = new EventAppendGroupCommit(db.prisma.pool);

    const results = await Promise.allSettled([
      group.append(request(instance, 'before', 2, true)),
      group.append({ ...request(instance, 'bad', 1, true), events: [{ eventType: 'message', data: { text: 'nul \u0000 byte' } }] }),
      group.append(request(instance, 'after', 1, true)),
    ]);

    expect(results.map((result) => result.status)).toEqual(['fulfilled', 'rejected', 'fulfilled']);
    expect((results[1] as PromiseRejectedResult).reason).toMatchObject({ code: '22P05' });
    const rows = await eventRows(db, instance);
    expect(rows.map((row) => [row.seq, row.data])).toEqual([
      ['1', { tag: 'before', i: 0 }],
      ['2', { tag: 'before', i: 1 }],
      ['3', { tag: 'after', i: 0 }],
    ]);
    expect((await deliveryRows(db, instance)).map((row) => row.event_id)).toEqual(rows.map((row) => row.id));
  });

  it('gives two workers appending to the same instances gapless, unique numbers, each keeping its own order', async () => {
    const instances = await db.instances(3);
    const workers = [new EventAppendGroupCommit(db.prisma.pool), new EventAppendGroupCommit(otherWorkerPool)];

    // Instances in opposite orders, so the two workers' batches would deadlock without the counter rows' lock order.
    await Promise.all(
      workers.map((worker, w) =>
        Promise.all(
          Array.from({ length: 40 }, (_, round) => {
            const ordered = w === 0 ? instances : [...instances].reverse();
            return Promise.all(ordered.map((instanceId) => worker.append(request(instanceId, `w${w}`, 2 + (round % 3)))));
          }),
        ),
      ),
    );

    for (const instanceId of instances) {
      const rows = await eventRows(db, instanceId);
      const perWorker = Array.from({ length: 40 }, (_, round) => 2 + (round % 3)).reduce((sum, count) => sum + count, 0);
      expect(rows.map((row) => row.seq)).toEqual(Array.from({ length: 2 * perWorker }, (_, i) => String(i + 1)));
      for (const tag of ['w0', 'w1']) {
        const own = rows.filter((row) => row.data.tag === tag).map((row) => row.data.i as number);
        // Each request's events are contiguous and in event order within the worker's stream.
        expect(own.length).toBe(perWorker);
        expect(own.filter((i, index) => i !== 0 && own[index - 1] !== i - 1)).toEqual([]);
      }
    }
  });
});
