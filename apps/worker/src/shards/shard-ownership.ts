/**
 * Shard ownership: which worker runs the network sessions of which shard.
 *
 * The leases and the membership live in PostgreSQL (`ShardLeaseStore`, implemented by `ShardLeaseRepository`): one row per
 * shard with its worker, fencing token and expiry, one row per live worker. Expiries are on PostgreSQL's clock. Redis plays
 * no part: losing Redis state (a flush, a failover, a restart) cannot hand a shard to a second worker.
 *
 * Acquiring is one statement that, for free or expired rows only (`FOR UPDATE SKIP LOCKED`), sets this worker and a token
 * from a PostgreSQL sequence. Every owner's token is therefore strictly greater than all earlier ones, across Redis loss, and
 * names exactly one lease. Downstream writes carry it and PostgreSQL refuses them once the token is no longer the shard's
 * (`fence.ts`), so the fencing below is a belt: the database is the braces.
 *
 * Renewal is one statement per tick for all of this worker's leases (and its membership), matching on worker and token:
 * a worker whose lease already passed on cannot extend the next owner's lease, nor its own earlier lease of the shard.
 * Release is compare-token-then-free, likewise.
 *
 * Fencing: a lease's local deadline is the SEND time of its last successful acquire/renew + leaseMs - safety margin. PostgreSQL
 * ran the statement after we sent it, so the row lives at least leaseMs past the send time; the margin (20% of leaseMs)
 * absorbs clock-rate drift and late timers. From the deadline on, holds() is false and lost('expired') is called, so this
 * worker stops believing it owns the shard before PostgreSQL can let another worker in. A renewal that finds the lease gone
 * or replaced does the same at once, and so does a fenced write that PostgreSQL refused (`lose`).
 *
 * Rebalancing: every worker computes the same even split from the live workers and their lease counts (`targetShareOf`:
 * floor(shardCount / n) each, the `shardCount % n` extras staying with the workers that hold the most). A worker over its share awaits lost('rebalance') for its highest-numbered surplus shards and only then frees their leases; the
 * leases keep being renewed while lost() runs, so the next owner cannot start before the sessions are closed. A worker under its
 * share acquires free shards.
 */
import { Logger } from '@nestjs/common';

/** A live worker and how many current leases it holds. */
export interface WorkerShare {
  id: string;
  held: number;
}

/** What ownership needs of the lease table (`ShardLeaseRepository` in libs/database). */
export interface ShardLeaseStore {
  /** Refreshes membership (when `heartbeat`) and extends the named leases still this worker's; returns the tokens extended. */
  renew(workerId: string, leaseMs: number, tokens: readonly number[], heartbeat: boolean): Promise<Set<number>>;
  /** Live workers with the number of current leases each holds. */
  liveWorkers(): Promise<WorkerShare[]>;
  /** Up to `max` free or expired shards of `candidates` (in that order of preference), each with a new fencing token. */
  acquire(workerId: string, candidates: readonly number[], max: number, leaseMs: number): Promise<{ shard: number; token: number }[]>;
  release(workerId: string, leases: readonly { shard: number; token: number }[]): Promise<void>;
  deregister(workerId: string): Promise<void>;
}

export interface ShardOwnershipOptions {
  store: ShardLeaseStore;
  /** Unique per process. */
  workerId: string;
  shardCount: number;
  /** Default 15000. */
  leaseMs?: number;
  /** Default leaseMs / 3. Also refreshes this worker's membership. */
  renewEveryMs?: number;
  /** Default 2000: how often membership is re-read and shards acquired or released. */
  rebalanceEveryMs?: number;
  logger?: { log(msg: string): void; warn(msg: string): void };
}

export type ShardLossReason = 'rebalance' | 'expired' | 'stopping' | 'fenced';

export interface ShardListener {
  /** This worker now owns `shard`; `fencingToken` is strictly greater than any token issued for that shard before. */
  acquired(shard: number, fencingToken: number): Promise<void> | void;
  /** This worker no longer owns `shard`. On 'rebalance' and 'stopping' the lease is released only after this returns. */
  lost(shard: number, reason: ShardLossReason): Promise<void> | void;
}

const DEFAULT_LEASE_MS = 15_000;
const DEFAULT_REBALANCE_EVERY_MS = 2_000;
const SAFETY_MARGIN_RATIO = 0.2;
/** Bounds each database call made while stopping, so shutdown finishes with PostgreSQL gone; leases then simply expire. */
const STOP_CALL_TIMEOUT_MS = 2_000;

interface Lease {
  readonly shard: number;
  readonly token: number;
  /** performance.now() after which the lease may be gone from PostgreSQL. */
  deadline: number;
  /** Set once a voluntary handover began: lost() runs while the lease is still renewed, then the lease is deleted. */
  handOver: Promise<void> | undefined;
  expiryTimer: NodeJS.Timeout | undefined;
}

type State = 'idle' | 'running' | 'stopping' | 'stopped';

const now = (): number => performance.now();

function messageOf(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}

/**
 * This worker's share of the shards: every live worker gets `floor(shardCount / n)`, and the `shardCount % n` extra shards
 * stay with the workers that hold the most now (ties: the lower id). Keeping the extras where they are is what makes a
 * join move only the newcomer's share (each worker above its new share gives up its surplus, no worker takes one from
 * another) and a leave move only the leaver's shards. The worker itself always counts as live, with `ownHeld`, even
 * before its first heartbeat is visible.
 */
export function targetShareOf(workerId: string, liveWorkers: readonly WorkerShare[], shardCount: number, ownHeld: number): number {
  const all = [...liveWorkers.filter((worker) => worker.id !== workerId), { id: workerId, held: ownHeld }];
  const base = Math.floor(shardCount / all.length);
  const ranked = all.sort((a, b) => b.held - a.held || (a.id < b.id ? -1 : a.id > b.id ? 1 : 0));
  return ranked.findIndex((worker) => worker.id === workerId) < shardCount % all.length ? base + 1 : base;
}

/** "3 shards (4, 9, 12)" or, for many, "1024 shards (0 … 4095)": one log line however many shards move. */
function describeShards(shards: number[]): string {
  const sorted = [...shards].sort((a, b) => a - b);
  const list = sorted.length <= 8 ? sorted.join(', ') : `${sorted[0]} … ${sorted[sorted.length - 1]}`;
  return `${sorted.length} shard${sorted.length === 1 ? '' : 's'} (${list})`;
}

/** Runs `task` now and then `everyMs` after each run ends, so runs never overlap. Never rejects. */
class RepeatingTask {
  private timer: NodeJS.Timeout | undefined;
  private current: Promise<void> = Promise.resolve();
  private stopped = false;

  constructor(
    private readonly everyMs: number,
    private readonly task: () => Promise<void>,
    private readonly onError: (error: unknown) => void,
  ) {}

  runNow(): Promise<void> {
    this.current = this.task()
      .catch(this.onError)
      .finally(() => this.scheduleNext());
    return this.current;
  }

  /** No further runs; resolves when the current one ends. */
  stop(): Promise<void> {
    this.stopped = true;
    clearTimeout(this.timer);
    return this.current;
  }

  private scheduleNext(): void {
    if (this.stopped) return;
    this.timer = setTimeout(() => void this.runNow(), this.everyMs).unref();
  }
}

/** Resolves when `promise` settles or after `ms`, whichever is first; never rejects. */
async function settleWithin(promise: Promise<unknown>, ms: number): Promise<void> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<void>((resolve) => {
    timer = setTimeout(resolve, ms).unref();
  });
  await Promise.race([promise.then(noop, noop), timeout]);
  clearTimeout(timer);
}

function noop(): void {}

export class ShardOwnership {
  private readonly store: ShardLeaseStore;
  private readonly workerId: string;
  private readonly shardCount: number;
  private readonly leaseMs: number;
  private readonly safetyMarginMs: number;
  private readonly logger: { log(msg: string): void; warn(msg: string): void };
  private readonly renewLoop: RepeatingTask;
  private readonly rebalanceLoop: RepeatingTask;

  private readonly leases = new Map<number, Lease>();
  /** Tail of each shard's listener calls, so acquired/lost for one shard never overlap. */
  private readonly listenerTails = new Map<number, Promise<void>>();
  /** Work started outside the loops (listener calls, releases after expiry) that stop() waits for. */
  private readonly background = new Set<Promise<void>>();
  private state: State = 'idle';
  /** Leases waiting for the next release statement, and the tail of the statements already sent (`deleteLease`). */
  private pendingRelease: { leases: Lease[]; done: Promise<void> } | undefined;
  private releasing: Promise<void> = Promise.resolve();
  private stopping: Promise<void> | undefined;

  constructor(
    options: ShardOwnershipOptions,
    private readonly listener: ShardListener,
  ) {
    this.store = options.store;
    this.workerId = options.workerId;
    this.shardCount = options.shardCount;
    this.leaseMs = options.leaseMs ?? DEFAULT_LEASE_MS;
    this.safetyMarginMs = this.leaseMs * SAFETY_MARGIN_RATIO;
    this.logger = options.logger ?? new Logger(ShardOwnership.name);
    const renewEveryMs = options.renewEveryMs ?? this.leaseMs / 3;
    validateOptions(options, this.leaseMs, renewEveryMs, this.safetyMarginMs);
    const logLoopError = (error: unknown) => this.logger.warn(`shard ownership: ${messageOf(error)}`);
    this.renewLoop = new RepeatingTask(renewEveryMs, () => this.renewAll(), logLoopError);
    this.rebalanceLoop = new RepeatingTask(options.rebalanceEveryMs ?? DEFAULT_REBALANCE_EVERY_MS, () => this.rebalance(), logLoopError);
  }

  /** Registers this worker and takes its first share; database errors are logged and retried by the loops, never thrown. */
  async start(): Promise<void> {
    if (this.state !== 'idle') throw new Error(`ShardOwnership for ${this.workerId} was already started`);
    this.state = 'running';
    // The heartbeat first, so this worker is a member before it takes shards others may count on.
    await this.renewLoop.runNow();
    await this.rebalanceLoop.runNow();
  }

  /** Stops acquiring, hands every shard over (lost('stopping') awaited, then the lease deleted if still ours), deregisters. */
  stop(): Promise<void> {
    this.stopping ??= this.shutdown();
    return this.stopping;
  }

  /** Shards whose lease this worker holds right now, including any whose lost() is running for a handover. Sorted. */
  owned(): number[] {
    return [...this.leases.keys()].filter((shard) => this.holds(shard)).sort((a, b) => a - b);
  }

  fencingToken(shard: number): number | undefined {
    return this.holds(shard) ? this.leases.get(shard)?.token : undefined;
  }

  /** True only while the lease is certainly still held (local deadline not passed). Check before every side effect. */
  holds(shard: number): boolean {
    const lease = this.leases.get(shard);
    return lease !== undefined && now() < lease.deadline;
  }

  private async shutdown(): Promise<void> {
    if (this.state === 'idle') {
      this.state = 'stopped';
      return;
    }
    this.state = 'stopping';
    // Bounded: a tick stuck on an unreachable database must not block shutdown. A handover it started is awaited below.
    await settleWithin(this.rebalanceLoop.stop(), this.stopTimeoutMs());
    // Leave the membership first, so the others raise their share and pick up each shard as soon as its lease is released.
    await this.deregister();
    const held = [...this.leases.values()];
    await Promise.all(held.map((lease) => this.handOver(lease, 'stopping')));
    if (held.length > 0) this.logger.log(`shard ownership: released ${describeShards(held.map((lease) => lease.shard))} (stopping)`);
    await settleWithin(this.renewLoop.stop(), this.stopTimeoutMs());
    await Promise.all([...this.background, ...this.listenerTails.values()]);
    // A heartbeat that was in flight during the first deregistration may have re-added this worker.
    await this.deregister();
    this.state = 'stopped';
  }

  /**
   * A fenced write for `shard` under `token` was refused by PostgreSQL: the lease has passed on. Stops believing at once and
   * calls lost('fenced'); a later token of the same shard (acquired again since) is not affected.
   */
  lose(shard: number, token: number): void {
    const lease = this.leases.get(shard);
    if (lease?.token === token) this.dropLost(lease, 'a fenced write was refused by PostgreSQL', 'fenced');
  }

  /** One statement for the heartbeat and every lease. */
  private async renewAll(): Promise<void> {
    const leases = [...this.leases.values()];
    const sentAt = now();
    let renewed: Set<number>;
    try {
      renewed = await this.store.renew(
        this.workerId,
        this.leaseMs,
        leases.map((lease) => lease.token),
        this.state === 'running',
      );
    } catch (error) {
      this.logger.warn(`shard ownership: renewal failed, retrying: ${messageOf(error)}`);
      return;
    }
    for (const lease of leases) {
      // Once the deadline has passed the lease is lost locally for good, even if this reply says PostgreSQL still had it.
      if (this.leases.get(lease.shard) !== lease || now() >= lease.deadline) continue;
      if (renewed.has(lease.token)) lease.deadline = Math.max(lease.deadline, this.deadlineFrom(sentAt));
      else this.dropLost(lease, 'its lease is gone from PostgreSQL or held by another worker');
    }
  }

  private async rebalance(): Promise<void> {
    if (this.state !== 'running') return;
    const liveWorkers = await this.readLiveWorkers();
    if (liveWorkers === undefined) return;
    const kept = [...this.leases.values()].filter((lease) => lease.handOver === undefined);
    const target = targetShareOf(this.workerId, liveWorkers, this.shardCount, kept.length);
    if (kept.length > target) await this.releaseSurplus(kept, kept.length - target);
    else if (kept.length < target) await this.acquireFreeShards(target - kept.length, liveWorkers);
  }

  private async readLiveWorkers(): Promise<WorkerShare[] | undefined> {
    try {
      return await this.store.liveWorkers();
    } catch (error) {
      this.logger.warn(`shard ownership: reading live workers failed, retrying: ${messageOf(error)}`);
      return undefined;
    }
  }

  private async releaseSurplus(kept: Lease[], surplus: number): Promise<void> {
    const released = [...kept].sort((a, b) => b.shard - a.shard).slice(0, surplus);
    await Promise.all(released.map((lease) => this.handOver(lease, 'rebalance')));
    this.logger.log(`shard ownership: released ${describeShards(released.map((lease) => lease.shard))} (rebalance)`);
  }

  private async acquireFreeShards(wanted: number, liveWorkers: readonly WorkerShare[]): Promise<void> {
    const candidates = this.rotatedForThisWorker(liveWorkers).filter((shard) => !this.leases.has(shard));
    const sentAt = now();
    let acquired: { shard: number; token: number }[];
    try {
      acquired = await this.store.acquire(this.workerId, candidates, wanted, this.leaseMs);
    } catch (error) {
      this.logger.warn(`shard ownership: acquiring shards failed, retrying: ${messageOf(error)}`);
      return;
    }
    if (acquired.length > 0) this.logger.log(`shard ownership: acquired ${describeShards(acquired.map((lease) => lease.shard))}`);
    await Promise.all(acquired.map(({ shard, token }) => this.took(shard, token, sentAt)));
  }

  /** All shards, starting where this worker's slice of an even split would begin, so workers that start together rarely collide. */
  private rotatedForThisWorker(liveWorkers: readonly WorkerShare[]): number[] {
    const sorted = [...new Set([...liveWorkers.map((worker) => worker.id), this.workerId])].sort();
    const start = Math.floor((sorted.indexOf(this.workerId) * this.shardCount) / sorted.length);
    return this.allShards().map((offset) => (start + offset) % this.shardCount);
  }

  private async took(shard: number, token: number, sentAt: number): Promise<void> {
    const lease: Lease = { shard, token, deadline: this.deadlineFrom(sentAt), handOver: undefined, expiryTimer: undefined };
    // A reply that arrives after stop() began, or too late to be trusted, must not start anything: give the lease straight back.
    if (this.state !== 'running' || now() >= lease.deadline || this.leases.has(shard)) {
      await this.deleteLease(lease);
      return;
    }
    this.leases.set(shard, lease);
    this.armExpiry(lease);
    this.track(this.callListener(shard, () => this.listener.acquired(shard, lease.token)));
  }

  /** Voluntary: lost() is awaited while the lease is still renewed, then the lease is forgotten and deleted if still ours. */
  private handOver(lease: Lease, reason: 'rebalance' | 'stopping'): Promise<void> {
    lease.handOver ??= this.callListener(lease.shard, () => this.listener.lost(lease.shard, reason)).then(async () => {
      this.forget(lease);
      await this.deleteLease(lease);
    });
    return lease.handOver;
  }

  /** Involuntary: the lease may already belong to someone else, so nothing may wait before the local belief ends. */
  private dropLost(lease: Lease, why: string, reason: 'expired' | 'fenced' = 'expired'): void {
    if (this.leases.get(lease.shard) !== lease) return;
    this.forget(lease);
    this.logger.warn(`shard ownership: lost shard ${lease.shard}: ${why}`);
    if (lease.handOver) return; // lost() is already running for the handover
    const lostThenRelease = this.callListener(lease.shard, () => this.listener.lost(lease.shard, reason)).then(() =>
      // Frees the shard early if the lease is in fact still ours (a slow database rather than a lost lease).
      this.deleteLease(lease),
    );
    this.track(lostThenRelease);
  }

  private armExpiry(lease: Lease): void {
    lease.expiryTimer = setTimeout(() => this.onExpiryTimer(lease), Math.max(0, lease.deadline - now())).unref();
  }

  private onExpiryTimer(lease: Lease): void {
    if (this.leases.get(lease.shard) !== lease) return;
    // Renewals move the deadline without touching the timer; timers may also fire a little early.
    if (now() < lease.deadline) this.armExpiry(lease);
    else this.dropLost(lease, 'no successful renewal before the local deadline');
  }

  private forget(lease: Lease): void {
    clearTimeout(lease.expiryTimer);
    if (this.leases.get(lease.shard) === lease) this.leases.delete(lease.shard);
  }

  /**
   * Deletes the lease if still ours. Releases that come together (a rebalance hands hundreds of shards over at once) go
   * in one statement, and one batch at a time: the lease pool has two connections, and a queue of single-row releases
   * in front of a renewal would make the renewal late and every lease of this worker lapse.
   */
  private deleteLease(lease: Lease): Promise<void> {
    if (!this.pendingRelease) {
      const batch: { leases: Lease[]; done: Promise<void> } = { leases: [], done: Promise.resolve() };
      batch.done = this.releasing
        .then(() => new Promise<void>((resolve) => setImmediate(resolve)))
        .then(() => {
          if (this.pendingRelease === batch) this.pendingRelease = undefined;
          return this.releaseNow(batch.leases);
        });
      this.pendingRelease = batch;
      this.releasing = batch.done;
    }
    this.pendingRelease.leases.push(lease);
    return this.pendingRelease.done;
  }

  private async releaseNow(leases: Lease[]): Promise<void> {
    const deletion = this.store.release(this.workerId, leases).catch((error: unknown) => {
      this.logger.warn(
        `shard ownership: releasing ${describeShards(leases.map((lease) => lease.shard))} failed, they will expire: ${messageOf(error)}`,
      );
    });
    // Bounded: an unreachable database must not stall a handover or shutdown, and the lease expires by itself anyway.
    await settleWithin(deletion, this.stopTimeoutMs());
  }

  private async deregister(): Promise<void> {
    const removal = this.store
      .deregister(this.workerId)
      .catch((error: unknown) => this.logger.warn(`shard ownership: deregistering failed, membership will expire: ${messageOf(error)}`));
    await settleWithin(removal, this.stopTimeoutMs());
  }

  /** Queues a listener call behind earlier ones for the same shard; listener errors are logged, never thrown. */
  private callListener(shard: number, call: () => Promise<void> | void): Promise<void> {
    const previous = this.listenerTails.get(shard) ?? Promise.resolve();
    const next = previous.then(async () => {
      try {
        await call();
      } catch (error) {
        this.logger.warn(`shard ownership: listener failed for shard ${shard}: ${messageOf(error)}`);
      }
    });
    this.listenerTails.set(shard, next);
    void next.then(() => {
      if (this.listenerTails.get(shard) === next) this.listenerTails.delete(shard);
    });
    return next;
  }

  private track(work: Promise<void>): void {
    this.background.add(work);
    void work.finally(() => this.background.delete(work));
  }

  private deadlineFrom(sentAt: number): number {
    return sentAt + this.leaseMs - this.safetyMarginMs;
  }

  private stopTimeoutMs(): number {
    return Math.min(this.leaseMs, STOP_CALL_TIMEOUT_MS);
  }

  private allShards(): number[] {
    return Array.from({ length: this.shardCount }, (_, shard) => shard);
  }
}

function validateOptions(options: ShardOwnershipOptions, leaseMs: number, renewEveryMs: number, safetyMarginMs: number): void {
  if (!Number.isInteger(options.shardCount) || options.shardCount < 1) throw new Error('shardCount must be a positive integer');
  if (options.workerId === '') throw new Error('workerId must not be empty');
  if (!(leaseMs > 0)) throw new Error('leaseMs must be positive');
  // A renewal must have a chance to land before the local deadline, or every lease would be lost between two renewals.
  if (!(renewEveryMs > 0 && renewEveryMs < leaseMs - safetyMarginMs))
    throw new Error('renewEveryMs must be positive and below 80% of leaseMs');
  if (!((options.rebalanceEveryMs ?? DEFAULT_REBALANCE_EVERY_MS) > 0)) throw new Error('rebalanceEveryMs must be positive');
}
