import { Inject, Injectable, Logger, type OnModuleDestroy } from '@nestjs/common';
import { APP_CONFIG, type AppConfig } from '@app/config';
import { NetworkMessageRepository, WebhookDeliveryRepository } from '@app/database';
import { WebhookQueue } from '@app/redis';

const EVERY_MS = 5_000;
/** A pending attempt this late has lost its job (Redis flushed, or a worker died holding it past BullMQ's stall check). */
const OVERDUE_AFTER_MS = 20_000;
const BATCH = 1_000;
const PRUNE_EVERY_MS = 10 * 60_000;
const PRUNE_BATCH = 10_000;

/**
 * Keeps webhook delivery honest against Redis: re-queues overdue attempts from PostgreSQL (job ids dedupe against
 * jobs that still exist), and prunes the event log and the real network's kept messages past the event retention.
 * Every worker runs it; both are idempotent.
 */
@Injectable()
export class DeliveryReconciler implements OnModuleDestroy {
  private readonly logger = new Logger(DeliveryReconciler.name);
  private timer: NodeJS.Timeout | undefined;
  private running = false;
  private lastPruneAt = 0;

  constructor(
    @Inject(APP_CONFIG) private readonly config: AppConfig,
    private readonly deliveries: WebhookDeliveryRepository,
    private readonly queue: WebhookQueue,
    private readonly networkMessages: NetworkMessageRepository,
  ) {}

  start(): void {
    this.timer ??= setInterval(() => void this.sweep(), EVERY_MS);
    this.timer.unref();
  }

  stop(): void {
    if (this.timer) clearInterval(this.timer);
    this.timer = undefined;
  }

  onModuleDestroy(): void {
    this.stop();
  }

  async sweep(): Promise<void> {
    if (this.running) return;
    this.running = true;
    try {
      const overdue = await this.deliveries.overdue(OVERDUE_AFTER_MS, BATCH);
      if (overdue.length > 0) {
        this.logger.log(`re-queueing ${overdue.length} overdue webhook attempt(s)`);
        await this.queue.schedule(overdue);
      }
      if (Date.now() - this.lastPruneAt >= PRUNE_EVERY_MS) await this.prune();
    } catch (error) {
      this.logger.warn(`webhook reconcile failed: ${(error as Error).message}`);
    } finally {
      this.running = false;
    }
  }

  private async prune(): Promise<void> {
    this.lastPruneAt = Date.now();
    const cutoff = new Date(Date.now() - this.config.eventRetentionHours * 3600_000);
    let removed = 0;
    for (;;) {
      const batch = await this.deliveries.pruneEvents(cutoff, PRUNE_BATCH);
      removed += batch;
      if (batch < PRUNE_BATCH) break;
    }
    if (removed > 0) this.logger.log(`pruned ${removed} event(s) older than ${this.config.eventRetentionHours} h`);
    const messages = await this.networkMessages.prune(cutoff);
    if (messages > 0) this.logger.log(`pruned ${messages} kept network message(s) older than ${this.config.eventRetentionHours} h`);
  }
}
