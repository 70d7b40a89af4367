import { Injectable, Logger } from '@nestjs/common';
import { passesEventFilters, type EventType } from '@app/contracts';
import { EventLogRepository } from '@app/database';
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
    const routing = await this.routing.get(instanceId);
    if (!routing) {
      this.logger.warn({ instanceId, eventType }, 'event for a deleted instance dropped');
      return;
    }
    // decisions.md: a filtered event is dropped, not stored.
    if (!passesEventFilters(eventType, routing.eventFilters)) return;
    const deliver = routing.webhookUrl !== null;
    const stored = await this.log.append(instanceId, eventType, eventData, { deliver });
    if (!stored) {
      this.logger.warn({ instanceId, eventType }, 'event for a deleted instance dropped');
      return;
    }
    await this.fanout.committed(instanceId, [stored], deliver);
  }
}
