import { Inject, Injectable, Logger, type OnModuleDestroy } from '@nestjs/common';
import { Queue } from 'bullmq';
import type { Redis } from 'ioredis';
import { APP_CONFIG, type AppConfig } from '@app/config';
import { JOB_NAMES, SEND_JOB_OPTIONS, sendQueueName, shardOf, type SendJob } from '@app/contracts';
import { RedisService } from '@app/redis';

/** Producer side of the per-shard send queues. */
@Injectable()
export class SendQueues implements OnModuleDestroy {
  private readonly logger = new Logger(SendQueues.name);
  private readonly queues = new Map<number, Queue<SendJob>>();
  private connection: Redis | undefined;

  constructor(
    @Inject(APP_CONFIG) private readonly config: AppConfig,
    private readonly redis: RedisService,
  ) {}

  /**
   * Rings the owning worker. A failure here loses nothing: the message row is already committed and the
   * worker's reconciler finds it, so the request still succeeds.
   */
  async notify(instanceId: string, messageId: string): Promise<void> {
    try {
      await this.queueFor(shardOf(instanceId, this.config.shardCount)).add(
        JOB_NAMES.send,
        { instanceId, messageId },
        { jobId: messageId, ...SEND_JOB_OPTIONS },
      );
    } catch (error) {
      this.logger.warn(`send job for ${messageId} not queued (the reconciler will pick it up): ${(error as Error).message}`);
    }
  }

  private queueFor(shard: number): Queue<SendJob> {
    let queue = this.queues.get(shard);
    if (!queue) {
      // Fail fast while Redis is away instead of holding the HTTP request.
      this.connection ??= this.redis.connect('send-producer', { enableOfflineQueue: false, maxRetriesPerRequest: 1 });
      queue = new Queue<SendJob>(sendQueueName(shard), { connection: this.connection, prefix: this.config.queuePrefix });
      queue.on('error', (error) => this.logger.warn(`send queue ${shard}: ${error.message}`));
      this.queues.set(shard, queue);
    }
    return queue;
  }

  async onModuleDestroy(): Promise<void> {
    await Promise.all([...this.queues.values()].map((queue) => queue.close()));
  }
}
