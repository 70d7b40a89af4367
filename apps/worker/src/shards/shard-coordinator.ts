import { randomUUID } from 'node:crypto';
import { hostname } from 'node:os';
import { Inject, Injectable, Logger } from '@nestjs/common';
import { APP_CONFIG, type AppConfig } from '@app/config';
import { CommandServer, RedisService } from '@app/redis';
import { SendDispatcher } from '../dispatch/send-dispatcher';
import { SendQueueConsumers } from '../dispatch/send-queue-consumers';
import { SendReconciler } from '../dispatch/send-reconciler';
import { CommandRouter } from '../sessions/command-router';
import { InstanceSessions } from '../sessions/instance-sessions.service';
import { ShardOwnership } from './shard-ownership';

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

  /** Graceful handover: stop taking jobs and commands, finish sends in flight, close sessions, release leases. */
  async stop(): Promise<void> {
    await this.consumers.stopAll();
    await this.dispatcher.idle();
    await this.ownership?.stop();
    await this.sessions.closeAll();
  }
}
