import { Injectable } from '@nestjs/common';
import { newEventId, type EventType, type MessageKind, type OutboundMessage } from '@app/contracts';
import type { Prisma } from '../generated/prisma/client';
import { PrismaService } from '../prisma.service';

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
  constructor(private readonly prisma: PrismaService) {}

  /**
   * Stores an accepted message with the instance's next sequence number in one statement. The counter row
   * lock makes commit order equal sequence order, so dispatch in `seq` order is acceptance order.
   */
  async accept(instanceId: string, message: NewMessage): Promise<AcceptedMessage> {
    const payload = JSON.stringify(message.payload);
    const rows = await this.prisma.$queryRaw<{ id: string }[]>`
      WITH counter AS (
        INSERT INTO message_counters (instance_id, last_seq) VALUES (${instanceId}, 1)
        ON CONFLICT (instance_id) DO UPDATE SET last_seq = message_counters.last_seq + 1
        RETURNING last_seq
      )
      INSERT INTO messages (id, instance_id, seq, kind, chat_jid, payload, idempotency_key, request_hash)
      SELECT ${message.id}, ${instanceId}, last_seq, ${message.kind}, ${message.chatJid}, ${payload}::jsonb,
             ${message.idempotencyKey ?? null}, ${message.requestHash ?? null}
      FROM counter
      ON CONFLICT (instance_id, idempotency_key) DO NOTHING
      RETURNING id`;
    if (rows.length === 1) return { id: rows[0].id, replayed: false };
    const existing = await this.prisma.message.findUnique({
      where: { instanceId_idempotencyKey: { instanceId, idempotencyKey: message.idempotencyKey ?? '' } },
      select: { id: true, requestHash: true },
    });
    if (!existing || existing.requestHash !== message.requestHash) throw new IdempotencyMismatch();
    return { id: existing.id, replayed: true };
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
   * bound by commits). Does nothing when the row is no longer `accepted`, so a repeated dispatch adds no events.
   * Returns whether this call recorded the outcome.
   */
  async recordOutcome(
    instanceId: string,
    id: string,
    outcome: { status: 'sent' | 'failed'; error?: string },
    events: { eventType: EventType; data: Record<string, unknown> }[],
  ): Promise<boolean> {
    const at = new Date();
    const rows = events.map((event, index) => ({ id: newEventId(at.getTime()), ord: index + 1, type: event.eventType, data: event.data }));
    const result = await this.prisma.$queryRaw<{ seq: bigint }[]>`
      WITH done AS (
        UPDATE messages SET status = ${outcome.status}::"MessageStatus", error = ${outcome.error ?? null},
               sent_at = CASE WHEN ${outcome.status}::text = 'sent' THEN ${at}::timestamp(3) ELSE NULL END
        WHERE id = ${id} AND status = 'accepted' RETURNING id
      ), counter AS (
        UPDATE instances SET event_seq = event_seq + ${rows.length}::bigint WHERE id = ${instanceId} AND EXISTS (SELECT 1 FROM done) RETURNING event_seq
      )
      INSERT INTO event_log (id, instance_id, seq, event_type, received_at, data)
      SELECT e.id, ${instanceId}, counter.event_seq - ${rows.length}::bigint + e.ord, e.type, ${at}::timestamp(3), e.data
      FROM counter, jsonb_to_recordset(${JSON.stringify(rows)}::jsonb) AS e(id text, ord int, type text, data jsonb)
      RETURNING seq`;
    return result.length === rows.length && rows.length > 0;
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
