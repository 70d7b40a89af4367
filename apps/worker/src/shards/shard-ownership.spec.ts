import { randomBytes } from 'node:crypto';
import { Redis } from 'ioredis';
import { ShardOwnership, ownerOfShard, targetShareOf, type ShardListener, type ShardLossReason } from './shard-ownership';

// Runs against a real Redis: these are the properties that matter (atomic scripts, expiry, timing), and mocks would assume them.
const REDIS_URL = process.env.REDIS_URL ?? 'redis://127.0.0.1:6379';
const SHARD_COUNT = 16;
const LEASE_MS = 1_500;
const REBALANCE_EVERY_MS = 200;
const ALL_SHARDS = range(0, SHARD_COUNT);

function range(from: number, to: number): number[] {
  return Array.from({ length: to - from }, (_, index) => from + index);
}

const sleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));
const now = () => performance.now();

async function waitFor(description: string, condition: () => boolean, timeoutMs = 5_000): Promise<void> {
  const giveUpAt = now() + timeoutMs;
  while (!condition()) {
    if (now() > giveUpAt) throw new Error(`timed out waiting until ${description}`);
    await sleep(20);
  }
}

interface ListenerCall {
  worker: string;
  shard: number;
  kind: 'acquired' | 'lost';
  token?: number;
  reason?: ShardLossReason;
  calledAt: number;
  returnedAt?: number;
  /** lost() only: the worker's holds() at the moment of the call. */
  heldAtCall?: boolean;
  /** lost() only: the lease value in Redis read as soon as lost() was called, and again just before it returned. */
  leaseAtCall?: string | null;
  leaseAtReturn?: string | null;
}

interface ListenerBehaviour {
  acquiredDelayMs?: number;
  lostDelayMs?: Partial<Record<ShardLossReason, number>>;
  /** Read the lease from Redis inside lost(); costs a round trip per call. */
  inspectLeaseInLost?: boolean;
  acquiredFails?: (shard: number) => boolean;
  lostFails?: (shard: number) => boolean;
}

/** Records every call, and whether calls for one shard ever overlapped. */
class RecordingListener implements ShardListener {
  ownership: ShardOwnership | undefined;
  private readonly inFlight = new Set<number>();

  constructor(
    private readonly cluster: TestCluster,
    private readonly worker: string,
    private readonly behaviour: ListenerBehaviour,
  ) {}

  async acquired(shard: number, fencingToken: number): Promise<void> {
    const call = this.begin({ worker: this.worker, shard, kind: 'acquired', token: fencingToken, calledAt: now() });
    try {
      if (this.behaviour.acquiredDelayMs) await sleep(this.behaviour.acquiredDelayMs);
      if (this.behaviour.acquiredFails?.(shard)) throw new Error(`acquired(${shard}) exploded`);
    } finally {
      this.end(call);
    }
  }

  async lost(shard: number, reason: ShardLossReason): Promise<void> {
    const call = this.begin({
      worker: this.worker,
      shard,
      kind: 'lost',
      reason,
      calledAt: now(),
      heldAtCall: this.ownership?.holds(shard),
    });
    try {
      if (this.behaviour.inspectLeaseInLost) call.leaseAtCall = await this.cluster.leaseValue(shard);
      const delayMs = this.behaviour.lostDelayMs?.[reason];
      if (delayMs) await sleep(delayMs);
      if (this.behaviour.inspectLeaseInLost) call.leaseAtReturn = await this.cluster.leaseValue(shard);
      if (this.behaviour.lostFails?.(shard)) throw new Error(`lost(${shard}) exploded`);
    } finally {
      this.end(call);
    }
  }

  private begin(call: ListenerCall): ListenerCall {
    if (this.inFlight.has(call.shard)) this.cluster.violations.push(`${this.worker}: ${call.kind}(${call.shard}) overlapped another call`);
    this.inFlight.add(call.shard);
    this.cluster.calls.push(call);
    return call;
  }

  private end(call: ListenerCall): void {
    call.returnedAt = now();
    this.inFlight.delete(call.shard);
  }
}

interface TestWorker {
  id: string;
  ownership: ShardOwnership;
  redis: Redis;
  warnings: string[];
}

interface LeaseSample {
  sentAt: number;
  receivedAt: number;
  values: (string | null)[];
}

/** Workers sharing one random key prefix, plus the bookkeeping to check that ownership never overlaps. */
class TestCluster {
  readonly prefix = `${process.env.QUEUE_PREFIX ?? 'mgwtest'}-shards-${randomBytes(6).toString('hex')}`;
  readonly inspector = new Redis(REDIS_URL, { maxRetriesPerRequest: 1 });
  readonly workers: TestWorker[] = [];
  readonly calls: ListenerCall[] = [];
  readonly violations: string[] = [];
  readonly leaseSamples: LeaseSample[] = [];
  private sampler: NodeJS.Timeout | undefined;
  private lastSample: Promise<void> = Promise.resolve();

  async startWorker(
    id: string,
    behaviour: ListenerBehaviour = {},
    connect: (redis: Redis) => Redis = (redis) => redis,
  ): Promise<TestWorker> {
    const worker = this.createWorker(id, behaviour, connect);
    await worker.ownership.start();
    return worker;
  }

  createWorker(id: string, behaviour: ListenerBehaviour = {}, connect: (redis: Redis) => Redis = (redis) => redis): TestWorker {
    const redis = new Redis(REDIS_URL, { maxRetriesPerRequest: 1 });
    redis.on('error', () => undefined);
    const warnings: string[] = [];
    const listener = new RecordingListener(this, id, behaviour);
    const ownership = new ShardOwnership(
      {
        redis: connect(redis),
        keyPrefix: this.prefix,
        workerId: id,
        shardCount: SHARD_COUNT,
        leaseMs: LEASE_MS,
        rebalanceEveryMs: REBALANCE_EVERY_MS,
        logger: { log: () => undefined, warn: (message) => warnings.push(message) },
      },
      listener,
    );
    listener.ownership = ownership;
    const worker = { id, ownership, redis, warnings };
    this.workers.push(worker);
    return worker;
  }

  leaseKey(shard: number): string {
    return `${this.prefix}:shards:lease:${shard}`;
  }

  leaseValue(shard: number): Promise<string | null> {
    return this.inspector.get(this.leaseKey(shard));
  }

  callsOf(worker: TestWorker, kind: 'acquired' | 'lost'): ListenerCall[] {
    return this.calls.filter((call) => call.worker === worker.id && call.kind === kind);
  }

  lastCall(worker: TestWorker, kind: 'acquired' | 'lost', shard: number): ListenerCall {
    const call = this.callsOf(worker, kind).findLast((candidate) => candidate.shard === shard);
    if (!call) throw new Error(`${worker.id} had no ${kind}(${shard})`);
    return call;
  }

  ownedCounts(): number[] {
    return this.workers.map((worker) => worker.ownership.owned().length);
  }

  /** Every 50 ms: holds() of all workers (exact, one JS turn) and the lease keys in Redis (checked afterwards). */
  startSampling(): void {
    this.sampler = setInterval(() => {
      this.checkHoldsAreExclusive();
      this.lastSample = this.sampleLeases();
    }, 50);
  }

  async stopSampling(): Promise<void> {
    clearInterval(this.sampler);
    await this.lastSample;
  }

  /**
   * Listener view: per shard, from acquired() being called until lost() returned, no two workers' intervals may overlap.
   * Redis view: a worker whose listener interval spans a whole lease sample must be the owner Redis reported in it, and a
   * shard's token never goes down. Valid while no lease expires (the expiry test checks its own ordering).
   */
  ownershipConflicts(): string[] {
    const conflicts = [...this.violations];
    const intervals = this.listenerIntervals();
    for (const shard of ALL_SHARDS) {
      const ofShard = intervals.filter((interval) => interval.shard === shard);
      for (const a of ofShard)
        for (const b of ofShard)
          if (a.worker < b.worker && a.from < b.to && b.from < a.to) conflicts.push(`shard ${shard}: ${a.worker} and ${b.worker} overlap`);
    }
    let previousTokens: number[] = [];
    for (const sample of this.leaseSamples) {
      // A free shard (no lease) counts as token 0 and is not a decrease.
      const tokens = sample.values.map((value) => (value === null ? 0 : Number(value.slice(value.lastIndexOf(':') + 1))));
      for (const shard of ALL_SHARDS) {
        if (tokens[shard] !== 0 && tokens[shard] < (previousTokens[shard] ?? 0)) conflicts.push(`shard ${shard}: token went down in Redis`);
        for (const interval of intervals.filter((candidate) => candidate.shard === shard)) {
          const spansSample = interval.from <= sample.sentAt && interval.to >= sample.receivedAt;
          if (spansSample && sample.values[shard] !== `${interval.worker}:${interval.token}`)
            conflicts.push(`shard ${shard}: ${interval.worker} believed it owned it while Redis said ${sample.values[shard]}`);
        }
      }
      previousTokens = tokens.map((token, shard) => Math.max(token, previousTokens[shard] ?? 0));
    }
    return conflicts;
  }

  async cleanup(): Promise<void> {
    await this.stopSampling();
    await Promise.all(this.workers.map((worker) => worker.ownership.stop()));
    for (const worker of this.workers) worker.redis.disconnect();
    const keys: string[] = [];
    let cursor = '0';
    do {
      const [next, batch] = await this.inspector.scan(cursor, 'MATCH', `${this.prefix}:*`, 'COUNT', 1000);
      cursor = next;
      keys.push(...batch);
    } while (cursor !== '0');
    if (keys.length > 0) await this.inspector.del(...keys);
    await this.inspector.quit();
  }

  private listenerIntervals(): { worker: string; shard: number; token: number; from: number; to: number }[] {
    return this.calls
      .filter((call) => call.kind === 'acquired')
      .map((acquired) => {
        const lost = this.calls.find(
          (call) =>
            call.kind === 'lost' && call.worker === acquired.worker && call.shard === acquired.shard && call.calledAt > acquired.calledAt,
        );
        return {
          worker: acquired.worker,
          shard: acquired.shard,
          token: acquired.token ?? 0,
          from: acquired.calledAt,
          to: lost ? (lost.returnedAt ?? Infinity) : Infinity,
        };
      });
  }

  private checkHoldsAreExclusive(): void {
    for (const shard of ALL_SHARDS) {
      const holders = this.workers.filter((worker) => worker.ownership.holds(shard)).map((worker) => worker.id);
      if (holders.length > 1) this.violations.push(`shard ${shard}: held by ${holders.join(' and ')} at once`);
    }
  }

  private async sampleLeases(): Promise<void> {
    const sentAt = now();
    try {
      const values = await this.inspector.mget(ALL_SHARDS.map((shard) => this.leaseKey(shard)));
      this.leaseSamples.push({ sentAt, receivedAt: now(), values });
    } catch (error) {
      this.violations.push(`sampling failed: ${String(error)}`);
    }
  }
}

/** A connection on which every lease looks free, as if each was taken between reading the leases and acquiring one. */
function withStaleLeaseView(redis: Redis): Redis {
  return new Proxy(redis, {
    get(target, property) {
      if (property === 'mget') return (keys: string[]) => Promise.resolve(keys.map(() => null));
      const value: unknown = Reflect.get(target, property, target);
      return typeof value === 'function' ? (value as (...args: unknown[]) => unknown).bind(target) : value;
    },
  });
}

describe('ShardOwnership', () => {
  let cluster: TestCluster;
  const unhandledRejections: unknown[] = [];
  const recordUnhandled = (reason: unknown) => unhandledRejections.push(reason);

  beforeAll(() => process.on('unhandledRejection', recordUnhandled));
  afterAll(() => process.off('unhandledRejection', recordUnhandled));

  beforeEach(() => {
    cluster = new TestCluster();
  });

  afterEach(async () => {
    await cluster.cleanup();
    expect(unhandledRejections).toEqual([]);
  });

  it('acquires all 16 shards alone, each with a fencing token above any issued for it before', async () => {
    await cluster.inspector.set(`${cluster.prefix}:shards:token:5`, '41');

    const alone = await cluster.startWorker('worker-a');
    await waitFor('16 acquired() calls', () => cluster.callsOf(alone, 'acquired').length === SHARD_COUNT);

    const acquired = cluster.callsOf(alone, 'acquired').sort((a, b) => a.shard - b.shard);
    const expectedTokens = ALL_SHARDS.map((shard) => (shard === 5 ? 42 : 1));
    expect(acquired.map((call) => call.shard)).toEqual(ALL_SHARDS);
    expect(acquired.map((call) => call.token)).toEqual(expectedTokens);
    expect(alone.ownership.owned()).toEqual(ALL_SHARDS);
    expect(ALL_SHARDS.map((shard) => alone.ownership.fencingToken(shard))).toEqual(expectedTokens);
    expect(ALL_SHARDS.every((shard) => alone.ownership.holds(shard))).toBe(true);
    expect(await cluster.inspector.mget(ALL_SHARDS.map((shard) => cluster.leaseKey(shard)))).toEqual(
      expectedTokens.map((token) => `worker-a:${token}`),
    );
    const ttl = await cluster.inspector.pttl(cluster.leaseKey(0));
    expect(ttl).toBeGreaterThan(0);
    expect(ttl).toBeLessThanOrEqual(LEASE_MS);
    expect(await cluster.inspector.zrange(`${cluster.prefix}:shards:members`, 0, -1)).toEqual(['worker-a']);
    expect(await cluster.inspector.exists(`${cluster.prefix}:workers:worker-a`)).toBe(1);
  });

  it('never overwrites a lease held by someone else, even when it believes the shard is free, and takes it once it is', async () => {
    await cluster.inspector.set(cluster.leaseKey(3), 'intruder:7', 'PX', 60_000);

    const worker = await cluster.startWorker('worker-a', {}, withStaleLeaseView);
    await waitFor('15 shards owned', () => worker.ownership.owned().length === 15);
    await sleep(3 * REBALANCE_EVERY_MS);

    expect(worker.ownership.owned()).toEqual(ALL_SHARDS.filter((shard) => shard !== 3));
    expect(worker.ownership.holds(3)).toBe(false);
    expect(cluster.calls.filter((call) => call.shard === 3)).toEqual([]);
    expect(await cluster.leaseValue(3)).toBe('intruder:7');
    expect(await cluster.inspector.get(`${cluster.prefix}:shards:token:3`)).toBeNull();

    await cluster.inspector.del(cluster.leaseKey(3));
    await waitFor('shard 3 owned', () => worker.ownership.holds(3));
    expect(await cluster.leaseValue(3)).toBe('worker-a:1');
  });

  it('splits 8/8 when a second worker joins and 6/5/5 with a third, never letting two workers own a shard at once', async () => {
    cluster.startSampling();
    const slowHandover = { lostDelayMs: { rebalance: 100 } };
    const a = await cluster.startWorker('worker-a', slowHandover);
    await waitFor('worker-a owns all', () => a.ownership.owned().length === SHARD_COUNT);

    const b = await cluster.startWorker('worker-b', slowHandover);
    await waitFor('an 8/8 split', () => cluster.ownedCounts().join() === '8,8', 4_000);
    expect(a.ownership.owned()).toEqual(range(0, 8));
    expect(b.ownership.owned()).toEqual(range(8, 16));

    const c = await cluster.startWorker('worker-c', slowHandover);
    await waitFor('a 6/5/5 split', () => cluster.ownedCounts().join() === '6,5,5', 4_000);
    const callsAtBalance = cluster.calls.length;
    await sleep(4 * REBALANCE_EVERY_MS);
    await cluster.stopSampling();

    // worker-a sorts first and so takes the extra shard; each worker gave up its highest-numbered surplus.
    expect(a.ownership.owned()).toEqual(range(0, 6));
    expect(b.ownership.owned()).toEqual(range(8, 13));
    expect(c.ownership.owned()).toEqual([6, 7, 13, 14, 15]);
    expect(cluster.calls.length).toBe(callsAtBalance);
    expect(cluster.callsOf(a, 'lost').map((call) => call.reason)).toEqual(Array<ShardLossReason>(10).fill('rebalance'));
    expect(cluster.leaseSamples.length).toBeGreaterThan(20);
    expect(cluster.ownershipConflicts()).toEqual([]);
  });

  it('hands every shard to the survivor on a graceful stop, releasing each lease only after lost() returned', async () => {
    cluster.startSampling();
    const leaving = await cluster.startWorker('worker-a', { lostDelayMs: { stopping: 200 }, inspectLeaseInLost: true });
    const survivor = await cluster.startWorker('worker-b');
    await waitFor('an 8/8 split', () => cluster.ownedCounts().join() === '8,8', 4_000);
    const handedOver = leaving.ownership.owned();
    expect(handedOver).toEqual(range(0, 8));

    const stopStartedAt = now();
    await Promise.all([leaving.ownership.stop(), leaving.ownership.stop()]);
    expect(now() - stopStartedAt).toBeGreaterThanOrEqual(200);
    await leaving.ownership.stop();

    const stoppingLosses = cluster.callsOf(leaving, 'lost').filter((call) => call.reason === 'stopping');
    expect(stoppingLosses.map((call) => call.shard).sort((x, y) => x - y)).toEqual(handedOver);
    // worker-a took all 16 with token 1 before worker-b joined; its lease was still there when lost() finished.
    expect(stoppingLosses.map((call) => call.leaseAtReturn)).toEqual(handedOver.map(() => 'worker-a:1'));
    expect(leaving.ownership.owned()).toEqual([]);
    expect(await cluster.inspector.exists(`${cluster.prefix}:workers:worker-a`)).toBe(0);
    expect(await cluster.inspector.zrange(`${cluster.prefix}:shards:members`, 0, -1)).toEqual(['worker-b']);

    await waitFor('worker-b owns all', () => survivor.ownership.owned().length === SHARD_COUNT, 4_000);
    await cluster.stopSampling();
    for (const shard of handedOver) {
      expect(cluster.lastCall(survivor, 'acquired', shard).calledAt).toBeGreaterThan(
        cluster.lastCall(leaving, 'lost', shard).returnedAt ?? Infinity,
      );
      expect(survivor.ownership.fencingToken(shard)).toBe(2);
    }
    expect(cluster.ownershipConflicts()).toEqual([]);
  });

  it('keeps renewing a lease while a lost() slower than the lease runs, so the successor waits for it', async () => {
    const leaving = await cluster.startWorker('worker-a', { lostDelayMs: { stopping: LEASE_MS + 500 }, inspectLeaseInLost: true });
    const successor = await cluster.startWorker('worker-b');
    await waitFor('an 8/8 split', () => cluster.ownedCounts().join() === '8,8', 4_000);

    const stopping = leaving.ownership.stop();
    await sleep(LEASE_MS + 200);
    expect(leaving.ownership.owned()).toEqual(range(0, 8));
    expect(successor.ownership.owned()).toEqual(range(8, 16));
    // Already out of the membership, so worker-b takes each shard as soon as its lease is released.
    expect(await cluster.inspector.zrange(`${cluster.prefix}:shards:members`, 0, -1)).toEqual(['worker-b']);
    await stopping;

    const stoppingLosses = cluster.callsOf(leaving, 'lost').filter((call) => call.reason === 'stopping');
    expect(stoppingLosses.map((call) => call.leaseAtReturn)).toEqual(range(0, 8).map(() => 'worker-a:1'));
    await waitFor('worker-b owns all', () => successor.ownership.owned().length === SHARD_COUNT, 4_000);
    expect(cluster.ownershipConflicts()).toEqual([]);
  });

  it('fences a worker that lost Redis: it drops its shards locally before the leases expire, then the other worker takes them', async () => {
    cluster.startSampling();
    const cutOff = await cluster.startWorker('worker-a', { inspectLeaseInLost: true });
    const survivor = await cluster.startWorker('worker-b');
    await waitFor('an 8/8 split', () => cluster.ownedCounts().join() === '8,8', 4_000);
    const stranded = cutOff.ownership.owned();

    const cutAt = now();
    cutOff.redis.disconnect();
    await waitFor('worker-b owns all', () => survivor.ownership.owned().length === SHARD_COUNT, 5_000);
    await cluster.stopSampling();

    const expiredLosses = cluster.callsOf(cutOff, 'lost').filter((call) => call.reason === 'expired');
    expect(expiredLosses.map((call) => call.shard).sort((x, y) => x - y)).toEqual(stranded);
    expect(cluster.callsOf(cutOff, 'lost')).toHaveLength(SHARD_COUNT); // the other 8 went to worker-b on rebalance
    expect(expiredLosses.map((call) => call.heldAtCall)).toEqual(stranded.map(() => false));
    // Still worker-a's lease in Redis when worker-a gave up, so nobody else could have held it yet.
    expect(expiredLosses.map((call) => call.leaseAtCall)).toEqual(stranded.map(() => 'worker-a:1'));
    for (const call of expiredLosses) {
      expect(call.calledAt - cutAt).toBeLessThan(LEASE_MS);
      expect(cluster.lastCall(survivor, 'acquired', call.shard).calledAt).toBeGreaterThan(call.calledAt);
      expect(survivor.ownership.fencingToken(call.shard)).toBe(2);
    }
    expect(cutOff.ownership.owned()).toEqual([]);
    expect(cluster.violations).toEqual([]);

    const stopStartedAt = now();
    await cutOff.ownership.stop();
    expect(now() - stopStartedAt).toBeLessThan(1_000);
    expect(cluster.callsOf(cutOff, 'lost')).toHaveLength(SHARD_COUNT);
  });

  it('drops a shard at once, without a handover, when a renewal finds its lease gone', async () => {
    const worker = await cluster.startWorker('worker-a');
    await waitFor('worker-a owns all', () => worker.ownership.owned().length === SHARD_COUNT);

    await cluster.inspector.set(cluster.leaseKey(9), 'usurper:99', 'PX', 60_000);
    await waitFor('lost(9)', () => cluster.callsOf(worker, 'lost').length === 1, LEASE_MS);

    expect(cluster.callsOf(worker, 'lost')).toMatchObject([{ shard: 9, reason: 'expired', heldAtCall: false }]);
    expect(worker.ownership.holds(9)).toBe(false);
    expect(worker.ownership.owned()).toEqual(ALL_SHARDS.filter((shard) => shard !== 9));
    expect(await cluster.leaseValue(9)).toBe('usurper:99');
  });

  it('only ever increases fencing tokens as shards move between owners', async () => {
    const a = await cluster.startWorker('worker-a');
    await waitFor('worker-a owns all', () => a.ownership.owned().length === SHARD_COUNT);
    const b = await cluster.startWorker('worker-b');
    await waitFor('an 8/8 split', () => cluster.ownedCounts().join() === '8,8', 4_000);
    await b.ownership.stop();
    await waitFor('worker-a owns all again', () => a.ownership.owned().length === SHARD_COUNT, 4_000);

    const tokensByShard = ALL_SHARDS.map((shard) =>
      cluster.calls
        .filter((call) => call.kind === 'acquired' && call.shard === shard)
        .sort((x, y) => x.calledAt - y.calledAt)
        .map((call) => call.token),
    );
    expect(tokensByShard).toEqual(ALL_SHARDS.map((shard) => (shard < 8 ? [1] : [1, 2, 3])));
    expect(ALL_SHARDS.map((shard) => a.ownership.fencingToken(shard))).toEqual(ALL_SHARDS.map((shard) => (shard < 8 ? 1 : 3)));
    expect(await cluster.inspector.get(`${cluster.prefix}:shards:token:15`)).toBe('3');
  });

  it('reports the owner of a shard through ownerOfShard, or null when nobody holds it', async () => {
    const worker = cluster.createWorker('host-1:4242');
    expect(await ownerOfShard(cluster.inspector, cluster.prefix, 0)).toBeNull();

    await worker.ownership.start();
    await waitFor('all shards owned', () => worker.ownership.owned().length === SHARD_COUNT);
    const owners = await Promise.all(ALL_SHARDS.map((shard) => ownerOfShard(cluster.inspector, cluster.prefix, shard)));
    expect(owners).toEqual(ALL_SHARDS.map(() => 'host-1:4242'));

    await worker.ownership.stop();
    expect(await ownerOfShard(cluster.inspector, cluster.prefix, 0)).toBeNull();
  });

  it('keeps its shards and logs when the listener throws, and still releases them on stop', async () => {
    const worker = await cluster.startWorker('worker-a', {
      acquiredFails: (shard) => shard === 2,
      lostFails: (shard) => shard === 4,
    });
    await waitFor('16 acquired() calls', () => cluster.callsOf(worker, 'acquired').length === SHARD_COUNT);
    await sleep(REBALANCE_EVERY_MS);
    expect(worker.ownership.owned()).toEqual(ALL_SHARDS);

    await worker.ownership.stop();
    expect(worker.warnings.filter((warning) => warning.includes('listener failed'))).toEqual([
      'shard ownership: listener failed for shard 2: acquired(2) exploded',
      'shard ownership: listener failed for shard 4: lost(4) exploded',
    ]);
    expect(await cluster.inspector.mget(ALL_SHARDS.map((shard) => cluster.leaseKey(shard)))).toEqual(ALL_SHARDS.map(() => null));
  });

  it('calls lost() only after a slow acquired() for the same shard has returned', async () => {
    const worker = await cluster.startWorker('worker-a', { acquiredDelayMs: 300 });
    await worker.ownership.stop();

    for (const shard of ALL_SHARDS) {
      const acquired = cluster.lastCall(worker, 'acquired', shard);
      const lost = cluster.lastCall(worker, 'lost', shard);
      expect(lost.reason).toBe('stopping');
      expect(lost.calledAt).toBeGreaterThanOrEqual(acquired.returnedAt ?? Infinity);
    }
    expect(cluster.violations).toEqual([]);
  });
});

describe('targetShareOf', () => {
  it('gives the first shardCount % n workers, by sorted id, one shard more', () => {
    const workers = ['c', 'a', 'b'];
    expect(workers.map((id) => targetShareOf(id, workers, 16))).toEqual([5, 6, 5]);
    expect(['a', 'b', 'c', 'd', 'e'].map((id) => targetShareOf(id, ['e', 'd', 'c', 'b', 'a'], 3))).toEqual([1, 1, 1, 0, 0]);
  });

  it('counts the asking worker as live even when it is missing from the list', () => {
    expect(targetShareOf('b', ['a'], 16)).toBe(8);
    expect(targetShareOf('a', [], 16)).toBe(16);
  });
});
