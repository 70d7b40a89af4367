import { Inject, Injectable, Logger } from '@nestjs/common';
import { Worker } from 'bullmq';
import { APP_CONFIG, type AppConfig } from '@app/config';
import { sendQueueName, type SendJob } from '@app/contracts';
import { RedisService, type RedisConnection } from '@app/redis';
import { SendDispatcher } from './send-dispatcher';

/** One BullMQ consumer per owned shard: a send job only rings the instance's doorbell. */
@Injectable()
export class SendQueueConsumers {
  private readonly logger = new Logger(SendQueueConsumers.name);
  private readonly workers = new Map<number, Worker<SendJob>>();
  private connection: RedisConnection | undefined;

  constructor(
    @Inject(APP_CONFIG) private readonly config: AppConfig,
    private readonly redis: RedisService,
    private readonly dispatcher: SendDispatcher,
  ) {}

  start(shard: number): void {
    if (this.workers.has(shard)) return;
    this.connection ??= this.redis.connect('send-consumers', { maxRetriesPerRequest: null });
    const worker = new Worker<SendJob>(sendQueueName(shard), (job) => this.dispatcher.kick(job.data.instanceId), {
      connection: this.connection,
      prefix: this.config.queuePrefix,
      // Jobs for one instance join the same drain, so a high number only lets more instances proceed at once.
      concurrency: 64,
    });
    worker.on('error', (error) => this.logger.warn(`send queue ${shard}: ${error.message}`));
    this.workers.set(shard, worker);
  }

  async stop(shard: number): Promise<void> {
    const worker = this.workers.get(shard);
    this.workers.delete(shard);
    await worker?.close();
  }

  /**
   * Shutdown: stops every consumer without waiting for its jobs. A job only kicks a drain that PostgreSQL feeds, so a
   * job left active is harmless: the next owner drains the instance when its session opens.
   */
  async stopAll(): Promise<void> {
    const workers = [...this.workers.values()];
    this.workers.clear();
    await Promise.all(workers.map((worker) => worker.close(true)));
  }
}
