import { Injectable } from '@nestjs/common';
import { newEventId, type EventType, type MessageKind, type OutboundMessage } from '@app/contracts';
import type { Prisma } from '../generated/prisma/client';
import { PrismaService } from '../prisma.service';
import { GroupCommitMismatch, MessageGroupCommit } from './message-group-commit';
import type { StoredEvent } from './event-log.repository';

export interface AcceptedMessage {
  id: string;
  /** True when an earlier request with the same idempotency key already created it. */
  replayed: boolean;
}

export interface NewMessage {
  id: string;
  kind: MessageKind;
  chatJid: string;
  payload: Record<string, unknown>;
  idempotencyKey?: string;
  requestHash?: string;
}

export class IdempotencyMismatch extends Error {}

export interface StoredMessage extends OutboundMessage {
  seq: bigint;
  status: 'accepted' | 'sent' | 'failed';
}

@Injectable()
export class MessageRepository {
  private readonly groupCommit: MessageGroupCommit;

  constructor(private readonly prisma: PrismaService) {
    this.groupCommit = new MessageGroupCommit(prisma.pool);
  }

  /**
   * Stores an accepted message with the instance's next sequence number; resolves once its row is committed. The
   * counter row lock makes commit order equal sequence order, so dispatch in `seq` order is acceptance order.
   * Concurrent accepts of one instance are committed together (see `MessageGroupCommit`), on the pool directly.
   */
  async accept(instanceId: string, message: NewMessage): Promise<AcceptedMessage> {
    try {
      return await this.groupCommit.accept(instanceId, message);
    } catch (error) {
      if (error instanceof GroupCommitMismatch) throw new IdempotencyMismatch();
      throw error;
    }
  }

  /** The instance's accepted, not yet dispatched messages in acceptance order. */
  async pending(instanceId: string, limit: number): Promise<StoredMessage[]> {
    const rows = await this.prisma.message.findMany({ where: { instanceId, status: 'accepted' }, orderBy: { seq: 'asc' }, take: limit });
    return rows.map((row) => ({
      id: row.id,
      kind: row.kind as MessageKind,
      chatJid: row.chatJid,
      payload: row.payload as Record<string, unknown>,
      seq: row.seq,
      status: row.status,
    }));
  }

  /**
   * Records a send's outcome and appends its events in one statement (one commit: the worker's throughput is
   * bound by commits), with their webhook deliveries when `deliver`. Does nothing when the row is no longer
   * `accepted`, so a repeated dispatch adds no events. `recorded` tells whether this call recorded the outcome.
   */
  async recordOutcome(
    instanceId: string,
    id: string,
    outcome: { status: 'sent' | 'failed'; error?: string },
    events: { eventType: EventType; data: Record<string, unknown> }[],
    options: { deliver: boolean } = { deliver: false },
  ): Promise<{ recorded: boolean; events: StoredEvent[] }> {
    const at = new Date();
    const rows = events.map((event, index) => ({ id: newEventId(at.getTime()), ord: index + 1, type: event.eventType, data: event.data }));
    const result = await this.prisma.$queryRaw<{ done: number; appended: { id: string; seq: string }[] }[]>`
      WITH done AS (
        UPDATE messages SET status = ${outcome.status}::"MessageStatus", error = ${outcome.error ?? null},
               sent_at = CASE WHEN ${outcome.status}::text = 'sent' THEN ${at}::timestamp(3) ELSE NULL END
        WHERE id = ${id} AND status = 'accepted' RETURNING id
      ), counter AS (
        UPDATE instances SET event_seq = event_seq + ${rows.length}::bigint WHERE id = ${instanceId} AND EXISTS (SELECT 1 FROM done) RETURNING event_seq
      ), appended AS (
        INSERT INTO event_log (id, instance_id, seq, event_type, received_at, data)
        SELECT e.id, ${instanceId}, counter.event_seq - ${rows.length}::bigint + e.ord, e.type, ${at}::timestamp(3), e.data
        FROM counter, jsonb_to_recordset(${JSON.stringify(rows)}::jsonb) AS e(id text, ord int, type text, data jsonb)
        RETURNING id, seq
      ), delivery AS (
        INSERT INTO webhook_deliveries (event_id, instance_id) SELECT id, ${instanceId} FROM appended WHERE ${options.deliver}
      )
      SELECT (SELECT count(*) FROM done)::int AS done,
             coalesce((SELECT json_agg(json_build_object('id', id, 'seq', seq::text) ORDER BY seq) FROM appended), '[]'::json) AS appended`;
    const { done, appended } = result[0];
    const byId = new Map(rows.map((row) => [row.id, row]));
    return {
      recorded: done === 1,
      events: appended.map(({ id: eventId, seq }) => {
        const row = byId.get(eventId) as (typeof rows)[number];
        return {
          seq: BigInt(seq),
          envelope: { eventId, instanceId, eventType: row.type, receivedAt: at.toISOString(), eventData: row.data },
        };
      }),
    };
  }

  async find(instanceId: string, id: string): Promise<StoredMessage | null> {
    const row = await this.prisma.message.findFirst({ where: { id, instanceId } });
    if (!row) return null;
    return {
      id: row.id,
      kind: row.kind as MessageKind,
      chatJid: row.chatJid,
      payload: row.payload as Record<string, unknown>,
      seq: row.seq,
      status: row.status,
    };
  }

  /** Instances of these shards with messages accepted before `olderThan` and still not dispatched. */
  async instancesWithStalePending(shards: number[], olderThan: Date): Promise<string[]> {
    if (shards.length === 0) return [];
    const rows = await this.prisma.$queryRaw<{ instance_id: string }[]>`
      SELECT DISTINCT m.instance_id FROM messages m JOIN instances i ON i.id = m.instance_id
      WHERE m.status = 'accepted' AND m.accepted_at < ${olderThan} AND i.shard = ANY(${shards}::int[])`;
    return rows.map((row) => row.instance_id);
  }

  async sendInterval(instanceId: string): Promise<number> {
    const row = await this.prisma.instance.findUnique({ where: { id: instanceId }, select: { sendIntervalMs: true } });
    return row?.sendIntervalMs ?? 0;
  }

  async statusCounts(instanceId: string): Promise<Record<string, number>> {
    const groups = await this.prisma.message.groupBy({ by: ['status'], where: { instanceId }, _count: { _all: true } });
    return Object.fromEntries(groups.map((group) => [group.status, group._count._all])) as Prisma.JsonObject as Record<string, number>;
  }
}
