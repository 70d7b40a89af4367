import { ShardLeaseRepository } from '@app/database';
import {
  ShardOwnership,
  type ShardLeaseStore,
  type ShardListener,
  type ShardLossReason,
} from '../../apps/worker/src/shards/shard-ownership';
import { testConfig } from '../support/environment';
import { RepositoryDatabase, uniqueId } from './repository-database';

// Runs against the real PostgreSQL: these are the properties that matter (atomic statements, row locks, the database's
// clock, the token sequence), and mocks would assume them. Each test's workers form a deployment of their own (a lease
// scope, as QUEUE_PREFIX gives one); the token sequence is shared, so tokens are compared with its value before the test.
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
  /** lost() only: the lease (`worker:token`) in PostgreSQL read as soon as lost() was called, and again just before it returned. */
  leaseAtCall?: string | null;
  leaseAtReturn?: string | null;
}

interface ListenerBehaviour {
  acquiredDelayMs?: number;
  lostDelayMs?: Partial<Record<ShardLossReason, number>>;
  /** Read the lease from PostgreSQL inside lost(); costs a round trip per call. */
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
  /** Cuts this worker off from PostgreSQL: every later store call fails, as over a broken network. */
  cut(): void;
  warnings: string[];
}

interface LeaseSample {
  sentAt: number;
  receivedAt: number;
  values: (string | null)[];
}

/** A store whose calls fail once `cut` is set (a partition between this worker and PostgreSQL). */
function cuttable(store: ShardLeaseStore): { store: ShardLeaseStore; cut(): void } {
  let cut = false;
  const guard = <T>(call: () => Promise<T>): Promise<T> => (cut ? Promise.reject(new Error('connection lost')) : call());
  return {
    store: {
      renew: (...args) => guard(() => store.renew(...args)),
      liveWorkers: () => guard(() => store.liveWorkers()),
      acquire: (...args) => guard(() => store.acquire(...args)),
      release: (...args) => guard(() => store.release(...args)),
      deregister: (...args) => guard(() => store.deregister(...args)),
    },
    cut: () => (cut = true),
  };
}

/** Workers sharing the run's lease tables, plus the bookkeeping to check that ownership never overlaps. */
class TestCluster {
  readonly db: RepositoryDatabase;
  readonly scope = uniqueId('own');
  readonly repository = new ShardLeaseRepository(testConfig({ queuePrefix: this.scope }));
  readonly workers: TestWorker[] = [];
  readonly calls: ListenerCall[] = [];
  readonly violations: string[] = [];
  readonly leaseSamples: LeaseSample[] = [];
  private sampler: NodeJS.Timeout | undefined;
  private lastSample: Promise<void> = Promise.resolve();

  constructor(db: RepositoryDatabase) {
    this.db = db;
  }

  async startWorker(id: string, behaviour: ListenerBehaviour = {}): Promise<TestWorker> {
    const worker = this.createWorker(id, behaviour);
    await worker.ownership.start();
    return worker;
  }

  createWorker(id: string, behaviour: ListenerBehaviour = {}): TestWorker {
    const warnings: string[] = [];
    const listener = new RecordingListener(this, id, behaviour);
    const { store, cut } = cuttable(this.repository);
    const ownership = new ShardOwnership(
      {
        store,
        workerId: id,
        shardCount: SHARD_COUNT,
        leaseMs: LEASE_MS,
        rebalanceEveryMs: REBALANCE_EVERY_MS,
        logger: { log: () => undefined, warn: (message) => warnings.push(message) },
      },
      listener,
    );
    listener.ownership = ownership;
    const worker = { id, ownership, cut, warnings };
    this.workers.push(worker);
    return worker;
  }

  /** Every shard's lease as `worker:token`, null when free or expired (on PostgreSQL's clock). */
  async leaseValues(): Promise<(string | null)[]> {
    const rows = await this.db.rows<{ shard: number; value: string | null }>(
      `SELECT s AS shard, CASE WHEN l.worker_id IS NOT NULL AND l.expires_at > clock_timestamp() THEN l.worker_id || ':' || l.token END AS value
       FROM generate_series(0, $1 - 1) AS s LEFT JOIN shard_leases l ON l.scope = $2 AND l.shard = s ORDER BY s`,
      [SHARD_COUNT, this.scope],
    );
    return rows.map((row) => row.value);
  }

  async leaseValue(shard: number): Promise<string | null> {
    return (await this.leaseValues())[shard];
  }

  async members(): Promise<string[]> {
    const rows = await this.db.rows<{ id: string }>(
      'SELECT id FROM shard_workers WHERE scope = $1 AND expires_at > clock_timestamp() ORDER BY id',
      [this.scope],
    );
    return rows.map((row) => row.id);
  }

  /** The token sequence's last value (0 before any was issued). */
  async lastToken(): Promise<number> {
    const [row] = await this.db.rows<{ value: string }>(
      'SELECT CASE WHEN is_called THEN last_value ELSE 0 END::text AS value FROM shard_lease_token_seq',
    );
    return Number(row.value);
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

  /** Every 50 ms: holds() of all workers (exact, one JS turn) and the leases in PostgreSQL (checked afterwards). */
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
   * PostgreSQL view: a worker whose listener interval spans a whole lease sample must be the owner PostgreSQL reported in it, and a
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
        if (tokens[shard] !== 0 && tokens[shard] < (previousTokens[shard] ?? 0)) conflicts.push(`shard ${shard}: token went down`);
        for (const interval of intervals.filter((candidate) => candidate.shard === shard)) {
          const spansSample = interval.from <= sample.sentAt && interval.to >= sample.receivedAt;
          if (spansSample && sample.values[shard] !== `${interval.worker}:${interval.token}`)
            conflicts.push(`shard ${shard}: ${interval.worker} believed it owned it while PostgreSQL said ${sample.values[shard]}`);
        }
      }
      previousTokens = tokens.map((token, shard) => Math.max(token, previousTokens[shard] ?? 0));
    }
    return conflicts;
  }

  async cleanup(): Promise<void> {
    await this.stopSampling();
    await Promise.all(this.workers.map((worker) => worker.ownership.stop()));
    await this.repository.onModuleDestroy();
    await this.db.rows('DELETE FROM shard_leases WHERE scope = $1', [this.scope]);
    await this.db.rows('DELETE FROM shard_workers WHERE scope = $1', [this.scope]);
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
      const values = await this.leaseValues();
      this.leaseSamples.push({ sentAt, receivedAt: now(), values });
    } catch (error) {
      this.violations.push(`sampling failed: ${String(error)}`);
    }
  }
}

describe('ShardOwnership on PostgreSQL', () => {
  const db = new RepositoryDatabase();
  let cluster: TestCluster;
  const unhandledRejections: unknown[] = [];
  const recordUnhandled = (reason: unknown) => unhandledRejections.push(reason);

  beforeAll(() => process.on('unhandledRejection', recordUnhandled));
  afterAll(async () => {
    process.off('unhandledRejection', recordUnhandled);
    await db.close();
  });

  beforeEach(() => {
    cluster = new TestCluster(db);
  });

  afterEach(async () => {
    await cluster.cleanup();
    expect(unhandledRejections).toEqual([]);
  });

  /** The token each shard was last acquired with by `worker`, as `worker:token`. */
  const leaseOf = (worker: TestWorker, shard: number) => `${worker.id}:${cluster.lastCall(worker, 'acquired', shard).token}`;

  it('acquires all 16 shards alone, each with a fencing token above any issued before, expiring on the database clock', async () => {
    const before = await cluster.lastToken();
    const alone = await cluster.startWorker('worker-a');
    await waitFor('16 acquired() calls', () => cluster.callsOf(alone, 'acquired').length === SHARD_COUNT);

    const acquired = cluster.callsOf(alone, 'acquired').sort((a, b) => a.shard - b.shard);
    const tokens = acquired.map((call) => call.token ?? 0);
    expect(acquired.map((call) => call.shard)).toEqual(ALL_SHARDS);
    // One statement took them all: 16 distinct tokens, each new.
    expect([...tokens].sort((x, y) => x - y)).toEqual(range(before + 1, before + 17));
    expect(alone.ownership.owned()).toEqual(ALL_SHARDS);
    expect(ALL_SHARDS.map((shard) => alone.ownership.fencingToken(shard))).toEqual(tokens);
    expect(ALL_SHARDS.every((shard) => alone.ownership.holds(shard))).toBe(true);
    expect(await cluster.leaseValues()).toEqual(tokens.map((token) => `worker-a:${token}`));
    const [ttl] = await db.rows<{ ms: number }>(
      'SELECT extract(epoch FROM (expires_at - clock_timestamp())) * 1000 AS ms FROM shard_leases WHERE scope = $1 AND shard = 0',
      [cluster.scope],
    );
    expect(Number(ttl.ms)).toBeGreaterThan(0);
    expect(Number(ttl.ms)).toBeLessThanOrEqual(LEASE_MS);
    expect(await cluster.members()).toEqual(['worker-a']);
  });

  it('never takes a lease held by someone else, and takes it once it is free', async () => {
    await db.rows(
      `INSERT INTO shard_leases (scope, shard, worker_id, token, expires_at) VALUES ($1, 3, 'intruder', nextval('shard_lease_token_seq'), clock_timestamp() + interval '1 minute')`,
      [cluster.scope],
    );
    const [intruder] = await db.rows<{ token: string }>('SELECT token::text FROM shard_leases WHERE scope = $1 AND shard = 3', [
      cluster.scope,
    ]);

    const worker = await cluster.startWorker('worker-a');
    await waitFor('15 shards owned', () => worker.ownership.owned().length === 15);
    await sleep(3 * REBALANCE_EVERY_MS);

    expect(worker.ownership.owned()).toEqual(ALL_SHARDS.filter((shard) => shard !== 3));
    expect(worker.ownership.holds(3)).toBe(false);
    expect(cluster.calls.filter((call) => call.shard === 3)).toEqual([]);
    expect(await cluster.leaseValue(3)).toBe(`intruder:${intruder.token}`);

    await db.rows(`UPDATE shard_leases SET worker_id = NULL, token = NULL, expires_at = '-infinity' WHERE scope = $1 AND shard = 3`, [
      cluster.scope,
    ]);
    await waitFor('shard 3 owned', () => worker.ownership.holds(3));
    expect(worker.ownership.fencingToken(3)).toBeGreaterThan(Number(intruder.token));
    expect(await cluster.leaseValue(3)).toBe(leaseOf(worker, 3));
  });

  it('takes over a lease that expired on the database clock, and a shard whose row was deleted', async () => {
    await db.rows(
      `INSERT INTO shard_leases (scope, shard, worker_id, token, expires_at) VALUES ($1, 4, 'dead', nextval('shard_lease_token_seq'), clock_timestamp() - interval '1 second')`,
      [cluster.scope],
    );
    const worker = await cluster.startWorker('worker-a');
    await waitFor('all shards owned', () => worker.ownership.owned().length === SHARD_COUNT);
    await db.rows('DELETE FROM shard_leases WHERE scope = $1 AND shard = 7', [cluster.scope]);
    await waitFor('lost(7)', () => cluster.callsOf(worker, 'lost').length === 1, LEASE_MS);
    await waitFor('shard 7 owned again', () => worker.ownership.holds(7), 4_000);
    expect(cluster.callsOf(worker, 'lost')).toMatchObject([{ shard: 7, reason: 'expired' }]);
    expect(await cluster.leaseValues()).toEqual(ALL_SHARDS.map((shard) => leaseOf(worker, shard)));
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
    const tokensBefore = handedOver.map((shard) => leaving.ownership.fencingToken(shard) ?? Infinity);

    const stopStartedAt = now();
    await Promise.all([leaving.ownership.stop(), leaving.ownership.stop()]);
    expect(now() - stopStartedAt).toBeGreaterThanOrEqual(200);
    await leaving.ownership.stop();

    const stoppingLosses = cluster.callsOf(leaving, 'lost').filter((call) => call.reason === 'stopping');
    expect(stoppingLosses.map((call) => call.shard).sort((x, y) => x - y)).toEqual(handedOver);
    // Its lease was still there, unchanged, when lost() finished.
    expect(stoppingLosses.map((call) => call.leaseAtReturn)).toEqual(stoppingLosses.map((call) => leaseOf(leaving, call.shard)));
    expect(leaving.ownership.owned()).toEqual([]);
    expect(await cluster.members()).toEqual(['worker-b']);

    await waitFor('worker-b owns all', () => survivor.ownership.owned().length === SHARD_COUNT, 4_000);
    await cluster.stopSampling();
    handedOver.forEach((shard, index) => {
      expect(cluster.lastCall(survivor, 'acquired', shard).calledAt).toBeGreaterThan(
        cluster.lastCall(leaving, 'lost', shard).returnedAt ?? Infinity,
      );
      expect(survivor.ownership.fencingToken(shard)).toBeGreaterThan(tokensBefore[index]);
    });
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
    expect(await cluster.members()).toEqual(['worker-b']);
    await stopping;

    const stoppingLosses = cluster.callsOf(leaving, 'lost').filter((call) => call.reason === 'stopping');
    expect(stoppingLosses.map((call) => call.leaseAtReturn)).toEqual(stoppingLosses.map((call) => leaseOf(leaving, call.shard)));
    await waitFor('worker-b owns all', () => successor.ownership.owned().length === SHARD_COUNT, 4_000);
    expect(cluster.ownershipConflicts()).toEqual([]);
  });

  it('fences a worker cut off from PostgreSQL: it drops its shards locally before the leases expire, then the other worker takes them', async () => {
    cluster.startSampling();
    const cutOff = await cluster.startWorker('worker-a', { inspectLeaseInLost: true });
    const survivor = await cluster.startWorker('worker-b');
    await waitFor('an 8/8 split', () => cluster.ownedCounts().join() === '8,8', 4_000);
    const stranded = cutOff.ownership.owned();
    const strandedLeases = stranded.map((shard) => leaseOf(cutOff, shard));

    const cutAt = now();
    cutOff.cut();
    await waitFor('worker-b owns all', () => survivor.ownership.owned().length === SHARD_COUNT, 5_000);
    await cluster.stopSampling();

    const expiredLosses = cluster.callsOf(cutOff, 'lost').filter((call) => call.reason === 'expired');
    expect(expiredLosses.map((call) => call.shard).sort((x, y) => x - y)).toEqual(stranded);
    expect(cluster.callsOf(cutOff, 'lost')).toHaveLength(SHARD_COUNT); // the other 8 went to worker-b on rebalance
    expect(expiredLosses.map((call) => call.heldAtCall)).toEqual(stranded.map(() => false));
    // Still worker-a's lease in PostgreSQL when worker-a gave up, so nobody else could have held it yet.
    expect(expiredLosses.sort((x, y) => x.shard - y.shard).map((call) => call.leaseAtCall)).toEqual(strandedLeases);
    for (const call of expiredLosses) {
      expect(call.calledAt - cutAt).toBeLessThan(LEASE_MS);
      expect(cluster.lastCall(survivor, 'acquired', call.shard).calledAt).toBeGreaterThan(call.calledAt);
    }
    expect(cutOff.ownership.owned()).toEqual([]);
    expect(cluster.violations).toEqual([]);

    const stopStartedAt = now();
    await cutOff.ownership.stop();
    expect(now() - stopStartedAt).toBeLessThan(2_500);
    expect(cluster.callsOf(cutOff, 'lost')).toHaveLength(SHARD_COUNT);
  });

  it('drops a shard at once, without a handover, when a renewal finds its lease gone', async () => {
    const worker = await cluster.startWorker('worker-a');
    await waitFor('worker-a owns all', () => worker.ownership.owned().length === SHARD_COUNT);

    await db.rows(
      `UPDATE shard_leases SET worker_id = 'usurper', token = nextval('shard_lease_token_seq'), expires_at = clock_timestamp() + interval '1 minute' WHERE scope = $1 AND shard = 9`,
      [cluster.scope],
    );
    await waitFor('lost(9)', () => cluster.callsOf(worker, 'lost').length === 1, LEASE_MS);

    expect(cluster.callsOf(worker, 'lost')).toMatchObject([{ shard: 9, reason: 'expired', heldAtCall: false }]);
    expect(worker.ownership.holds(9)).toBe(false);
    expect(worker.ownership.owned()).toEqual(ALL_SHARDS.filter((shard) => shard !== 9));
    expect(await cluster.leaseValue(9)).toMatch(/^usurper:\d+$/);
  });

  it('drops a shard at once when a fenced write under its current token was refused, and ignores an older token', async () => {
    const worker = await cluster.startWorker('worker-a');
    await waitFor('worker-a owns all', () => worker.ownership.owned().length === SHARD_COUNT);
    const token = worker.ownership.fencingToken(5) ?? 0;

    worker.ownership.lose(5, token - 1000);
    expect(worker.ownership.holds(5)).toBe(true);
    worker.ownership.lose(5, token);
    expect(worker.ownership.holds(5)).toBe(false);
    expect(worker.ownership.fencingToken(5)).toBeUndefined();
    await waitFor('lost(5)', () => cluster.callsOf(worker, 'lost').length === 1);
    expect(cluster.callsOf(worker, 'lost')).toMatchObject([{ shard: 5, reason: 'fenced', heldAtCall: false }]);
    // Its lease was in fact still its own, so it was released after lost() and then taken again under a new token.
    await waitFor('shard 5 owned again', () => worker.ownership.holds(5), 4_000);
    expect(worker.ownership.fencingToken(5)).toBeGreaterThan(token);
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
        .map((call) => call.token ?? 0),
    );
    expect(tokensByShard.map((tokens) => tokens.length)).toEqual(ALL_SHARDS.map((shard) => (shard < 8 ? 1 : 3)));
    for (const tokens of tokensByShard) expect(tokens).toEqual([...tokens].sort((x, y) => x - y));
    expect(new Set(tokensByShard.flat()).size).toBe(tokensByShard.flat().length);
    expect(await cluster.leaseValues()).toEqual(ALL_SHARDS.map((shard) => `worker-a:${tokensByShard[shard].at(-1)}`));
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
    expect(await cluster.leaseValues()).toEqual(ALL_SHARDS.map(() => null));
    expect(await cluster.members()).toEqual([]);
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
