import { DatabaseError } from 'pg';
import { newEventId, type EventType } from '@app/contracts';
import type { StoredEvent } from './stored-event';
import type { Queryable } from './message-group-commit';

export interface AppendRequest {
  instanceId: string;
  events: { eventType: EventType; data: Record<string, unknown> }[];
  deliver: boolean;
  receivedAt: Date;
}

interface Entry {
  request: AppendRequest;
  eventIds: string[];
  resolve: (stored: StoredEvent[] | null) => void;
  reject: (error: unknown) => void;
}

const MAX_EVENTS = 1_000;
const RETRYABLE = new Set(['40P01', '40001']);
const ATTEMPTS = 3;

/**
 * Appends the events of every request of the batch to their instances' logs with the next sequence numbers (in batch
 * order, then event order, per instance) and their webhook deliveries where asked: one statement, one commit. Events of
 * an instance that no longer exists are not appended.
 */
const APPEND_BATCH = `WITH events AS (
      SELECT * FROM jsonb_to_recordset($1::jsonb)
        AS e(n int, ord int, id text, instance_id text, type text, data jsonb, deliver boolean, received_at text)
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
      SELECT id, instance_id, seq, type, received_at::timestamp(3), data FROM numbered
      RETURNING id, seq
    ), delivery AS (
      INSERT INTO webhook_deliveries (event_id, instance_id) SELECT id, instance_id FROM numbered WHERE deliver
    )
    SELECT coalesce((SELECT json_agg(json_build_object('id', id, 'seq', seq::text)) FROM appended), '[]'::json) AS appended`;

/**
 * Group commit for the event log: appends handed over while the previous statement commits (from any instance, any
 * number of events each) go together in the next one, so an event storm costs one commit per batch rather than per
 * event. A caller's promise settles only once its events are committed; the counter rows stay locked only for the
 * statement, and one batch runs at a time, so each instance's events are numbered in the order they were handed over.
 * The statement is named (prepared once per pooled connection), so PostgreSQL plans it once, not per batch.
 */
export class EventAppendGroupCommit {
  private queue: Entry[] = [];
  private running = false;

  constructor(private readonly db: Queryable) {}

  append(request: AppendRequest): Promise<StoredEvent[] | null> {
    return new Promise<StoredEvent[] | null>((resolve, reject) => {
      const at = request.receivedAt.getTime();
      this.queue.push({ request, eventIds: request.events.map(() => newEventId(at)), resolve, reject });
      if (!this.running) {
        this.running = true;
        setImmediate(() => void this.drain());
      }
    });
  }

  private async drain(): Promise<void> {
    while (this.queue.length > 0) {
      let events = 0;
      let take = 0;
      while (take < this.queue.length && (take === 0 || events + this.queue[take].request.events.length <= MAX_EVENTS)) {
        events += this.queue[take].request.events.length;
        take += 1;
      }
      const batch = this.queue.splice(0, take);
      try {
        await this.commit(batch);
      } catch (error) {
        // Not expected (commit settles everything itself, but data JSON cannot encode throws before the query):
        // no caller may be left hanging and the batcher must go on.
        for (const entry of batch) entry.reject(error);
      }
    }
    this.running = false;
  }

  /** Settles every entry; never throws. */
  private async commit(batch: Entry[]): Promise<void> {
    const rows = batch.flatMap((entry, n) =>
      entry.request.events.map((event, ord) => ({
        n,
        ord,
        id: entry.eventIds[ord],
        instance_id: entry.request.instanceId,
        type: event.eventType,
        data: event.data,
        deliver: entry.request.deliver,
        received_at: entry.request.receivedAt.toISOString(),
      })),
    );
    let appended: { id: string; seq: string }[];
    try {
      appended = await this.run(JSON.stringify(rows));
    } catch (error) {
      if (batch.length > 1 && error instanceof DatabaseError && /^(22|23|54)/.test(error.code ?? '')) {
        // One request's data spoiled the batch: append the others one by one, still in order.
        for (const entry of batch) await this.commit([entry]);
        return;
      }
      for (const entry of batch) entry.reject(error);
      return;
    }
    const seqs = new Map(appended.map((row) => [row.id, BigInt(row.seq)]));
    for (const entry of batch) {
      if (entry.eventIds.length > 0 && !seqs.has(entry.eventIds[0])) {
        entry.resolve(null);
        continue;
      }
      const receivedAt = entry.request.receivedAt.toISOString();
      entry.resolve(
        entry.request.events.map((event, ord) => ({
          seq: seqs.get(entry.eventIds[ord]) as bigint,
          envelope: {
            eventId: entry.eventIds[ord],
            instanceId: entry.request.instanceId,
            eventType: event.eventType,
            receivedAt,
            eventData: event.data,
          },
        })),
      );
    }
  }

  private async run(rows: string): Promise<{ id: string; seq: string }[]> {
    for (let attempt = 1; ; attempt += 1) {
      try {
        const { rows: result } = await this.db.query<{ appended: { id: string; seq: string }[] }>({
          name: 'append-events',
          text: APPEND_BATCH,
          values: [rows],
        });
        return result[0].appended;
      } catch (error) {
        if (attempt >= ATTEMPTS || !(error instanceof DatabaseError) || !RETRYABLE.has(error.code ?? '')) throw error;
      }
    }
  }
}
