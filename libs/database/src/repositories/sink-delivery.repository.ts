import { Injectable } from '@nestjs/common';
import type { EventEnvelope, EventSinkKind, EventType } from '@app/contracts';
import { PrismaService } from '../prisma.service';
import type { DeliveryState } from './delivery-batches';
import { queryRetrying, StatementBatcher } from './statement-batcher';

export type SinkAttemptOutcome = 'delivered' | 'failed' | 'skipped';

/** A sink delivery still to be published, with its event as the envelope the broker receives. */
export interface PendingSinkDelivery {
  seq: bigint;
  attempts: number;
  scheduleStep: number;
  nextAttemptAt: Date;
  envelope: EventEnvelope;
}

/** One publish attempt and what follows from it for its delivery. */
export interface SinkAttemptWrite {
  eventId: string;
  /** The event's partition key. */
  receivedAt: Date;
  number: number;
  /** The broker kind; `none` for a delivery stopped because the instance no longer has a sink. */
  sink: EventSinkKind | 'none';
  target: string;
  startedAt: Date;
  durationMs: number;
  outcome: SinkAttemptOutcome;
  error: string | null;
  state: DeliveryState;
  scheduleStep: number;
  nextAttemptAt: Date;
}

export interface SinkAttemptRecord {
  number: number;
  sink: string;
  target: string;
  startedAt: Date;
  durationMs: number;
  outcome: SinkAttemptOutcome;
  error: string | null;
}

export interface SinkDeliveryReport {
  state: DeliveryState;
  nextAttemptAt: Date | null;
  attempts: SinkAttemptRecord[];
}

const MAX_BATCH = 500;

/** Timestamps are stored in UTC without a zone (Prisma's convention): read as UTC whatever the session's zone. */
const PENDING_SQL = `SELECT d.event_id, d.seq::text AS seq, d.attempts, d.schedule_step, d.next_attempt_at AT TIME ZONE 'UTC' AS next_attempt_at,
         e.event_type, e.received_at AT TIME ZONE 'UTC' AS received_at, e.data
  FROM sink_deliveries d
  -- Per row by the whole key (see DeliveryBatches' LOAD): a plain join would scan every retained event.
  CROSS JOIN LATERAL (
    SELECT event_type, received_at, data FROM event_log WHERE id = d.event_id AND received_at = d.received_at LIMIT 1
  ) e
  WHERE d.instance_id = $1 AND d.state = 'pending'
  ORDER BY d.seq LIMIT $2`;

/**
 * Every attempt of the batch whose delivery still expects it (`attempts = number - 1`, pending) moves its delivery on and
 * is recorded; the others (recorded first by a worker that owned the shard a moment ago) change nothing.
 */
const RECORD_SQL = `WITH input AS (
      SELECT * FROM jsonb_to_recordset($1::jsonb) AS t(n int, event_id text, received_at text, number int, sink text, target text,
        started_at text, duration_ms int, outcome text, error text, state text, schedule_step int, next_attempt_at text)
    ), moved AS (
      UPDATE sink_deliveries d
      SET attempts = input.number, state = input.state::"DeliveryState", schedule_step = input.schedule_step,
          next_attempt_at = input.next_attempt_at::timestamp(3), last_error = input.error, updated_at = now()
      FROM input
      WHERE d.event_id = input.event_id AND d.received_at = input.received_at::timestamp(3)
        AND d.attempts = input.number - 1 AND d.state = 'pending'
        -- Probes each delivery by key, whatever the statistics say, and only the partitions of the batch's days (see
        -- RECORD_ATTEMPTS_SQL).
        AND d.event_id = ANY (ARRAY(SELECT event_id FROM input))
        AND d.received_at BETWEEN (SELECT min(received_at::timestamp(3)) FROM input) AND (SELECT max(received_at::timestamp(3)) FROM input)
        AND NOT EXISTS (SELECT 1 FROM input earlier WHERE earlier.event_id = input.event_id AND earlier.number = input.number AND earlier.n < input.n)
      RETURNING input.n
    ), recorded AS (
      INSERT INTO sink_attempts (event_id, received_at, number, sink, target, started_at, duration_ms, outcome, error)
      SELECT input.event_id, input.received_at::timestamp(3), input.number, input.sink, input.target, input.started_at::timestamp(3),
             input.duration_ms, input.outcome, input.error
      FROM input JOIN moved ON moved.n = input.n
    )
    SELECT coalesce((SELECT json_agg(n) FROM moved), '[]'::json) AS moved`;

/**
 * Broker-sink deliveries: one row per event meant for a sink (created with the event, `event-append.sql.ts`), published
 * per instance in `seq` order by the worker owning the instance's shard, every attempt recorded.
 */
@Injectable()
export class SinkDeliveryRepository {
  /** Attempts finishing at the same time, of any instance, are recorded in one statement and one commit. */
  private readonly records: StatementBatcher<SinkAttemptWrite, boolean>;

  constructor(private readonly prisma: PrismaService) {
    this.records = new StatementBatcher((attempts) => this.recordAll(attempts), { maxWeight: MAX_BATCH });
  }

  /** The instance's oldest pending deliveries, in seq order. */
  async pending(instanceId: string, limit: number): Promise<PendingSinkDelivery[]> {
    const { rows } = await this.prisma.pool.query<{
      event_id: string;
      seq: string;
      attempts: number;
      schedule_step: number;
      next_attempt_at: Date;
      event_type: EventType;
      received_at: Date;
      data: Record<string, unknown>;
    }>({ name: 'pending-sink-deliveries', text: PENDING_SQL, values: [instanceId, limit] });
    return rows.map((row) => ({
      seq: BigInt(row.seq),
      attempts: row.attempts,
      scheduleStep: row.schedule_step,
      nextAttemptAt: row.next_attempt_at,
      envelope: {
        eventId: row.event_id,
        instanceId,
        eventType: row.event_type,
        receivedAt: row.received_at.toISOString(),
        eventData: row.data,
      },
    }));
  }

  /** Whether this call recorded the attempt (false when attempt `number` was recorded first by someone else). */
  record(attempt: SinkAttemptWrite): Promise<boolean> {
    return this.records.add(attempt);
  }

  /**
   * Instances of these shards with a pending delivery due by now: what a publisher looks at after a restart, a shard
   * handed over, or a wake-up that was missed.
   */
  async dueInstances(shards: readonly number[], limit: number, until = new Date()): Promise<string[]> {
    if (shards.length === 0) return [];
    const { rows } = await this.prisma.pool.query<{ instance_id: string }>({
      name: 'due-sink-instances',
      text: `SELECT DISTINCT d.instance_id FROM sink_deliveries d JOIN instances i ON i.id = d.instance_id
             WHERE d.state = 'pending' AND d.next_attempt_at <= $1::timestamptz AT TIME ZONE 'UTC' AND i.shard = ANY($2::int[]) LIMIT $3`,
      values: [until.toISOString(), [...shards], limit],
    });
    return rows.map((row) => row.instance_id);
  }

  /** The event's sink delivery and its attempts; null when the event never had one. */
  async report(instanceId: string, eventId: string): Promise<SinkDeliveryReport | null> {
    const delivery = await this.prisma.sinkDelivery.findFirst({
      where: { eventId, instanceId },
      include: { attemptLog: { orderBy: { number: 'asc' } } },
    });
    if (!delivery) return null;
    return {
      state: delivery.state,
      nextAttemptAt: delivery.state === 'pending' ? delivery.nextAttemptAt : null,
      attempts: delivery.attemptLog.map((row) => ({
        number: row.number,
        sink: row.sink,
        target: row.target,
        startedAt: row.startedAt,
        durationMs: row.durationMs,
        outcome: row.outcome as SinkAttemptOutcome,
        error: row.error,
      })),
    };
  }

  /**
   * Starts the event's sink delivery again (its schedule from the top), or creates it when the event never had one.
   * False when the instance has no such event.
   */
  async redeliver(instanceId: string, eventId: string): Promise<boolean> {
    const rows = await this.prisma.$queryRaw<{ event_id: string }[]>`
      INSERT INTO sink_deliveries (event_id, received_at, instance_id, seq)
      SELECT id, received_at, instance_id, seq FROM event_log WHERE id = ${eventId} AND instance_id = ${instanceId}
      ON CONFLICT (event_id, received_at) DO UPDATE
        SET state = 'pending', schedule_step = 0, next_attempt_at = now(), last_error = NULL, updated_at = now()
      RETURNING event_id`;
    return rows.length > 0;
  }

  private async recordAll(attempts: SinkAttemptWrite[]): Promise<boolean[]> {
    const input = JSON.stringify(
      attempts.map((attempt, n) => ({
        n,
        event_id: attempt.eventId,
        received_at: attempt.receivedAt.toISOString(),
        number: attempt.number,
        sink: attempt.sink,
        target: attempt.target,
        started_at: attempt.startedAt.toISOString(),
        duration_ms: attempt.durationMs,
        outcome: attempt.outcome,
        error: attempt.error,
        state: attempt.state,
        schedule_step: attempt.scheduleStep,
        next_attempt_at: attempt.nextAttemptAt.toISOString(),
      })),
    );
    const [{ moved }] = await queryRetrying<{ moved: number[] }>(this.prisma.pool, { name: 'record-sink-attempts', text: RECORD_SQL }, [
      input,
    ]);
    const recorded = new Set(moved);
    return attempts.map((_, n) => recorded.has(n));
  }
}
