import { randomUUID } from 'node:crypto';
import { hostname } from 'node:os';
import { Inject, Injectable, Logger } from '@nestjs/common';
import { APP_CONFIG, type AppConfig } from '@app/config';
import { shardKeyPrefix } from '@app/contracts';
import type { ShutdownDeadline } from '@app/observability';
import { CommandServer, RedisService } from '@app/redis';
import { SendDispatcher } from '../dispatch/send-dispatcher';
import { SendQueueConsumers } from '../dispatch/send-queue-consumers';
import { SendReconciler } from '../dispatch/send-reconciler';
import { CommandRouter } from '../sessions/command-router';
import { InstanceSessions } from '../sessions/instance-sessions';
import { ShardLeaseCheck } from './shard-lease-check';
import { ShardOwnership } from './shard-ownership';

/** How long a handover waits for Redis to confirm that the shard's queue and command channel stopped. */
const INTAKE_STOP_WAIT_MS = 1_000;

/** Resolves when `work` settles or after `ms`; never rejects. */
async function settleWithin(work: Promise<unknown>, ms: number): Promise<void> {
  let timer: NodeJS.Timeout | undefined;
  await Promise.race([work.then(noop, noop), new Promise<void>((resolve) => (timer = setTimeout(resolve, ms)))]);
  clearTimeout(timer);
}

function noop(): void {}

/** Time kept after the sends in progress for closing sessions and releasing leases. */
const HANDOVER_RESERVE_MS = 2_000;
/** The send consumers are closed without waiting for jobs; this only bounds waiting for Redis to acknowledge. */
const CONSUMERS_CLOSE_WAIT_MS = 500;

/** Ties shard leases to the work: an acquired shard gets its sessions and command channel, a lost one gives them up first. */
@Injectable()
export class ShardCoordinator {
  private readonly logger = new Logger(ShardCoordinator.name);
  readonly workerId = `${hostname()}-${process.pid}-${randomUUID().slice(0, 8)}`;
  private ownership: ShardOwnership | undefined;

  constructor(
    @Inject(APP_CONFIG) private readonly config: AppConfig,
    private readonly redis: RedisService,
    private readonly sessions: InstanceSessions,
    private readonly commands: CommandServer,
    private readonly router: CommandRouter,
    private readonly dispatcher: SendDispatcher,
    private readonly consumers: SendQueueConsumers,
    private readonly reconciler: SendReconciler,
    private readonly lease: ShardLeaseCheck,
  ) {}

  async start(): Promise<void> {
    this.commands.setHandler((request) => this.router.handle(request));
    const connection = this.redis.connect('shards', { maxRetriesPerRequest: 1 });
    this.ownership = new ShardOwnership(
      {
        redis: connection,
        keyPrefix: shardKeyPrefix(this.config.queuePrefix, this.redis.isCluster),
        workerId: this.workerId,
        shardCount: this.config.shardCount,
        leaseMs: this.config.shardLeaseMs,
        logger: { log: (message) => this.logger.log(message), warn: (message) => this.logger.warn(message) },
      },
      {
        acquired: async (shard) => {
          this.lease.acquired(shard);
          await this.commands.serveShard(shard);
          await this.sessions.openShard(shard);
          this.consumers.start(shard);
        },
        lost: async (shard) => {
          // Nothing here may wait on Redis without a bound: Redis being gone is one reason a lease is lost, and the
          // sessions must close (fencing) whatever Redis does. Drains see the shard as released and stop after the send
          // in progress, which finishes before the sessions close and the lease goes.
          this.lease.beginHandover(shard);
          await settleWithin(Promise.all([this.consumers.stop(shard), this.commands.stopServingShard(shard)]), INTAKE_STOP_WAIT_MS);
          await this.dispatcher.idle(shard);
          await this.sessions.closeShard(shard);
        },
      },
    );
    this.lease.follow(this.ownership);
    await this.ownership.start();
    this.reconciler.start(() => this.owned());
  }

  owned(): number[] {
    return this.ownership?.owned() ?? [];
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
    await this.sessions.closeAll();
  }
}
