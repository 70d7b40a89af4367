import { Inject, Injectable, Logger, type OnModuleDestroy } from '@nestjs/common';
import { Queue } from 'bullmq';
import { Gauge } from 'prom-client';
import { APP_CONFIG, type AppConfig } from '@app/config';
import { WEBHOOK_QUEUE, workerSendQueueName } from '@app/contracts';
import { CachedReading, MetricsRegistry } from '@app/observability';
import { RedisService } from '@app/redis';
import { ShardCoordinator } from '../shards/shard-coordinator';

/** The BullMQ states exported, as `getJobCounts` names them. */
const STATES = ['wait', 'active', 'delayed', 'prioritized', 'failed'] as const;
type Counts = Record<'send' | 'webhooks', Record<string, number>>;
const MAX_AGE_MS = 5_000;
/** A scrape never waits longer than this for Redis: it answers with the last counts. */
const WAIT_MS = 1_000;

/**
 * Job counts of this worker's send queue (`queue="send"`; sum over workers) and of the shared webhook queue
 * (`queue="webhooks"`, the same in every worker: aggregate with max()), as BullMQ's own exporter names them
 * (`bullmq_job_count{queue,state}`). The queue label is the queue's role, not its Redis name: a send queue is named
 * after its worker's id, which changes with every restart, and would make a new series each time.
 */
@Injectable()
export class QueueMetrics implements OnModuleDestroy {
  private readonly logger = new Logger(QueueMetrics.name);
  private readonly queues: Record<'send' | 'webhooks', Queue>;

  constructor(@Inject(APP_CONFIG) config: AppConfig, redis: RedisService, metrics: MetricsRegistry, coordinator: ShardCoordinator) {
    const connection = redis.connect('queue-metrics', { enableOfflineQueue: false, maxRetriesPerRequest: 1 });
    this.queues = {
      send: new Queue(workerSendQueueName(coordinator.workerId), { connection, prefix: config.queuePrefix }),
      webhooks: new Queue(WEBHOOK_QUEUE, { connection, prefix: config.queuePrefix }),
    };
    for (const queue of Object.values(this.queues)) queue.on('error', () => undefined);
    const reading = new CachedReading<Counts>(() => this.read(), {
      maxAgeMs: MAX_AGE_MS,
      waitMs: WAIT_MS,
      onError: (error) => this.logger.warn(`queue counts not read for /metrics (last values kept): ${error.message}`),
    });
    new Gauge({
      name: 'bullmq_job_count',
      help: "Jobs by queue (send: this worker's; webhooks: shared, aggregate with max()) and state",
      labelNames: ['queue', 'state'] as const,
      registers: [metrics.registry],
      async collect() {
        const counts = await reading.get();
        if (!counts) return;
        for (const [queue, byState] of Object.entries(counts)) for (const state of STATES) this.set({ queue, state }, byState[state] ?? 0);
      },
    });
  }

  private async read(): Promise<Counts> {
    const [send, webhooks] = await Promise.all([this.queues.send.getJobCounts(...STATES), this.queues.webhooks.getJobCounts(...STATES)]);
    return { send, webhooks };
  }

  async onModuleDestroy(): Promise<void> {
    await Promise.all(Object.values(this.queues).map((queue) => queue.close().catch(() => undefined)));
  }
}
