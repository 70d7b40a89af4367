import type { AppConfig } from '@app/config';
import { JOB_NAMES, type SendJob } from '@app/contracts';
import type { ShardOwnerMap } from '@app/database';
import type { RedisService } from './redis.service';
import { SendDoorbells } from './send-doorbells';

const added: { queue: string; jobs: { name: string; data: SendJob & { v?: number }; jobId?: string }[] }[] = [];
/**
 * The fake Redis: while `hold` is set, each batch waits in `waiting` until the test releases it; `onQueueing` hears each
 * batch arrive. A gate rather than a delay, so a loaded machine cannot reorder what the test rings against a timer.
 */
const fakeRedis = { hold: false, waiting: [] as (() => void)[], onQueueing: undefined as (() => void) | undefined };
const queued = () => {
  fakeRedis.onQueueing?.();
  return fakeRedis.hold ? new Promise<void>((resolve) => fakeRedis.waiting.push(resolve)) : Promise.resolve();
};
const nextTurn = () => new Promise((resolve) => setImmediate(resolve));

jest.mock('bullmq', () => ({
  Queue: class {
    constructor(readonly name: string) {}
    on(): void {}
    async add(name: string, data: SendJob & { v?: number }, opts: { jobId?: string }) {
      await queued();
      added.push({ queue: this.name, jobs: [{ name, data, jobId: opts.jobId }] });
    }
    async addBulk(jobs: { name: string; data: SendJob & { v?: number }; opts: { jobId?: string } }[]) {
      await queued();
      added.push({ queue: this.name, jobs: jobs.map(({ name, data, opts }) => ({ name, data, jobId: opts.jobId })) });
    }
    async close(): Promise<void> {}
  },
}));

describe('SendDoorbells', () => {
  // Instances a, b on worker w1; c on worker w2 (the shard owner of an instance is looked up by its shard).
  const ownerOfInstance: Record<string, string> = { a: 'w1', b: 'w1', c: 'w2' };
  let doorbells: SendDoorbells;

  beforeEach(() => {
    added.length = 0;
    Object.assign(fakeRedis, { hold: false, waiting: [], onQueueing: undefined });
    const config = { shardCount: 1, queuePrefix: 'test' } as AppConfig;
    const redis = { connect: () => ({}) } as unknown as RedisService;
    let current = '';
    const owners = { ownerOf: () => Promise.resolve(ownerOfInstance[current]) } as unknown as ShardOwnerMap;
    doorbells = new SendDoorbells(config, redis, owners);
    // The owner lookup gets a shard, not an instance: ring() is wrapped so the fake map knows whose shard it is.
    const ring = doorbells.ring.bind(doorbells);
    doorbells.ring = (job, options) => {
      current = job.instanceId;
      return ring(job, options);
    };
  });

  afterEach(() => doorbells.onModuleDestroy());

  it('queues one job per instance for the doorbells of one turn, and resolves each ring only once it is queued', async () => {
    const jobs: SendJob[] = [
      { instanceId: 'a', messageId: 'm1' },
      { instanceId: 'b', messageId: 'm2' },
      { instanceId: 'a', messageId: 'm3' },
      { instanceId: 'c', messageId: 'm4' },
      { instanceId: 'a', messageId: 'm5' },
    ];
    const resolvedBeforeQueued: boolean[] = [];
    await Promise.all(
      jobs.map(async (job) => {
        expect(await doorbells.ring(job)).toBe(true);
        resolvedBeforeQueued.push(!added.some(({ jobs: queued }) => queued.some(({ data }) => data.instanceId === job.instanceId)));
      }),
    );
    expect(resolvedBeforeQueued).toEqual(jobs.map(() => false));
    expect(added).toEqual([
      {
        queue: '{send-w-w1}',
        jobs: [
          { name: JOB_NAMES.send, data: { v: 2, instanceId: 'a', messageId: 'm5' }, jobId: 'm5' },
          { name: JOB_NAMES.send, data: { v: 2, instanceId: 'b', messageId: 'm2' }, jobId: 'm2' },
        ],
      },
      { queue: '{send-w-w2}', jobs: [{ name: JOB_NAMES.send, data: { v: 2, instanceId: 'c', messageId: 'm4' }, jobId: 'm4' }] },
    ]);
  });

  it('rings again for a doorbell of a later turn, after the first batch was queued', async () => {
    await doorbells.ring({ instanceId: 'a', messageId: 'm1' });
    await doorbells.ring({ instanceId: 'a', messageId: 'm2' });
    expect(added.map(({ jobs }) => jobs.map(({ jobId }) => jobId))).toEqual([['m1'], ['m2']]);
  });

  it('queues the doorbells rung while a batch is on its way as one more batch, once that one is queued', async () => {
    fakeRedis.hold = true;
    const arrived = new Promise<void>((resolve) => (fakeRedis.onQueueing = resolve));
    const first = doorbells.ring({ instanceId: 'a', messageId: 'm1' });
    await arrived;
    const second = doorbells.ring({ instanceId: 'a', messageId: 'm2' });
    await nextTurn();
    const third = doorbells.ring({ instanceId: 'b', messageId: 'm3' });
    await nextTurn();
    const fourth = doorbells.ring({ instanceId: 'a', messageId: 'm4' });
    await nextTurn();
    expect(fakeRedis.waiting).toHaveLength(1);
    fakeRedis.waiting.shift()!();
    await first;
    expect(added.map(({ jobs }) => jobs.map(({ jobId }) => jobId))).toEqual([['m1']]);
    while (fakeRedis.waiting.length === 0) await nextTurn();
    fakeRedis.hold = false;
    for (const release of fakeRedis.waiting.splice(0)) release();
    await Promise.all([second, third, fourth]);
    expect(added.map(({ jobs }) => jobs.map(({ jobId }) => jobId))).toEqual([['m1'], ['m4', 'm3']]);
  });

  it('keeps a re-routed doorbell apart from one that may still be passed on', async () => {
    await Promise.all([
      doorbells.ring({ instanceId: 'a', messageId: 'm1' }),
      doorbells.ring({ instanceId: 'a', messageId: 'm2', rerouted: true }),
    ]);
    expect(added.flatMap(({ jobs }) => jobs.map(({ data }) => data))).toEqual([
      { v: 2, instanceId: 'a', messageId: 'm1' },
      { v: 2, instanceId: 'a', messageId: 'm2', rerouted: true },
    ]);
  });
});
