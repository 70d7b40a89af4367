import { Injectable, Logger } from '@nestjs/common';
import type { EventType } from '@app/contracts';
import { EventLogRepository } from '@app/database';

/** The single entry point from network happenings to the gateway's event log. */
@Injectable()
export class EventRecorder {
  private readonly logger = new Logger(EventRecorder.name);

  constructor(private readonly log: EventLogRepository) {}

  async record(instanceId: string, eventType: EventType, eventData: Record<string, unknown>): Promise<void> {
    const stored = await this.log.append(instanceId, eventType, eventData);
    if (!stored) this.logger.warn({ instanceId, eventType }, 'event for a deleted instance dropped');
  }
}
