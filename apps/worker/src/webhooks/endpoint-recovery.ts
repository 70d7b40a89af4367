import { Inject, Injectable, Logger } from '@nestjs/common';
import { APP_CONFIG, type AppConfig } from '@app/config';
import { WebhookDeliveryRepository } from '@app/database';
import { RedisService, WebhookQueue } from '@app/redis';

/** Longer than any retry delay may be (the schedule's largest step plus its jitter, or a day of Retry-After). */
function flagTtlMs(config: AppConfig): number {
  return Math.ceil(Math.max(...config.webhookRetryScheduleSeconds, 24 * 3600) * 1000 * 1.15) + 3_600_000;
}

/**
 * Circuit-breaker recovery (docs/decisions.md, Webhook delivery): when an instance's endpoint answers 2xx again, its
 * other deliveries waiting out a backoff are due at once, oldest event first; the per-URL slots then pace them. A Redis
 * flag, set whenever a retry is scheduled and taken by the first 2xx after it, keeps the common case (a healthy
 * endpoint) to one DEL per delivery, and works across workers. Losing the flag (Redis flushed) only means the backoff
 * runs its course.
 */
@Injectable()
export class EndpointRecovery {
  private readonly logger = new Logger(EndpointRecovery.name);
  private readonly ttlMs: number;
  /** Instances whose deliveries answered 2xx in this turn of the event loop, and the one check each of them gets. */
  private deliveredNow: Map<string, { resolve: (taken: boolean) => void; check: Promise<void> }> | undefined;

  constructor(
    @Inject(APP_CONFIG) config: AppConfig,
    private readonly redis: RedisService,
    private readonly deliveries: WebhookDeliveryRepository,
    private readonly queue: WebhookQueue,
  ) {
    this.ttlMs = flagTtlMs(config);
  }

  /** A delivery of the instance failed and waits for its next attempt. */
  async backingOff(instanceId: string): Promise<void> {
    try {
      await this.redis.client.set(this.flag(instanceId), '1', 'PX', this.ttlMs);
    } catch (error) {
      this.logger.warn(`${instanceId}: backoff not noted, recovery will wait for the schedule: ${(error as Error).message}`);
    }
  }

  /**
   * A delivery of the instance answered 2xx: if others are backing off, release them now. The 2xx answers of one turn
   * of the event loop share one DEL per instance, sent together as one pipeline (the flag is taken once, so there is
   * one release to make), instead of a Redis round trip per delivery.
   */
  delivered(instanceId: string): Promise<void> {
    if (!this.deliveredNow) {
      const batch = new Map<string, { resolve: (taken: boolean) => void; check: Promise<void> }>();
      this.deliveredNow = batch;
      setImmediate(() => void this.takeFlags(batch));
    }
    let entry = this.deliveredNow.get(instanceId);
    if (!entry) {
      let resolve: (taken: boolean) => void = () => undefined;
      const taken = new Promise<boolean>((settle) => (resolve = settle));
      entry = { resolve, check: taken.then((wasBackingOff) => (wasBackingOff ? this.release(instanceId) : undefined)) };
      this.deliveredNow.set(instanceId, entry);
    }
    return entry.check;
  }

  private async takeFlags(batch: Map<string, { resolve: (taken: boolean) => void }>): Promise<void> {
    if (this.deliveredNow === batch) this.deliveredNow = undefined;
    // A failed DEL counts as no flag: the backoff then runs its course.
    const removed = await this.redis.deleteEach([...batch.keys()].map((instanceId) => this.flag(instanceId)));
    [...batch.values()].forEach((entry, index) => entry.resolve(removed[index] === true));
  }

  private async release(instanceId: string): Promise<void> {
    try {
      const released = await this.deliveries.releaseWaiting(instanceId);
      if (released.length === 0) return;
      this.logger.log(`${instanceId}: endpoint answered again, releasing ${released.length} waiting deliveries`);
      await this.queue.runNowMany(released);
    } catch (error) {
      // The waiting deliveries keep their schedule (and the reconciler re-queues any whose job went missing).
      this.logger.warn(`${instanceId}: waiting deliveries not released: ${(error as Error).message}`);
    }
  }

  private flag(instanceId: string): string {
    return this.redis.key('webhooks', 'backoff', instanceId);
  }
}
