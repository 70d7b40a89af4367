import { Injectable, Optional } from '@nestjs/common';
import type { EventType } from '@app/contracts';
import type { PrismaClient } from '../generated/prisma/client';
import { PrismaService } from '../prisma.service';
import { ReadReplica } from '../read-replica';
import { EventAppendGroupCommit } from './event-append-group-commit';
import type { Fence } from './fence';
import type { StoredEvent } from './stored-event';

export type { StoredEvent } from './stored-event';

@Injectable()
export class EventLogRepository {
  private readonly group: EventAppendGroupCommit;
  /** Pages of the log for pull mode (`list`, `window`): a lagging replica only shows an event a moment later. */
  private readonly replica: PrismaClient;

  constructor(
    private readonly prisma: PrismaService,
    @Optional() replica?: ReadReplica,
  ) {
    this.group = new EventAppendGroupCommit(prisma.pool);
    this.replica = replica?.client ?? prisma;
  }

  /**
   * Appends an event with the instance's next sequence number, with its webhook delivery in the same commit when
   * `deliver` (so it cannot be lost in between). Null when the instance no longer exists.
   */
  async append(
    instanceId: string,
    eventType: EventType,
    eventData: Record<string, unknown>,
    options: { deliver: boolean; sink?: boolean; receivedAt?: Date } = { deliver: false },
  ): Promise<StoredEvent | null> {
    const stored = await this.appendMany(instanceId, [{ eventType, data: eventData }], options);
    return stored?.[0] ?? null;
  }

  /**
   * Appends events of an instance in this order with its next sequence numbers (and their deliveries when `deliver`),
   * committed together with the appends of other instances made at the same time (see `EventAppendGroupCommit`).
   * Null when the instance no longer exists. With a `fence` (a worker's session), nothing is appended and FencedOutError
   * is thrown once that shard lease is no longer current.
   */
  appendMany(
    instanceId: string,
    events: { eventType: EventType; data: Record<string, unknown> }[],
    options: { deliver: boolean; sink?: boolean; receivedAt?: Date; fence?: Fence } = { deliver: false },
  ): Promise<StoredEvent[] | null> {
    if (events.length === 0) return Promise.resolve([]);
    return this.group.append({
      instanceId,
      events,
      deliver: options.deliver,
      sink: options.sink ?? false,
      receivedAt: options.receivedAt ?? new Date(),
      fence: options.fence,
    });
  }

  async list(instanceId: string, afterSeq: bigint, limit: number, eventTypes?: string[]): Promise<StoredEvent[]> {
    return this.window(instanceId, { afterSeq, order: 'asc', limit, eventTypes });
  }

  /**
   * Events with `afterSeq < seq < beforeSeq` (either bound optional), oldest or newest first, from the read replica:
   * what pull-mode clients page through. Sequences are contiguous, so a lagging replica returns a shorter page, never
   * one with a hole.
   */
  async window(
    instanceId: string,
    range: { afterSeq?: bigint; beforeSeq?: bigint; order: 'asc' | 'desc'; limit: number; eventTypes?: string[] },
  ): Promise<StoredEvent[]> {
    const { afterSeq, beforeSeq, order, limit, eventTypes } = range;
    const rows = await this.replica.eventLog.findMany({
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
