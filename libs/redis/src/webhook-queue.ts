import { Inject, Injectable, Logger, type OnModuleDestroy } from '@nestjs/common';
import { Queue } from 'bullmq';
import { APP_CONFIG, type AppConfig } from '@app/config';
import { JOB_NAMES, WEBHOOK_JOB_OPTIONS, WEBHOOK_QUEUE, webhookJobId, webhookJobOut, type WebhookJob } from '@app/contracts';
import { RedisService } from './redis.service';
import { OutageLog } from './outage-log';

/** Producer side of the webhook queue. Losing a job loses nothing: the delivery row is the record. */
@Injectable()
export class WebhookQueue implements OnModuleDestroy {
  private readonly logger = new Logger(WebhookQueue.name);
  private queue: Queue<WebhookJob> | undefined;

  constructor(
    @Inject(APP_CONFIG) private readonly config: AppConfig,
    private readonly redis: RedisService,
  ) {}

  async schedule(jobs: { eventId: string; attempts: number; delayMs?: number }[]): Promise<void> {
    if (jobs.length === 0) return;
    try {
      await this.producer().addBulk(
        jobs.map(({ eventId, attempts, delayMs }) => ({
          name: JOB_NAMES.deliver,
          data: webhookJobOut({ eventId, attempts }),
          opts: { jobId: webhookJobId(eventId, attempts), delay: Math.max(0, Math.round(delayMs ?? 0)), ...WEBHOOK_JOB_OPTIONS },
        })),
      );
    } catch (error) {
      this.logger.warn(`${jobs.length} webhook job(s) not queued (the reconciler will pick them up): ${(error as Error).message}`);
    }
  }

  /** Runs the next attempt now, replacing a retry still waiting out its delay (an attempt in flight is left alone). */
  async runNow(eventId: string, attempts: number): Promise<void> {
    try {
      await this.producer().remove(webhookJobId(eventId, attempts));
    } catch (error) {
      this.logger.warn(`waiting webhook job for ${eventId} not removed: ${(error as Error).message}`);
    }
    await this.schedule([{ eventId, attempts }]);
  }

  /** `runNow` for many deliveries at once; jobs are queued in the order given. */
  async runNowMany(jobs: { eventId: string; attempts: number }[]): Promise<void> {
    if (jobs.length === 0) return;
    const queue = this.producer();
    const removals = await Promise.allSettled(jobs.map(({ eventId, attempts }) => queue.remove(webhookJobId(eventId, attempts))));
    const failed = removals.filter((removal) => removal.status === 'rejected').length;
    if (failed > 0) this.logger.warn(`${failed} waiting webhook job(s) not removed; they run when due`);
    await this.schedule(jobs);
  }

  private producer(): Queue<WebhookJob> {
    if (!this.queue) {
      const connection = this.redis.connect('webhook-producer', { enableOfflineQueue: false, maxRetriesPerRequest: 1 });
      this.queue = new Queue<WebhookJob>(WEBHOOK_QUEUE, { connection, prefix: this.config.queuePrefix });
      const outage = new OutageLog(this.logger, 'webhook queue producer');
      this.queue.on('error', (error) => outage.error(error));
    }
    return this.queue;
  }

  async onModuleDestroy(): Promise<void> {
    await this.queue?.close();
  }
}
