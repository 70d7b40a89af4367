import { Inject, Injectable, Logger } from '@nestjs/common';
import { APP_CONFIG, type AppConfig } from '@app/config';
import { eventAnnouncement, eventsChannel, type EventEnvelope } from '@app/contracts';
import type { StoredEvent } from '@app/database';
import { RedisService, WebhookQueue } from '@app/redis';
import { SinkPublisher } from '../sinks/sink-publisher';
import { WebhookDeliverer } from '../webhooks/webhook-deliverer';

interface Pending {
  /** Per instance, the committed events to deliver by webhook and the URL they were committed for. */
  deliveries: Map<string, { url: string; envelopes: EventEnvelope[] }>;
  announcements: string[];
  waiters: (() => void)[];
}

/**
 * After an event is committed: start its webhook delivery (when it is to be delivered) and wake pull-mode streams. The
 * first attempt is made here when the receiver has room (`WebhookDeliverer.attemptCommitted`); the rest ring the
 * webhook queue. What is committed in one turn of the event loop (the outcomes of one group commit, events of many
 * instances) goes to Redis together: one `addBulk` and one pipeline of announcements, instead of a round trip or two
 * per event.
 */
@Injectable()
export class EventFanout {
  private readonly logger = new Logger(EventFanout.name);
  private pending: Pending | undefined;

  constructor(
    @Inject(APP_CONFIG) private readonly config: AppConfig,
    private readonly redis: RedisService,
    private readonly webhooks: WebhookQueue,
    private readonly deliverer: WebhookDeliverer,
    private readonly sinks: SinkPublisher,
  ) {}

  /**
   * Resolves once the jobs and announcements are in Redis (or failed there: the reconcilers and the streams' polling cover
   * that). With `sink`, the events were committed with sink deliveries: the instance's sink publisher is woken.
   */
  committed(instanceId: string, events: StoredEvent[], webhookUrl: string | null, sink = false): Promise<void> {
    if (events.length === 0) return Promise.resolve();
    if (sink) this.sinks.committed(instanceId);
    return new Promise<void>((resolve) => {
      if (!this.pending) {
        this.pending = { deliveries: new Map(), announcements: [], waiters: [] };
        setImmediate(() => void this.flush());
      }
      const pending = this.pending;
      if (webhookUrl !== null) {
        const deliveries = pending.deliveries.get(instanceId) ?? { url: webhookUrl, envelopes: [] };
        for (const event of events) deliveries.envelopes.push(event.envelope);
        pending.deliveries.set(instanceId, deliveries);
      }
      for (const event of events) pending.announcements.push(eventAnnouncement(instanceId, event.seq));
      pending.waiters.push(resolve);
    });
  }

  private async flush(): Promise<void> {
    const batch = this.pending;
    this.pending = undefined;
    if (!batch) return;
    try {
      const channel = eventsChannel(this.config.queuePrefix);
      // One channel, so one slot on a cluster: the pipeline's commands all go to one node there too.
      const pipeline = this.redis.client.pipeline();
      const publish = this.redis.isCluster ? 'spublish' : 'publish';
      for (const announcement of batch.announcements) pipeline[publish](channel, announcement);
      await Promise.all([
        this.deliver(batch.deliveries),
        // Streams also poll the log, so a lost announcement only delays them.
        pipeline.exec().catch((error: Error) => this.logger.debug(`event announcement failed: ${error.message}`)),
      ]);
    } finally {
      for (const waiter of batch.waiters) waiter();
    }
  }

  private async deliver(deliveries: Pending['deliveries']): Promise<void> {
    const queued = [...deliveries].flatMap(([instanceId, { url, envelopes }]) =>
      // Not attempted here (no room, or shutting down): the queue takes them (and the reconciler covers a lost job).
      this.deliverer.attemptCommitted(instanceId, url, envelopes),
    );
    await this.webhooks.schedule(queued.map((envelope) => ({ eventId: envelope.eventId, attempts: 0 })));
  }
}
