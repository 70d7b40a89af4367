import { Injectable, Logger, type OnModuleDestroy } from '@nestjs/common';
import { WebhookDeliveryRepository } from '@app/database';
import { WebhookQueue } from '@app/redis';

const EVERY_MS = 5_000;
/** A pending attempt this late has lost its job (Redis flushed, or a worker died holding it past BullMQ's stall check). */
const OVERDUE_AFTER_MS = 20_000;
const BATCH = 1_000;

/**
 * Keeps webhook delivery honest against Redis: re-queues overdue attempts from PostgreSQL (job ids dedupe against
 * jobs that still exist). Every worker runs it; it is idempotent. (Retention is `RetentionJob`'s, by partition.)
 */
@Injectable()
export class DeliveryReconciler implements OnModuleDestroy {
  private readonly logger = new Logger(DeliveryReconciler.name);
  private timer: NodeJS.Timeout | undefined;
  private running = false;

  constructor(
    private readonly deliveries: WebhookDeliveryRepository,
    private readonly queue: WebhookQueue,
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
    } catch (error) {
      this.logger.warn(`webhook reconcile failed: ${(error as Error).message}`);
    } finally {
      this.running = false;
    }
  }
}
