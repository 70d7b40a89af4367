import type { EventType } from '@app/contracts';
import { queryRetrying, StatementBatcher, type Queryable } from './statement-batcher';

export type DeliveryState = 'pending' | 'delivered' | 'failed' | 'stopped';

export interface DeliveryRow {
  eventId: string;
  instanceId: string;
  state: DeliveryState;
  attempts: number;
  scheduleStep: number;
  eventInstanceId: string;
  eventType: EventType;
  receivedAt: Date;
  data: Record<string, unknown>;
}

export interface AttemptWrite {
  eventId: string;
  /** The event's partition key: the update then touches one partition's index instead of every retained day's. */
  receivedAt: Date;
  number: number;
  url: string;
  startedAt: Date;
  durationMs: number;
  statusCode: number | null;
  outcome: string;
  error: string | null;
  state: DeliveryState;
  scheduleStep: number;
  nextAttemptAt: Date;
  lastError: string | null;
}

const MAX_BATCH = 500;

/**
 * Timestamps are stored in UTC without a zone (Prisma's convention); read them as UTC whatever the session's zone.
 * The event is looked up per delivery by its whole key (LATERAL with LIMIT, which the planner cannot flatten): as a
 * plain join of the partitioned tables the planner hashes the batch and scans every retained event (12 ms instead of
 * 0.9 ms for 100 deliveries over 20,000 events, and growing with the table).
 */
export const LOAD_DELIVERIES_SQL = `SELECT d.event_id, d.instance_id, d.state::text AS state, d.attempts, d.schedule_step, e.instance_id AS event_instance_id,
         e.event_type, e.received_at AT TIME ZONE 'UTC' AS received_at, e.data
  FROM webhook_deliveries d
  CROSS JOIN LATERAL (
    SELECT instance_id, event_type, received_at, data FROM event_log WHERE id = d.event_id AND received_at = d.received_at LIMIT 1
  ) e
  WHERE d.event_id = ANY($1::text[])`;

/**
 * Every attempt of the batch whose delivery still expects it (`attempts = number - 1`, pending) moves its delivery on and
 * is recorded; the others (a stalled job run twice, or the later of two copies in one batch) change nothing. One
 * statement, one commit.
 */
export const RECORD_ATTEMPTS_SQL = `WITH input AS (
      SELECT * FROM jsonb_to_recordset($1::jsonb) AS t(n int, event_id text, received_at text, number int, url text, started_at text, duration_ms int,
        status_code int, outcome text, error text, state text, schedule_step int, next_attempt_at text, last_error text)
    ), moved AS (
      UPDATE webhook_deliveries d
      SET attempts = input.number, state = input.state::"DeliveryState", schedule_step = input.schedule_step,
          next_attempt_at = input.next_attempt_at::timestamp(3), last_error = input.last_error, updated_at = now()
      FROM input
      WHERE d.event_id = input.event_id AND d.received_at = input.received_at::timestamp(3)
        AND d.attempts = input.number - 1 AND d.state = 'pending'
        -- Probes each delivery by key, whatever the statistics say (see RECORD_OUTCOMES_SQL), and only the partitions
        -- of the batch's days.
        AND d.event_id = ANY (ARRAY(SELECT event_id FROM input))
        AND d.received_at BETWEEN (SELECT min(received_at::timestamp(3)) FROM input) AND (SELECT max(received_at::timestamp(3)) FROM input)
        -- Of two copies of one attempt in the batch only the first: an UPDATE joined to both would take either.
        AND NOT EXISTS (SELECT 1 FROM input earlier WHERE earlier.event_id = input.event_id AND earlier.number = input.number AND earlier.n < input.n)
      RETURNING input.n, d.received_at
    ), recorded AS (
      INSERT INTO webhook_attempts (event_id, received_at, number, url, started_at, duration_ms, status_code, outcome, error)
      SELECT input.event_id, moved.received_at, input.number, input.url, input.started_at::timestamp(3), input.duration_ms, input.status_code,
             input.outcome, input.error
      FROM input JOIN moved ON moved.n = input.n
    )
    SELECT coalesce((SELECT json_agg(n) FROM moved), '[]'::json) AS moved`;

/**
 * The webhook deliverer's two statements per attempt, shared by the attempts in flight at the same time: loading the
 * delivery with its event, and recording the attempt's outcome. With many deliveries in flight, that is one query and
 * one commit per batch instead of per delivery; every attempt is still recorded before its job completes.
 */
export class DeliveryBatches {
  private readonly loads: StatementBatcher<string, DeliveryRow | null>;
  private readonly records: StatementBatcher<AttemptWrite, boolean>;

  constructor(private readonly db: Queryable) {
    this.loads = new StatementBatcher((eventIds) => this.load(eventIds), { maxWeight: MAX_BATCH });
    this.records = new StatementBatcher((attempts) => this.recordAll(attempts), { maxWeight: MAX_BATCH });
  }

  find(eventId: string): Promise<DeliveryRow | null> {
    return this.loads.add(eventId);
  }

  /** Whether this call recorded the attempt (false when attempt `number` was recorded first by someone else). */
  record(attempt: AttemptWrite): Promise<boolean> {
    return this.records.add(attempt);
  }

  private async load(eventIds: string[]): Promise<(DeliveryRow | null)[]> {
    const { rows } = await this.db.query<{
      event_id: string;
      instance_id: string;
      state: DeliveryState;
      attempts: number;
      schedule_step: number;
      event_instance_id: string;
      event_type: EventType;
      received_at: Date;
      data: Record<string, unknown>;
    }>({ name: 'load-deliveries', text: LOAD_DELIVERIES_SQL, values: [[...new Set(eventIds)]] });
    const byId = new Map(
      rows.map((row) => [
        row.event_id,
        {
          eventId: row.event_id,
          instanceId: row.instance_id,
          state: row.state,
          attempts: row.attempts,
          scheduleStep: row.schedule_step,
          eventInstanceId: row.event_instance_id,
          eventType: row.event_type,
          receivedAt: row.received_at,
          data: row.data,
        },
      ]),
    );
    return eventIds.map((eventId) => byId.get(eventId) ?? null);
  }

  private async recordAll(attempts: AttemptWrite[]): Promise<boolean[]> {
    const input = JSON.stringify(
      attempts.map((attempt, n) => ({
        n,
        event_id: attempt.eventId,
        received_at: attempt.receivedAt.toISOString(),
        number: attempt.number,
        url: attempt.url,
        started_at: attempt.startedAt.toISOString(),
        duration_ms: attempt.durationMs,
        status_code: attempt.statusCode,
        outcome: attempt.outcome,
        error: attempt.error,
        state: attempt.state,
        schedule_step: attempt.scheduleStep,
        next_attempt_at: attempt.nextAttemptAt.toISOString(),
        last_error: attempt.lastError,
      })),
    );
    const [{ moved }] = await queryRetrying<{ moved: number[] }>(this.db, { name: 'record-attempts', text: RECORD_ATTEMPTS_SQL }, [input]);
    const recorded = new Set(moved);
    return attempts.map((_, n) => recorded.has(n));
  }
}
