import { Inject, Injectable, Logger } from '@nestjs/common';
import { APP_CONFIG, type AppConfig } from '@app/config';
import { eventAnnouncement, eventsChannel } from '@app/contracts';
import type { StoredEvent } from '@app/database';
import { RedisService, WebhookQueue } from '@app/redis';

/** After an event is committed: ring the webhook queue (when it is to be delivered) and wake pull-mode streams. */
@Injectable()
export class EventFanout {
  private readonly logger = new Logger(EventFanout.name);

  constructor(
    @Inject(APP_CONFIG) private readonly config: AppConfig,
    private readonly redis: RedisService,
    private readonly webhooks: WebhookQueue,
  ) {}

  async committed(instanceId: string, events: StoredEvent[], delivered: boolean): Promise<void> {
    if (events.length === 0) return;
    if (delivered) await this.webhooks.schedule(events.map((event) => ({ eventId: event.envelope.eventId, attempts: 0 })));
    const channel = eventsChannel(this.config.queuePrefix);
    const pipeline = this.redis.client.pipeline();
    for (const event of events) pipeline.publish(channel, eventAnnouncement(instanceId, event.seq));
    // Streams also poll the log, so a lost announcement only delays them.
    await pipeline.exec().catch((error: Error) => this.logger.debug(`event announcement failed: ${error.message}`));
  }
}
