import { Injectable } from '@nestjs/common';
import type { EventEnvelope, EventType } from '@app/contracts';
import { newEventId } from '@app/contracts';
import { PrismaService } from '../prisma.service';

export interface StoredEvent {
  seq: bigint;
  envelope: EventEnvelope;
}

@Injectable()
export class EventLogRepository {
  constructor(private readonly prisma: PrismaService) {}

  /**
   * Appends an event with the instance's next sequence number in one statement: the counter row is locked only
   * until this statement commits, so concurrent appends of an instance are numbered in commit order. With
   * `deliver`, the event's webhook delivery is created in the same commit, so it cannot be lost in between.
   */
  async append(
    instanceId: string,
    eventType: EventType,
    eventData: Record<string, unknown>,
    options: { deliver: boolean; receivedAt?: Date } = { deliver: false },
  ): Promise<StoredEvent | null> {
    const receivedAt = options.receivedAt ?? new Date();
    const envelope: EventEnvelope = {
      eventId: newEventId(receivedAt.getTime()),
      instanceId,
      eventType,
      receivedAt: receivedAt.toISOString(),
      eventData,
    };
    const rows = await this.prisma.$queryRaw<{ seq: bigint }[]>`
      WITH counter AS (UPDATE instances SET event_seq = event_seq + 1 WHERE id = ${instanceId} RETURNING event_seq),
      appended AS (
        INSERT INTO event_log (id, instance_id, seq, event_type, received_at, data)
        SELECT ${envelope.eventId}, ${instanceId}, event_seq, ${eventType}, ${receivedAt}, ${JSON.stringify(eventData)}::jsonb FROM counter
        RETURNING id, seq
      ), delivery AS (
        INSERT INTO webhook_deliveries (event_id, instance_id) SELECT id, ${instanceId} FROM appended WHERE ${options.deliver}
      )
      SELECT seq FROM appended`;
    return rows.length === 1 ? { seq: rows[0].seq, envelope } : null;
  }

  async list(instanceId: string, afterSeq: bigint, limit: number, eventTypes?: string[]): Promise<StoredEvent[]> {
    return this.window(instanceId, { afterSeq, order: 'asc', limit, eventTypes });
  }

  /** Events with `afterSeq < seq < beforeSeq` (either bound optional), oldest or newest first. */
  async window(
    instanceId: string,
    range: { afterSeq?: bigint; beforeSeq?: bigint; order: 'asc' | 'desc'; limit: number; eventTypes?: string[] },
  ): Promise<StoredEvent[]> {
    const { afterSeq, beforeSeq, order, limit, eventTypes } = range;
    const rows = await this.prisma.eventLog.findMany({
      where: {
        instanceId,
        seq: { ...(afterSeq !== undefined ? { gt: afterSeq } : {}), ...(beforeSeq !== undefined ? { lt: beforeSeq } : {}) },
        ...(eventTypes ? { eventType: { in: eventTypes } } : {}),
      },
      orderBy: { seq: order },
      take: limit,
    });
    return rows.map((row) => ({
      seq: row.seq,
      envelope: {
        eventId: row.id,
        instanceId: row.instanceId,
        eventType: row.eventType as EventType,
        receivedAt: row.receivedAt.toISOString(),
        eventData: row.data as Record<string, unknown>,
      },
    }));
  }

  /** Whether a message from someone else with this id reached the instance (as far as the retained log tells). */
  async receivedMessage(instanceId: string, messageId: string): Promise<boolean> {
    const rows = await this.prisma.$queryRaw<unknown[]>`
      SELECT 1 FROM event_log
      WHERE instance_id = ${instanceId} AND event_type = 'message' AND data->>'id' = ${messageId}
        AND coalesce(data->'sender'->>'isMe', 'false') <> 'true'
      LIMIT 1`;
    return rows.length > 0;
  }
}
