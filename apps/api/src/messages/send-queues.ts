import { Inject, Injectable, Logger, type OnModuleDestroy } from '@nestjs/common';
import { Queue } from 'bullmq';
import { APP_CONFIG, type AppConfig } from '@app/config';
import { JOB_NAMES, SEND_JOB_OPTIONS, sendQueueName, shardOf, type SendJob } from '@app/contracts';
import { RedisService, type RedisConnection } from '@app/redis';

interface Doorbell {
  job: SendJob;
  done: () => void;
}

/** Producer side of the per-shard send queues. */
@Injectable()
export class SendQueues implements OnModuleDestroy {
  private readonly logger = new Logger(SendQueues.name);
  private readonly queues = new Map<number, Queue<SendJob>>();
  private connection: RedisConnection | undefined;
  private readonly pending = new Map<number, Doorbell[]>();
  private flushScheduled = false;

  constructor(
    @Inject(APP_CONFIG) private readonly config: AppConfig,
    private readonly redis: RedisService,
  ) {}

  /**
   * Rings the owning worker. A failure here loses nothing: the message row is already committed and the
   * worker's reconciler finds it, so the request still succeeds. Doorbells rung in the same turn of the event loop
   * (the accepts of one group commit) go to Redis together, one `addBulk` per shard, each job still with its message
   * id as job id.
   */
  notify(instanceId: string, messageId: string): Promise<void> {
    return new Promise<void>((done) => {
      const shard = shardOf(instanceId, this.config.shardCount);
      let doorbells = this.pending.get(shard);
      if (!doorbells) {
        doorbells = [];
        this.pending.set(shard, doorbells);
      }
      doorbells.push({ job: { instanceId, messageId }, done });
      if (!this.flushScheduled) {
        this.flushScheduled = true;
        setImmediate(() => this.flush());
      }
    });
  }

  private flush(): void {
    this.flushScheduled = false;
    const batches = [...this.pending];
    this.pending.clear();
    for (const [shard, doorbells] of batches) void this.ring(shard, doorbells);
  }

  private async ring(shard: number, doorbells: Doorbell[]): Promise<void> {
    try {
      const queue = this.queueFor(shard);
      if (doorbells.length === 1) {
        const [{ job }] = doorbells;
        await queue.add(JOB_NAMES.send, job, { jobId: job.messageId, ...SEND_JOB_OPTIONS });
      } else {
        await queue.addBulk(
          doorbells.map(({ job }) => ({ name: JOB_NAMES.send, data: job, opts: { jobId: job.messageId, ...SEND_JOB_OPTIONS } })),
        );
      }
    } catch (error) {
      const what = doorbells.length === 1 ? `send job for ${doorbells[0].job.messageId}` : `${doorbells.length} send jobs`;
      this.logger.warn(`${what} not queued (the reconciler will pick them up): ${(error as Error).message}`);
    } finally {
      for (const { done } of doorbells) done();
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
