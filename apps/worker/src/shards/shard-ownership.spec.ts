import { ShardOwnership, targetShareOf, type ShardLeaseStore, type WorkerShare } from './shard-ownership';

// The ownership itself against PostgreSQL: test/repositories/shard-ownership.repo-spec.ts. Here the split, and a fleet of
// simulated workers on an in-memory lease table (the same contract) to count what a join or a leave moves.
describe('targetShareOf', () => {
  const idle = (...ids: string[]): WorkerShare[] => ids.map((id) => ({ id, held: 0 }));

  it('gives the extra shards to the lowest ids while nobody holds any', () => {
    const workers = idle('c', 'a', 'b');
    expect(workers.map(({ id }) => targetShareOf(id, workers, 16, 0))).toEqual([5, 6, 5]);
    expect(['a', 'b', 'c', 'd', 'e'].map((id) => targetShareOf(id, idle('e', 'd', 'c', 'b', 'a'), 3, 0))).toEqual([1, 1, 1, 0, 0]);
  });

  it('leaves the extra shards with the workers that hold the most, so a newcomer takes only what the others can spare', () => {
    // 4,096 over 3 = 1,365 r 1: "b" holds the extra. A fourth worker ("a", lowest id) makes it 1,024 each, no extra.
    const three = [
      { id: 'b', held: 1366 },
      { id: 'c', held: 1365 },
      { id: 'd', held: 1365 },
    ];
    expect(three.map(({ id, held }) => targetShareOf(id, three, 4096, held))).toEqual([1366, 1365, 1365]);
    const four = [{ id: 'a', held: 0 }, ...three];
    expect(four.map(({ id, held }) => targetShareOf(id, four, 4096, held))).toEqual([1024, 1024, 1024, 1024]);
    // 4,096 over 5 = 819 r 1: the worker already holding the most keeps the extra, not the lowest id.
    const five = [
      { id: 'a', held: 819 },
      { id: 'b', held: 820 },
      { id: 'c', held: 819 },
      { id: 'd', held: 819 },
      { id: 'e', held: 819 },
    ];
    expect(five.map(({ id, held }) => targetShareOf(id, five, 4096, held))).toEqual([819, 820, 819, 819, 819]);
  });

  it('counts the asking worker as live even when it is missing from the list', () => {
    expect(targetShareOf('b', idle('a'), 16, 0)).toBe(8);
    expect(targetShareOf('a', [], 16, 0)).toBe(16);
  });
});

/** The lease table's contract in memory: expiry is not simulated (leases here are long), only who holds what. */
class MemoryLeases implements ShardLeaseStore {
  private readonly owners = new Map<number, { workerId: string; token: number }>();
  private readonly members = new Set<string>();
  private nextToken = 1;

  renew(workerId: string, _leaseMs: number, tokens: readonly number[], heartbeat: boolean): Promise<Set<number>> {
    if (heartbeat) this.members.add(workerId);
    const wanted = new Set(tokens);
    const renewed = new Set<number>();
    for (const lease of this.owners.values()) if (lease.workerId === workerId && wanted.has(lease.token)) renewed.add(lease.token);
    return Promise.resolve(renewed);
  }

  liveWorkers(): Promise<WorkerShare[]> {
    const held = new Map<string, number>();
    for (const { workerId } of this.owners.values()) held.set(workerId, (held.get(workerId) ?? 0) + 1);
    return Promise.resolve([...this.members].sort().map((id) => ({ id, held: held.get(id) ?? 0 })));
  }

  acquire(workerId: string, candidates: readonly number[], max: number): Promise<{ shard: number; token: number }[]> {
    const taken: { shard: number; token: number }[] = [];
    for (const shard of candidates) {
      if (taken.length >= max) break;
      if (this.owners.has(shard)) continue;
      const token = this.nextToken++;
      this.owners.set(shard, { workerId, token });
      taken.push({ shard, token });
    }
    return Promise.resolve(taken);
  }

  release(workerId: string, leases: readonly { shard: number; token: number }[]): Promise<void> {
    for (const { shard, token } of leases) {
      const lease = this.owners.get(shard);
      if (lease?.workerId === workerId && lease.token === token) this.owners.delete(shard);
    }
    return Promise.resolve();
  }

  deregister(workerId: string): Promise<void> {
    this.members.delete(workerId);
    return Promise.resolve();
  }

  heldBy(): Map<string, number> {
    const held = new Map<string, number>();
    for (const { workerId } of this.owners.values()) held.set(workerId, (held.get(workerId) ?? 0) + 1);
    return held;
  }

  ownedShards(): number {
    return this.owners.size;
  }
}

describe('ShardOwnership in a fleet of 120 workers over 4,096 shards', () => {
  const SHARDS = 4096;
  jest.setTimeout(120_000);

  const store = new MemoryLeases();
  const fleet = new Map<string, ShardOwnership>();
  let moves = { acquired: 0, lost: 0 };
  const reasons: string[] = [];

  const startWorker = async (id: string): Promise<void> => {
    const ownership = new ShardOwnership(
      {
        store,
        workerId: id,
        shardCount: SHARDS,
        leaseMs: 600_000,
        rebalanceEveryMs: 40,
        logger: { log: () => undefined, warn: () => undefined },
      },
      {
        acquired: () => void (moves.acquired += 1),
        lost: (_shard, reason) => {
          moves.lost += 1;
          reasons.push(reason);
        },
      },
    );
    fleet.set(id, ownership);
    await ownership.start();
  };

  /** Waits until every shard is held and every worker holds floor or ceil of the even split. */
  const settled = async (): Promise<number[]> => {
    const floor = Math.floor(SHARDS / fleet.size);
    for (let waited = 0; waited < 60_000; waited += 50) {
      const shares = [...fleet.keys()].map((id) => store.heldBy().get(id) ?? 0);
      if (store.ownedShards() === SHARDS && shares.every((n) => n === floor || n === floor + 1)) {
        // Twice the rebalance period more: nothing may still be moving.
        await new Promise((resolve) => setTimeout(resolve, 200));
        const again = [...fleet.keys()].map((id) => store.heldBy().get(id) ?? 0);
        if (again.join() === shares.join()) return shares.sort((a, b) => a - b);
      }
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
    throw new Error(`not settled: ${JSON.stringify(Object.fromEntries(store.heldBy()))}`);
  };

  afterAll(async () => {
    await Promise.all([...fleet.values()].map((ownership) => ownership.stop()));
  });

  it('gives 120 workers even shares (34 or 35 of 4,096)', async () => {
    for (let n = 0; n < 120; n += 1) await startWorker(`w${String(n).padStart(3, '0')}`);
    const shares = await settled();
    // 4,096 = 120 × 34 + 16: sixteen workers hold 35, the rest 34.
    expect(shares.filter((n) => n === 35)).toHaveLength(16);
    expect(shares.filter((n) => n === 34)).toHaveLength(104);
  });

  it('moves only the newcomer’s share when a 121st worker joins: 33 shards, each once, none between the others', async () => {
    moves = { acquired: 0, lost: 0 };
    reasons.length = 0;
    await startWorker('w120');
    const shares = await settled();
    // 4,096 = 121 × 33 + 103: the newcomer takes 33, which is all that moves.
    expect(store.heldBy().get('w120')).toBe(33);
    expect(shares.filter((n) => n === 34)).toHaveLength(103);
    expect(moves).toEqual({ acquired: 33, lost: 33 });
    expect(new Set(reasons)).toEqual(new Set(['rebalance']));
  });

  it('moves only the leaver’s shards when a worker stops', async () => {
    moves = { acquired: 0, lost: 0 };
    reasons.length = 0;
    const leaver = 'w050';
    const itsShare = store.heldBy().get(leaver) ?? 0;
    const ownership = fleet.get(leaver);
    fleet.delete(leaver);
    await ownership?.stop();
    await settled();
    expect(moves).toEqual({ acquired: itsShare, lost: itsShare });
    expect(new Set(reasons)).toEqual(new Set(['stopping']));
  });
});
