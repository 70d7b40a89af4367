import { newEventId, type EventType } from '@app/contracts';
import type { Fence } from './fence';
import type { StoredEvent } from './stored-event';

/**
 * The event-append invariant, written once: every statement that adds events to an instance's log builds it from these
 * steps, so events get the instance's next sequence numbers under its counter row lock (commit order is seq order), and
 * an event meant for a webhook (or a broker sink) gets its delivery row in the same commit (it cannot be lost in between). Used by the
 * event log's group commit (`EventAppendGroupCommit`) and the send outcomes' (`OutcomeGroupCommit`).
 */

/** What a caller appends: events of one instance, in order. */
export interface NewEvent {
  eventType: EventType;
  data: Record<string, unknown>;
}

/** One request's events as handed to the statement: ids chosen up front, so the caller can find its rows again. */
export interface EventAppend {
  instanceId: string;
  events: NewEvent[];
  eventIds: string[];
  deliver: boolean;
  /** The events also get a sink delivery (the instance publishes to a broker), in the same commit. */
  sink: boolean;
  receivedAt: Date;
  /** When given, the events are appended only while this shard lease is current (`fence.ts`). */
  fence?: Fence;
}

/** One row of the statement's `$n::jsonb` event parameter (see `EVENT_RECORDS`). */
interface EventRow {
  n: number;
  ord: number;
  id: string;
  instance_id: string;
  type: string;
  data: Record<string, unknown>;
  deliver: boolean;
  sink: boolean;
  received_at: string;
  shard: number | null;
  token: number | null;
}

/** The rows of one appended event as the statement returns them (`APPENDED`). */
export interface AppendedRow {
  id: string;
  seq: string;
}

/** Event ids for `count` events received at `at` (time-ordered, so ids sort like arrival). */
export function newEventIds(count: number, at: number): string[] {
  return Array.from({ length: count }, () => newEventId(at));
}

/** The record set of the event rows passed as JSON in parameter `param` (e.g. `$1`), as `e`. */
export function eventRecords(param: string): string {
  return `jsonb_to_recordset(${param}::jsonb)
        AS e(n int, ord int, id text, instance_id text, type text, data jsonb, deliver boolean, sink boolean, received_at text, shard int, token bigint)`;
}

/**
 * The steps after a CTE named `events` (columns of `eventRecords`): lock the counter rows, number the events per
 * instance in request order (`n`) then event order (`ord`), append them, and create the deliveries of those with
 * `deliver`. Events of an instance that no longer exists are not appended (its row and counter row are gone).
 */
export const APPEND_STEPS = `alive AS (
      -- The instances first, KEY SHARE: a concurrent delete (which locks the instance, then its counter by cascade) waits
      -- for this statement, or went first and its events are skipped; the same order as the delete, so never a cycle.
      SELECT id FROM instances WHERE id IN (SELECT instance_id FROM events) ORDER BY id FOR KEY SHARE
    ), locked AS (
      -- Counter rows locked in id order before any is updated: two batches (or two workers) never wait on each other in a cycle.
      SELECT instance_id AS id FROM event_counters WHERE instance_id IN (SELECT id FROM alive) ORDER BY instance_id FOR UPDATE
    ), per_instance AS (
      SELECT events.instance_id, count(*)::bigint AS added FROM events JOIN locked ON locked.id = events.instance_id GROUP BY events.instance_id
    ), counter AS (
      UPDATE event_counters c SET last_seq = c.last_seq + p.added FROM per_instance p WHERE c.instance_id = p.instance_id
      RETURNING c.instance_id AS id, c.last_seq AS event_seq, p.added
    ), numbered AS (
      SELECT events.*, counter.event_seq - counter.added + row_number() OVER (PARTITION BY events.instance_id ORDER BY events.n, events.ord) AS seq
      FROM events JOIN counter ON counter.id = events.instance_id
    ), appended AS (
      INSERT INTO event_log (id, instance_id, seq, event_type, received_at, data)
      SELECT id, instance_id, seq, type, received_at::timestamp(3), data FROM numbered
      RETURNING id, seq
    ), delivery AS (
      -- Keyed by its event's time too: a delivery lives in the partition of its event's bounds and goes with it.
      INSERT INTO webhook_deliveries (event_id, received_at, instance_id)
      SELECT id, received_at::timestamp(3), instance_id FROM numbered WHERE deliver
    ), sink_delivery AS (
      -- The same for a broker sink, with the event's seq: the instance's publisher goes through them in that order.
      INSERT INTO sink_deliveries (event_id, received_at, instance_id, seq)
      SELECT id, received_at::timestamp(3), instance_id, seq FROM numbered WHERE sink
    )`;

/** The output column `appended`: a JSON array of `AppendedRow`, one per appended event. */
export const APPENDED = `coalesce((SELECT json_agg(json_build_object('id', id, 'seq', seq::text)) FROM appended), '[]'::json) AS appended`;

/** The event parameter for these requests; request `n` is its index, as the statement numbers in that order. */
export function eventRowsJson(requests: EventAppend[]): string {
  const rows: EventRow[] = requests.flatMap((request, n) =>
    request.events.map((event, ord) => ({
      n,
      ord,
      id: request.eventIds[ord],
      instance_id: request.instanceId,
      type: event.eventType,
      data: event.data,
      deliver: request.deliver,
      sink: request.sink,
      received_at: request.receivedAt.toISOString(),
      shard: request.fence?.shard ?? null,
      token: request.fence?.token ?? null,
    })),
  );
  return JSON.stringify(rows);
}

/** Sequence numbers of the appended events by event id. */
export function appendedSeqs(appended: AppendedRow[]): Map<string, bigint> {
  return new Map(appended.map((row) => [row.id, BigInt(row.seq)]));
}

/** A request's events as stored, or null when none of them was appended (its instance no longer exists). */
export function storedEvents(request: EventAppend, seqs: Map<string, bigint>): StoredEvent[] | null {
  if (request.eventIds.length > 0 && !seqs.has(request.eventIds[0])) return null;
  const receivedAt = request.receivedAt.toISOString();
  return request.events.map((event, ord) => ({
    seq: seqs.get(request.eventIds[ord]) as bigint,
    envelope: {
      eventId: request.eventIds[ord],
      instanceId: request.instanceId,
      eventType: event.eventType,
      receivedAt,
      eventData: event.data,
    },
  }));
}
