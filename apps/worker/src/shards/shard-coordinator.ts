import { randomUUID } from 'node:crypto';
import { hostname } from 'node:os';
import { Inject, Injectable, Logger } from '@nestjs/common';
import { APP_CONFIG, type AppConfig } from '@app/config';
import type { ShutdownDeadline } from '@app/observability';
import { CommandServer, RedisService } from '@app/redis';
import { SendDispatcher } from '../dispatch/send-dispatcher';
import { SendQueueConsumers } from '../dispatch/send-queue-consumers';
import { SendReconciler } from '../dispatch/send-reconciler';
import { CommandRouter } from '../sessions/command-router';
import { InstanceSessions } from '../sessions/instance-sessions.service';
import { ShardOwnership } from './shard-ownership';

/** Time kept after the sends in progress for closing sessions and releasing leases. */
const HANDOVER_RESERVE_MS = 2_000;

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
  ) {}

  async start(): Promise<void> {
    const holds = (shard: number) => this.ownership?.holds(shard) ?? false;
    this.commands.setHandler((request) => this.router.handle(request, holds));
    this.dispatcher.setOwnershipCheck(holds);
    this.sessions.setOwnershipCheck(holds);
    const connection = this.redis.connect('shards', { maxRetriesPerRequest: 1 });
    this.ownership = new ShardOwnership(
      {
        redis: connection,
        keyPrefix: this.config.queuePrefix,
        workerId: this.workerId,
        shardCount: this.config.shardCount,
        leaseMs: this.config.shardLeaseMs,
        logger: { log: (message) => this.logger.log(message), warn: (message) => this.logger.warn(message) },
      },
      {
        acquired: async (shard) => {
          await this.commands.serveShard(shard);
          await this.sessions.openShard(shard);
          this.consumers.start(shard);
        },
        lost: async (shard) => {
          await this.consumers.stop(shard);
          await this.commands.stopServingShard(shard);
          await this.sessions.closeShard(shard);
        },
      },
    );
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
      this.logger.warn('sends still in progress at the deadline: their shards are left to expire and the next owner sends what was not recorded');
      return;
    }
    await deadline.settles(consumersClosed, handoverReserveMs);
    await this.ownership?.stop();
    await this.sessions.closeAll();
  }
}
