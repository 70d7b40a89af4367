import { Injectable, Logger } from '@nestjs/common';
import { passesEventFilters, type EventType, type NormalisedEvent } from '@app/contracts';
import { EventLogRepository, type Fence } from '@app/database';
import { EventFanout } from '../events/event-fanout';
import { EventRoutingCache } from '../events/event-routing.cache';

/** The single entry point from network happenings to the gateway's event log (and from there to webhooks and streams). */
@Injectable()
export class EventRecorder {
  private readonly logger = new Logger(EventRecorder.name);

  constructor(
    private readonly log: EventLogRepository,
    private readonly routing: EventRoutingCache,
    private readonly fanout: EventFanout,
  ) {}

  async record(instanceId: string, eventType: EventType, eventData: Record<string, unknown>): Promise<void> {
    await this.recordMany(instanceId, [{ eventType, data: eventData } as NormalisedEvent]);
  }

  /**
   * Events of one instance, in the order they happened: appended in that order in one commit. With the session's `fence`,
   * PostgreSQL appends them only while that shard lease is current (FencedOutError otherwise).
   */
  async recordMany(instanceId: string, events: NormalisedEvent[], fence?: Fence): Promise<void> {
    const routing = await this.routing.get(instanceId);
    if (!routing) {
      this.logger.warn({ instanceId, eventTypes: events.map((event) => event.eventType) }, 'event for a deleted instance dropped');
      return;
    }
    // docs/decisions.md, Events: a filtered event is dropped, not stored.
    const kept = events.filter((event) => passesEventFilters(event.eventType, routing.eventFilters));
    if (kept.length === 0) return;
    const deliver = routing.webhookUrl !== null;
    const sink = routing.sink !== null;
    const stored = await this.log.appendMany(
      instanceId,
      kept.map((event) => ({ eventType: event.eventType, data: event.data })),
      { deliver, sink, fence },
    );
    if (!stored) {
      this.logger.warn({ instanceId, eventTypes: kept.map((event) => event.eventType) }, 'event for a deleted instance dropped');
      return;
    }
    await this.fanout.committed(instanceId, stored, routing.webhookUrl, sink);
  }
}
