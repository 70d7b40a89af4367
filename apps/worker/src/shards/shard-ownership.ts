/**
 * Shard ownership: which worker runs the network sessions of which shard.
 *
 * Keys (all under `<prefix>:shards:` or `<prefix>:workers:`):
 * - `shards:lease:<n>` = `<workerId>:<token>`, with a PX expiry: the lease of shard n.
 * - `shards:token:<n>`: the last fencing token issued for shard n (never expires).
 * - `workers:<id>` (PX) and the sorted set `shards:members` (score = Redis time at which the member expires): membership.
 *
 * Acquiring is one Lua script that, only while the lease is absent, INCRs the token and SET NX PX the lease. Being atomic, every
 * owner's token is strictly greater than all earlier ones, and the value carries it so downstream writes can be fenced.
 *
 * Renewal is compare-value-then-PEXPIRE and release is compare-value-then-DEL. A plain PEXPIRE or DEL sent by a worker whose lease
 * already expired (slow reply, GC pause, queued while reconnecting) would extend or delete the NEXT owner's lease. Because the value
 * includes the token, even this worker's own earlier lease of the same shard never matches.
 *
 * Fencing: a lease's local deadline is the SEND time of its last successful acquire/renew + leaseMs - safety margin. Redis ran the
 * command after we sent it, so the key lives at least leaseMs past the send time; the margin (20% of leaseMs) absorbs clock-rate
 * drift and late timers. From the deadline on, holds() is false and lost('expired') is called, so this worker stops believing it
 * owns the shard before Redis can let another worker in. A renewal that finds the lease gone or replaced does the same at once.
 *
 * Rebalancing: sorting the live worker ids gives every worker the same even split (the first `shardCount % n` ids get one more).
 * A worker over its share awaits lost('rebalance') for its highest-numbered surplus shards and only then deletes their leases; the
 * leases keep being renewed while lost() runs, so the next owner cannot start before the sessions are closed. A worker under its
 * share acquires free shards.
 */
import { Logger } from '@nestjs/common';
import type { Cluster, Redis } from 'ioredis';
import { shardLeaseKey, shardMembersKey } from '@app/contracts';

export interface ShardOwnershipOptions {
  /** Command connection. Prefer one that fails fast while disconnected; commands queued during an outage run later, harmlessly. */
  redis: Redis | Cluster;
  /** Every key written starts with `${keyPrefix}:shards:` or `${keyPrefix}:workers:`. */
  keyPrefix: string;
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

export type ShardLossReason = 'rebalance' | 'expired' | 'stopping';

export interface ShardListener {
  /** This worker now owns `shard`; `fencingToken` is strictly greater than any token issued for that shard before. */
  acquired(shard: number, fencingToken: number): Promise<void> | void;
  /** This worker no longer owns `shard`. On 'rebalance' and 'stopping' the lease is released only after this returns. */
  lost(shard: number, reason: ShardLossReason): Promise<void> | void;
}

const DEFAULT_LEASE_MS = 15_000;
const DEFAULT_REBALANCE_EVERY_MS = 2_000;
const SAFETY_MARGIN_RATIO = 0.2;
/** Bounds each Redis call made while stopping, so shutdown finishes with Redis gone; leases then simply expire. */
const STOP_REDIS_TIMEOUT_MS = 2_000;
/** ioredis connection states in which no command can be answered until a reconnect succeeds. */
const DISCONNECTED = new Set(['reconnecting', 'close', 'end']);

const ACQUIRE_SCRIPT = `
if redis.call('EXISTS', KEYS[1]) == 1 then return false end
local token = redis.call('INCR', KEYS[2])
redis.call('SET', KEYS[1], ARGV[1] .. ':' .. token, 'NX', 'PX', ARGV[2])
return token`;

const RENEW_SCRIPT = `
if redis.call('GET', KEYS[1]) == ARGV[1] then return redis.call('PEXPIRE', KEYS[1], ARGV[2]) end
return 0`;

const RELEASE_SCRIPT = `
if redis.call('GET', KEYS[1]) == ARGV[1] then return redis.call('DEL', KEYS[1]) end
return 0`;

// Redis time, not the caller's, so clock skew between workers cannot keep a dead member alive or drop a live one.
const REDIS_NOW_MS = `
local time = redis.call('TIME')
local nowMs = tonumber(time[1]) * 1000 + math.floor(tonumber(time[2]) / 1000)`;

const HEARTBEAT_SCRIPT = `${REDIS_NOW_MS}
redis.call('SET', KEYS[1], nowMs, 'PX', ARGV[2])
redis.call('ZADD', KEYS[2], nowMs + tonumber(ARGV[2]), ARGV[1])
return 1`;

const LIVE_MEMBERS_SCRIPT = `${REDIS_NOW_MS}
redis.call('ZREMRANGEBYSCORE', KEYS[1], '-inf', nowMs)
return redis.call('ZRANGE', KEYS[1], 0, -1)`;

interface Lease {
  readonly shard: number;
  readonly token: number;
  /** `<workerId>:<token>`, the exact value in Redis. */
  readonly value: string;
  /** performance.now() after which the lease may be gone from Redis. */
  deadline: number;
  /** Set once a voluntary handover began: lost() runs while the lease is still renewed, then the lease is deleted. */
  handOver: Promise<void> | undefined;
  expiryTimer: NodeJS.Timeout | undefined;
}

type State = 'idle' | 'running' | 'stopping' | 'stopped';

function shardKeys(keyPrefix: string) {
  return {
    // The operator overview (API) reads these two through the same helpers.
    lease: (shard: number) => shardLeaseKey(keyPrefix, shard),
    token: (shard: number) => `${keyPrefix}:shards:token:${shard}`,
    members: shardMembersKey(keyPrefix),
    worker: (workerId: string) => `${keyPrefix}:workers:${workerId}`,
  };
}

const now = (): number => performance.now();

function messageOf(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}

/**
 * This worker's share of the shards: live ids sorted, the first `shardCount % n` get `ceil(shardCount / n)`, the rest the floor.
 * The worker itself always counts as live, even before its first heartbeat is visible.
 */
export function targetShareOf(workerId: string, liveWorkerIds: readonly string[], shardCount: number): number {
  const sorted = [...new Set([...liveWorkerIds, workerId])].sort();
  const base = Math.floor(shardCount / sorted.length);
  return sorted.indexOf(workerId) < shardCount % sorted.length ? base + 1 : base;
}

/** Who owns `shard` right now according to its lease, or null. */
export async function ownerOfShard(redis: Redis | Cluster, keyPrefix: string, shard: number): Promise<string | null> {
  const value = await redis.get(shardKeys(keyPrefix).lease(shard));
  if (value === null) return null;
  // Worker ids may contain ':'; the token after the last one never does.
  const separator = value.lastIndexOf(':');
  return separator > 0 ? value.slice(0, separator) : null;
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
  private readonly redis: Redis | Cluster;
  private readonly keys: ReturnType<typeof shardKeys>;
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
  private stopping: Promise<void> | undefined;

  constructor(
    options: ShardOwnershipOptions,
    private readonly listener: ShardListener,
  ) {
    this.redis = options.redis;
    this.keys = shardKeys(options.keyPrefix);
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

  /** Registers this worker and takes its first share; Redis errors are logged and retried by the loops, never thrown. */
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
    // Bounded: a tick stuck on an unreachable Redis must not block shutdown. A handover it started is awaited below.
    await settleWithin(this.rebalanceLoop.stop(), this.stopTimeoutMs());
    // Leave the membership first, so the others raise their share and pick up each shard as soon as its lease is released.
    await this.deregister();
    await Promise.all([...this.leases.values()].map((lease) => this.handOver(lease, 'stopping')));
    await settleWithin(this.renewLoop.stop(), this.stopTimeoutMs());
    await Promise.all([...this.background, ...this.listenerTails.values()]);
    // A heartbeat that was in flight during the first deregistration may have re-added this worker.
    await this.deregister();
    this.state = 'stopped';
  }

  private async renewAll(): Promise<void> {
    const heartbeat = this.state === 'running' ? this.sendHeartbeat() : Promise.resolve(undefined);
    const failures = await Promise.all([heartbeat, ...[...this.leases.values()].map((lease) => this.renew(lease))]);
    const errors = failures.filter((failure): failure is string => failure !== undefined);
    if (errors.length > 0) this.logger.warn(`shard ownership: ${errors.length} renewal(s) failed, retrying: ${errors[0]}`);
  }

  /** Returns an error message on failure. */
  private async sendHeartbeat(): Promise<string | undefined> {
    try {
      await this.redis.eval(HEARTBEAT_SCRIPT, 2, this.keys.worker(this.workerId), this.keys.members, this.workerId, this.leaseMs);
      return undefined;
    } catch (error) {
      return `heartbeat: ${messageOf(error)}`;
    }
  }

  /** Returns an error message on failure. */
  private async renew(lease: Lease): Promise<string | undefined> {
    const sentAt = now();
    let renewed: boolean;
    try {
      renewed = (await this.redis.eval(RENEW_SCRIPT, 1, this.keys.lease(lease.shard), lease.value, this.leaseMs)) === 1;
    } catch (error) {
      return `shard ${lease.shard}: ${messageOf(error)}`;
    }
    // Once the deadline has passed the lease is lost locally for good, even if this reply says Redis still had it.
    if (this.leases.get(lease.shard) !== lease || now() >= lease.deadline) return undefined;
    if (renewed) lease.deadline = Math.max(lease.deadline, this.deadlineFrom(sentAt));
    else this.dropLost(lease, 'its lease is gone from Redis or held by another worker');
    return undefined;
  }

  private async rebalance(): Promise<void> {
    if (this.state !== 'running') return;
    const liveWorkers = await this.readLiveWorkers();
    if (liveWorkers === undefined) return;
    const target = targetShareOf(this.workerId, liveWorkers, this.shardCount);
    const kept = [...this.leases.values()].filter((lease) => lease.handOver === undefined);
    if (kept.length > target) await this.releaseSurplus(kept, kept.length - target);
    else if (kept.length < target) await this.acquireFreeShards(target - kept.length, liveWorkers);
  }

  private async readLiveWorkers(): Promise<string[] | undefined> {
    try {
      const members = await this.redis.eval(LIVE_MEMBERS_SCRIPT, 1, this.keys.members);
      return Array.isArray(members) ? members.map(String) : [];
    } catch (error) {
      this.logger.warn(`shard ownership: reading live workers failed, retrying: ${messageOf(error)}`);
      return undefined;
    }
  }

  private async releaseSurplus(kept: Lease[], surplus: number): Promise<void> {
    const highestFirst = [...kept].sort((a, b) => b.shard - a.shard);
    await Promise.all(highestFirst.slice(0, surplus).map((lease) => this.handOver(lease, 'rebalance')));
  }

  private async acquireFreeShards(wanted: number, liveWorkers: readonly string[]): Promise<void> {
    let leaseValues: (string | null)[];
    try {
      leaseValues = await this.redis.mget(this.allShards().map((shard) => this.keys.lease(shard)));
    } catch (error) {
      this.logger.warn(`shard ownership: reading leases failed, retrying: ${messageOf(error)}`);
      return;
    }
    const free = this.rotatedForThisWorker(liveWorkers).filter((shard) => leaseValues[shard] === null && !this.leases.has(shard));
    await Promise.all(free.slice(0, wanted).map((shard) => this.tryAcquire(shard)));
  }

  /** All shards, starting where this worker's slice of an even split would begin, so workers that start together rarely collide. */
  private rotatedForThisWorker(liveWorkers: readonly string[]): number[] {
    const sorted = [...new Set([...liveWorkers, this.workerId])].sort();
    const start = Math.floor((sorted.indexOf(this.workerId) * this.shardCount) / sorted.length);
    return this.allShards().map((offset) => (start + offset) % this.shardCount);
  }

  private async tryAcquire(shard: number): Promise<void> {
    const sentAt = now();
    let reply: unknown;
    try {
      reply = await this.redis.eval(ACQUIRE_SCRIPT, 2, this.keys.lease(shard), this.keys.token(shard), this.workerId, this.leaseMs);
    } catch (error) {
      this.logger.warn(`shard ownership: acquiring shard ${shard} failed, retrying: ${messageOf(error)}`);
      return;
    }
    if (typeof reply !== 'number') return;
    const lease: Lease = {
      shard,
      token: reply,
      value: `${this.workerId}:${reply}`,
      deadline: this.deadlineFrom(sentAt),
      handOver: undefined,
      expiryTimer: undefined,
    };
    // A reply that arrives after stop() began, or too late to be trusted, must not start anything: give the lease straight back.
    if (this.state !== 'running' || now() >= lease.deadline) {
      await this.deleteLease(lease);
      return;
    }
    this.leases.set(shard, lease);
    this.armExpiry(lease);
    this.logger.log(`shard ownership: acquired shard ${shard} (fencing token ${lease.token})`);
    this.track(this.callListener(shard, () => this.listener.acquired(shard, lease.token)));
  }

  /** Voluntary: lost() is awaited while the lease is still renewed, then the lease is forgotten and deleted if still ours. */
  private handOver(lease: Lease, reason: 'rebalance' | 'stopping'): Promise<void> {
    lease.handOver ??= this.callListener(lease.shard, () => this.listener.lost(lease.shard, reason)).then(async () => {
      this.forget(lease);
      await this.deleteLease(lease);
      this.logger.log(`shard ownership: released shard ${lease.shard} (${reason})`);
    });
    return lease.handOver;
  }

  /** Involuntary: the lease may already belong to someone else, so nothing may wait before the local belief ends. */
  private dropLost(lease: Lease, why: string): void {
    if (this.leases.get(lease.shard) !== lease) return;
    this.forget(lease);
    this.logger.warn(`shard ownership: lost shard ${lease.shard}: ${why}`);
    if (lease.handOver) return; // lost() is already running for the handover
    const lostThenRelease = this.callListener(lease.shard, () => this.listener.lost(lease.shard, 'expired')).then(() =>
      // Frees the shard early if the lease is in fact still ours (slow Redis rather than a dead one).
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

  private async deleteLease(lease: Lease): Promise<void> {
    const deletion = this.redis.eval(RELEASE_SCRIPT, 1, this.keys.lease(lease.shard), lease.value).catch((error: unknown) => {
      this.logger.warn(`shard ownership: releasing shard ${lease.shard} failed, it will expire: ${messageOf(error)}`);
    });
    // Bounded: an unreachable Redis must not stall a handover or shutdown, and the lease expires by itself anyway.
    await settleWithin(deletion, this.stopTimeoutMs());
  }

  private async deregister(): Promise<void> {
    const removal = this.redis
      .multi()
      .del(this.keys.worker(this.workerId))
      .zrem(this.keys.members, this.workerId)
      .exec()
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

  /** While the connection is down a call cannot succeed before it reconnects: waiting for it would only delay a shutdown. */
  private stopTimeoutMs(): number {
    return DISCONNECTED.has(this.redis.status) ? 0 : Math.min(this.leaseMs, STOP_REDIS_TIMEOUT_MS);
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
