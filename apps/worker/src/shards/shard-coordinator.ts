import { randomUUID } from 'node:crypto';
import { hostname } from 'node:os';
import { Inject, Injectable, Logger } from '@nestjs/common';
import { APP_CONFIG, type AppConfig } from '@app/config';
import { StartupGate, type ShutdownDeadline } from '@app/observability';
import { shardMembersKey } from '@app/contracts';
import { ShardLeaseRepository } from '@app/database';
import { CommandServer, RedisService } from '@app/redis';
import { SendDispatcher } from '../dispatch/send-dispatcher';
import { SendQueueConsumers } from '../dispatch/send-queue-consumers';
import { SendReconciler } from '../dispatch/send-reconciler';
import { CommandRouter } from '../sessions/command-router';
import { InstanceSessions } from '../sessions/instance-sessions';
import { ShardLeaseCheck } from './shard-lease-check';
import { ShardOwnership } from './shard-ownership';
import { ShardMetrics } from './shard-metrics';

/** Time kept after the sends in progress for closing sessions and releasing leases. */
const HANDOVER_RESERVE_MS = 2_000;
/** The send consumer (and the command channel) are closed without waiting for jobs; this only bounds waiting for Redis. */
const CONSUMERS_CLOSE_WAIT_MS = 500;

/** Ties shard leases to the work: an acquired shard gets its sessions and command channel, a lost one gives them up first. */
const SHARD_SPACE_CHECK = 'shard space check';

@Injectable()
export class ShardCoordinator {
  private readonly logger = new Logger(ShardCoordinator.name);
  readonly workerId = `${hostname()}-${process.pid}-${randomUUID().slice(0, 8)}`;
  private ownership: ShardOwnership | undefined;

  constructor(
    @Inject(APP_CONFIG) private readonly config: AppConfig,
    private readonly leases: ShardLeaseRepository,
    private readonly redis: RedisService,
    private readonly sessions: InstanceSessions,
    private readonly commands: CommandServer,
    private readonly router: CommandRouter,
    private readonly dispatcher: SendDispatcher,
    private readonly consumers: SendQueueConsumers,
    private readonly reconciler: SendReconciler,
    private readonly lease: ShardLeaseCheck,
    private readonly metrics: ShardMetrics,
    private readonly startup: StartupGate,
  ) {
    metrics.countOwned(() => this.owned().length);
    // Held from construction, before the HTTP port opens: a worker that refuses its start below is never seen as ready.
    startup.hold(SHARD_SPACE_CHECK);
  }

  async start(): Promise<void> {
    await this.refuseBesideRedisLeaseWorkers();
    await this.adoptShardSpace();
    // Past the checks that refuse a start; taking leases and resuming sessions is what /health/serving waits for.
    this.startup.release(SHARD_SPACE_CHECK);
    // Both addressed to this worker, not to its shards: a doorbell or command for a shard it does not hold is passed on
    // or answered "not mine", so they can open before the first lease and stay open across every rebalance.
    this.commands.setHandler((request) => this.router.handle(request));
    await this.commands.serve(this.workerId);
    this.consumers.start(this.workerId);
    this.ownership = new ShardOwnership(
      {
        store: this.metrics.observed(this.leases),
        workerId: this.workerId,
        shardCount: this.config.shardCount,
        leaseMs: this.config.shardLeaseMs,
        logger: { log: (message) => this.logger.log(message), warn: (message) => this.logger.warn(message) },
      },
      {
        acquired: async (shard) => {
          this.lease.acquired(shard);
          await this.sessions.openShard(shard);
        },
        lost: async (shard, reason) => {
          this.metrics.lost(reason);
          // Nothing here waits on Redis: the sessions must close (fencing) whatever Redis does. From here on doorbells and
          // commands for the shard are passed on or answered "not mine"; drains see the shard as released and stop after
          // the send in progress, which finishes before the sessions close and the lease goes.
          this.lease.beginHandover(shard);
          // PostgreSQL refused a write under this shard's token: another worker holds it now. Its sessions close first,
          // at once: nothing they do could be recorded, and two live sockets for one identity is what fencing prevents.
          if (reason === 'fenced') await this.sessions.closeShard(shard);
          await this.dispatcher.idle(shard);
          await this.sessions.closeShard(shard);
        },
      },
    );
    this.lease.follow(this.ownership);
    await this.ownership.start();
    this.reconciler.start(() => this.owned());
  }

  /**
   * The in-place upgrade of the shard space (e.g. 16 → 4,096): re-shards the instances if they were sharded with another
   * count. It refuses while workers of the old count hold leases (the process exits; stop them first, README Operations).
   * The per-shard send queues of earlier builds (`{send-3}`) are left unread: their jobs were doorbells for rows that
   * PostgreSQL holds, which the owners drain when their sessions open.
   */
  private async adoptShardSpace(): Promise<void> {
    const adoption = await this.leases.adoptShardCount(this.config.shardCount);
    if (adoption.previousCount === this.config.shardCount) return;
    this.logger.log(
      `shard space: ${this.config.shardCount} shards adopted (was ${adoption.previousCount ?? 'unrecorded'}); ${adoption.movedInstances} instances re-sharded`,
    );
  }

  owned(): number[] {
    return this.ownership?.owned() ?? [];
  }

  /**
   * Builds before PostgreSQL leases kept shard leases in Redis; such a worker would not see this one's leases, and both
   * would run the same identities. Their membership set (`<prefix>:shards:members`, scores = Redis time at which each
   * member lapses) tells whether one is still alive: then this worker refuses to start (README, Operations: stop every
   * old worker first). Unreadable Redis is not a reason to stay down; it is logged.
   */
  private async refuseBesideRedisLeaseWorkers(): Promise<void> {
    let alive: string[];
    try {
      const [seconds, micros] = await this.redis.client.time();
      const nowMs = Number(seconds) * 1000 + Math.floor(Number(micros) / 1000);
      alive = await this.redis.client.zrangebyscore(shardMembersKey(this.config.queuePrefix), `(${nowMs}`, '+inf');
    } catch (error) {
      this.logger.warn(`could not check for workers with Redis shard leases: ${(error as Error).message}`);
      return;
    }
    if (alive.length > 0)
      throw new Error(
        `workers of an older build (shard leases in Redis) are still running: ${alive.join(', ')}; stop them before starting this version`,
      );
  }

  /**
   * Graceful handover within the shutdown deadline: stop taking sends at once, let only the sends in progress finish,
   * then close sessions and release leases so the next owner starts without waiting for them to expire. If a send is
   * still in progress when its share of the time is up, the leases are kept until the process exits and then expire:
   * releasing them early could let the next owner send that message while this process still might.
   */
  async stop(deadline: ShutdownDeadline): Promise<void> {
    this.dispatcher.stop();
    const consumersClosed = this.consumers.stopAll();
    const handoverReserveMs = Math.min(HANDOVER_RESERVE_MS, deadline.remainingMs() / 4);
    if (!(await deadline.settles(this.dispatcher.idle(), handoverReserveMs))) {
      this.logger.warn(
        'sends still in progress at the deadline: their shards are left to expire and the next owner sends what was not recorded',
      );
      return;
    }
    await deadline.settlesWithin(consumersClosed, CONSUMERS_CLOSE_WAIT_MS);
    await this.ownership?.stop();
    await deadline.settlesWithin(this.commands.stopServing(), CONSUMERS_CLOSE_WAIT_MS);
    await this.sessions.closeAll();
  }
}
