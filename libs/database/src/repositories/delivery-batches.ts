import { DatabaseError } from 'pg';
import type { EventType } from '@app/contracts';
import type { Queryable } from './message-group-commit';

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
/** Deadlock or serialization failure (two workers' batches touching the same rows in another order): safe to run again. */
const RETRYABLE = new Set(['40P01', '40001']);

/** Timestamps are stored in UTC without a zone (Prisma's convention); read them as UTC whatever the session's zone. */
const LOAD = `SELECT d.event_id, d.instance_id, d.state::text AS state, d.attempts, d.schedule_step, e.instance_id AS event_instance_id,
         e.event_type, e.received_at AT TIME ZONE 'UTC' AS received_at, e.data
  FROM webhook_deliveries d JOIN event_log e ON e.id = d.event_id WHERE d.event_id = ANY($1::text[])`;

/**
 * Every attempt of the batch whose delivery still expects it (`attempts = number - 1`, pending) moves its delivery on and
 * is recorded; the others (a stalled job run twice) change nothing. One statement, one commit.
 */
const RECORD = `WITH input AS (
      SELECT * FROM jsonb_to_recordset($1::jsonb) AS t(n int, event_id text, number int, url text, started_at text, duration_ms int,
        status_code int, outcome text, error text, state text, schedule_step int, next_attempt_at text, last_error text)
    ), moved AS (
      UPDATE webhook_deliveries d
      SET attempts = input.number, state = input.state::"DeliveryState", schedule_step = input.schedule_step,
          next_attempt_at = input.next_attempt_at::timestamp(3), last_error = input.last_error, updated_at = now()
      FROM input WHERE d.event_id = input.event_id AND d.attempts = input.number - 1 AND d.state = 'pending'
      RETURNING input.n
    ), recorded AS (
      INSERT INTO webhook_attempts (event_id, number, url, started_at, duration_ms, status_code, outcome, error)
      SELECT input.event_id, input.number, input.url, input.started_at::timestamp(3), input.duration_ms, input.status_code, input.outcome, input.error
      FROM input WHERE input.n IN (SELECT n FROM moved)
    )
    SELECT coalesce((SELECT json_agg(n) FROM moved), '[]'::json) AS moved`;

interface Waiter<T, R> {
  item: T;
  resolve: (result: R) => void;
  reject: (error: unknown) => void;
}

/**
 * Collects the calls of one turn of the event loop (and those made while the previous batch runs) and runs them as one
 * statement. Each caller's promise settles with its own result once that statement has committed.
 */
class Batcher<T, R> {
  private queue: Waiter<T, R>[] = [];
  private running = false;

  constructor(private readonly run: (items: T[]) => Promise<R[]>) {}

  add(item: T): Promise<R> {
    return new Promise<R>((resolve, reject) => {
      this.queue.push({ item, resolve, reject });
      if (!this.running) {
        this.running = true;
        setImmediate(() => void this.drain());
      }
    });
  }

  private async drain(): Promise<void> {
    while (this.queue.length > 0) {
      const batch = this.queue.splice(0, MAX_BATCH);
      try {
        await this.settle(batch);
      } catch (error) {
        for (const waiter of batch) waiter.reject(error);
      }
    }
    this.running = false;
  }

  private async settle(batch: Waiter<T, R>[]): Promise<void> {
    try {
      const results = await this.run(batch.map((waiter) => waiter.item));
      batch.forEach((waiter, index) => waiter.resolve(results[index]));
    } catch (error) {
      // One item's data spoiled the batch (a value PostgreSQL refuses): run the others alone, so only it fails.
      if (batch.length > 1 && error instanceof DatabaseError && /^(22|23|54)/.test(error.code ?? '')) {
        for (const waiter of batch) await this.settle([waiter]);
        return;
      }
      for (const waiter of batch) waiter.reject(error);
    }
  }
}

/**
 * The webhook deliverer's two statements per attempt, shared by the attempts in flight at the same time: loading the
 * delivery with its event, and recording the attempt's outcome. With many deliveries in flight, that is one query and
 * one commit per batch instead of per delivery; every attempt is still recorded before its job completes. Both
 * statements are named (prepared once per pooled connection): planning these CTEs costs more than running them.
 */
export class DeliveryBatches {
  private readonly loads: Batcher<string, DeliveryRow | null>;
  private readonly records: Batcher<AttemptWrite, boolean>;

  constructor(private readonly db: Queryable) {
    this.loads = new Batcher((eventIds) => this.load(eventIds));
    this.records = new Batcher((attempts) => this.recordAll(attempts));
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
    }>({ name: 'load-deliveries', text: LOAD, values: [[...new Set(eventIds)]] });
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
    for (let tries = 1; ; tries += 1) {
      try {
        const { rows } = await this.db.query<{ moved: number[] }>({ name: 'record-attempts', text: RECORD, values: [input] });
        const moved = new Set(rows[0].moved);
        return attempts.map((_, n) => moved.has(n));
      } catch (error) {
        if (tries >= 3 || !(error instanceof DatabaseError) || !RETRYABLE.has(error.code ?? '')) throw error;
      }
    }
  }
}
