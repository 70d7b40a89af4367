import { Inject, Injectable, Logger } from '@nestjs/common';
import { APP_CONFIG, type AppConfig } from '@app/config';
import { eventAnnouncement, eventsChannel } from '@app/contracts';
import type { StoredEvent } from '@app/database';
import { RedisService, WebhookQueue } from '@app/redis';

interface Pending {
  jobs: { eventId: string; attempts: number }[];
  announcements: string[];
  waiters: (() => void)[];
}

/**
 * After an event is committed: ring the webhook queue (when it is to be delivered) and wake pull-mode streams. What
 * is committed in one turn of the event loop (the outcomes of one group commit, events of many instances) goes to
 * Redis together: one `addBulk` and one pipeline of announcements, instead of a round trip or two per event.
 */
@Injectable()
export class EventFanout {
  private readonly logger = new Logger(EventFanout.name);
  private pending: Pending | undefined;

  constructor(
    @Inject(APP_CONFIG) private readonly config: AppConfig,
    private readonly redis: RedisService,
    private readonly webhooks: WebhookQueue,
  ) {}

  /** Resolves once the jobs and announcements are in Redis (or failed there: the reconcilers and the streams' polling cover that). */
  committed(instanceId: string, events: StoredEvent[], delivered: boolean): Promise<void> {
    if (events.length === 0) return Promise.resolve();
    return new Promise<void>((resolve) => {
      if (!this.pending) {
        this.pending = { jobs: [], announcements: [], waiters: [] };
        setImmediate(() => void this.flush());
      }
      const pending = this.pending;
      for (const event of events) {
        if (delivered) pending.jobs.push({ eventId: event.envelope.eventId, attempts: 0 });
        pending.announcements.push(eventAnnouncement(instanceId, event.seq));
      }
      pending.waiters.push(resolve);
    });
  }

  private async flush(): Promise<void> {
    const batch = this.pending;
    this.pending = undefined;
    if (!batch) return;
    try {
      const channel = eventsChannel(this.config.queuePrefix);
      const pipeline = this.redis.client.pipeline();
      for (const announcement of batch.announcements) pipeline.publish(channel, announcement);
      await Promise.all([
        this.webhooks.schedule(batch.jobs),
        // Streams also poll the log, so a lost announcement only delays them.
        pipeline.exec().catch((error: Error) => this.logger.debug(`event announcement failed: ${error.message}`)),
      ]);
    } finally {
      for (const waiter of batch.waiters) waiter();
    }
  }
}
