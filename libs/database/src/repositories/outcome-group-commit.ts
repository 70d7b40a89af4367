import { DatabaseError } from 'pg';
import { newEventId, type EventType } from '@app/contracts';
import type { StoredEvent } from './event-log.repository';
import type { Queryable } from './message-group-commit';

export interface OutcomeRequest {
  instanceId: string;
  messageId: string;
  outcome: { status: 'sent' | 'failed'; error?: string };
  events: { eventType: EventType; data: Record<string, unknown> }[];
  deliver: boolean;
}

export interface RecordedOutcome {
  /** False when the row was no longer `accepted` (a repeated dispatch): nothing was written. */
  recorded: boolean;
  events: StoredEvent[];
}

interface Entry {
  request: OutcomeRequest;
  eventIds: string[];
  resolve: (result: RecordedOutcome) => void;
  reject: (error: unknown) => void;
}

const MAX_ROWS = 500;
/** Deadlock or serialization failure: another statement locked the same instance rows in another order; safe to run again. */
const RETRYABLE = new Set(['40P01', '40001']);
const ATTEMPTS = 3;

/**
 * For every message of the batch that is still `accepted`: records its outcome, appends its events to its instance's
 * log with the next sequence numbers (numbered in batch order, then event order) and creates their webhook deliveries
 * when asked; one statement, one commit. A row that is no longer `accepted` gets nothing.
 */
const RECORD_BATCH = `WITH input AS (
      SELECT * FROM jsonb_to_recordset($1::jsonb) AS t(n int, message_id text, instance_id text, status text, error text)
    ), done AS (
      UPDATE messages m SET status = input.status::"MessageStatus", error = input.error,
             sent_at = CASE WHEN input.status = 'sent' THEN $2::timestamp(3) ELSE NULL END
      FROM input WHERE m.id = input.message_id AND m.instance_id = input.instance_id AND m.status = 'accepted'
      RETURNING input.n
    ), events AS (
      SELECT e.* FROM jsonb_to_recordset($3::jsonb) AS e(n int, ord int, id text, instance_id text, type text, data jsonb, deliver boolean)
      WHERE e.n IN (SELECT n FROM done)
    ), locked AS (
      -- Counter rows locked in id order before any is updated: two batches (or two workers) never wait on each other in a cycle.
      SELECT id FROM instances WHERE id IN (SELECT instance_id FROM events) ORDER BY id FOR UPDATE
    ), per_instance AS (
      SELECT events.instance_id, count(*)::bigint AS added FROM events JOIN locked ON locked.id = events.instance_id GROUP BY events.instance_id
    ), counter AS (
      UPDATE instances i SET event_seq = i.event_seq + p.added FROM per_instance p WHERE i.id = p.instance_id
      RETURNING i.id, i.event_seq, p.added
    ), numbered AS (
      SELECT events.*, counter.event_seq - counter.added + row_number() OVER (PARTITION BY events.instance_id ORDER BY events.n, events.ord) AS seq
      FROM events JOIN counter ON counter.id = events.instance_id
    ), appended AS (
      INSERT INTO event_log (id, instance_id, seq, event_type, received_at, data)
      SELECT id, instance_id, seq, type, $2::timestamp(3), data FROM numbered
      RETURNING id, seq
    ), delivery AS (
      INSERT INTO webhook_deliveries (event_id, instance_id) SELECT id, instance_id FROM numbered WHERE deliver
    )
    SELECT coalesce((SELECT json_agg(n) FROM done), '[]'::json) AS done,
           coalesce((SELECT json_agg(json_build_object('id', id, 'seq', seq::text)) FROM appended), '[]'::json) AS appended`;

/**
 * Group commit for send outcomes, the worker's side of `MessageGroupCommit`. A drain hands over one message's outcome
 * and waits for it; outcomes handed over while the previous statement commits (from any instance) go together in the
 * next one, so a worker sending for many instances pays one statement and one commit per batch instead of per
 * message, and a message waits at most one commit longer than it would alone. A caller's promise settles only after
 * the statement holding its outcome has committed (or failed, then nothing of it was written), so a drain still
 * sends an instance's next message only once the previous outcome is durable. The statement is named (prepared once
 * per pooled connection), so PostgreSQL plans it once, not per batch.
 */
export class OutcomeGroupCommit {
  private queue: Entry[] = [];
  private running = false;

  constructor(private readonly db: Queryable) {}

  record(request: OutcomeRequest, at = Date.now()): Promise<RecordedOutcome> {
    return new Promise<RecordedOutcome>((resolve, reject) => {
      this.queue.push({ request, eventIds: request.events.map(() => newEventId(at)), resolve, reject });
      if (!this.running) {
        this.running = true;
        // After the current I/O phase, so outcomes that completed together go together from the first batch on.
        setImmediate(() => void this.drain());
      }
    });
  }

  private async drain(): Promise<void> {
    while (this.queue.length > 0) {
      const batch = this.queue.splice(0, MAX_ROWS);
      try {
        await this.commit(batch);
      } catch (error) {
        // Not expected (commit settles everything itself, but a payload JSON cannot encode throws before the query):
        // no caller may be left hanging and the batcher must go on.
        for (const entry of batch) entry.reject(error);
      }
    }
    this.running = false;
  }

  /** Settles every entry; never throws. */
  private async commit(batch: Entry[]): Promise<void> {
    const at = new Date();
    const messages = batch.map((entry, n) => ({
      n,
      message_id: entry.request.messageId,
      instance_id: entry.request.instanceId,
      status: entry.request.outcome.status,
      error: entry.request.outcome.error ?? null,
    }));
    const events = batch.flatMap((entry, n) =>
      entry.request.events.map((event, ord) => ({
        n,
        ord,
        id: entry.eventIds[ord],
        instance_id: entry.request.instanceId,
        type: event.eventType,
        data: event.data,
        deliver: entry.request.deliver,
      })),
    );
    let result: { done: number[]; appended: { id: string; seq: string }[] };
    try {
      result = await this.run([JSON.stringify(messages), at.toISOString(), JSON.stringify(events)]);
    } catch (error) {
      if (batch.length > 1 && error instanceof DatabaseError && /^(22|23|54)/.test(error.code ?? '')) {
        // One outcome's data spoiled the batch: record the others one by one.
        for (const entry of batch) await this.commit([entry]);
        return;
      }
      for (const entry of batch) entry.reject(error);
      return;
    }
    const done = new Set(result.done);
    const seqs = new Map(result.appended.map((row) => [row.id, BigInt(row.seq)]));
    const receivedAt = at.toISOString();
    batch.forEach((entry, n) => {
      if (!done.has(n)) return entry.resolve({ recorded: false, events: [] });
      const stored: StoredEvent[] = entry.request.events.map((event, ord) => {
        const eventId = entry.eventIds[ord];
        return {
          seq: seqs.get(eventId) as bigint,
          envelope: { eventId, instanceId: entry.request.instanceId, eventType: event.eventType, receivedAt, eventData: event.data },
        };
      });
      entry.resolve({ recorded: true, events: stored });
    });
  }

  private async run(params: unknown[]): Promise<{ done: number[]; appended: { id: string; seq: string }[] }> {
    for (let attempt = 1; ; attempt += 1) {
      try {
        const { rows } = await this.db.query<{ done: number[]; appended: { id: string; seq: string }[] }>({
          name: 'record-outcomes',
          text: RECORD_BATCH,
          values: params,
        });
        return rows[0];
      } catch (error) {
        if (attempt >= ATTEMPTS || !(error instanceof DatabaseError) || !RETRYABLE.has(error.code ?? '')) throw error;
      }
    }
  }
}
