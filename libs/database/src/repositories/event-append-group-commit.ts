import * as eventAppend from './event-append.sql';
import { FencedOutError, fenceHolds, type Fence } from './fence';
import type { StoredEvent } from './stored-event';
import { queryRetrying, StatementBatcher, type Queryable } from './statement-batcher';

export interface AppendRequest {
  instanceId: string;
  events: eventAppend.NewEvent[];
  deliver: boolean;
  /** Also a sink delivery per event (the instance publishes to a broker). */
  sink?: boolean;
  receivedAt: Date;
  /** A worker's session passes its shard lease: its events are appended only while that lease is current. */
  fence?: Fence;
}

const MAX_EVENTS = 1_000;

/**
 * Appends the events of every request of the batch to their instances' logs with the next sequence numbers (in batch
 * order, then event order, per instance) and their webhook deliveries where asked: one statement, one commit.
 */
const APPEND_BATCH = `WITH input AS (SELECT * FROM ${eventAppend.eventRecords('$1')}),
    events AS (SELECT * FROM input e WHERE e.token IS NULL OR ${fenceHolds('e.shard', 'e.token')}), ${eventAppend.APPEND_STEPS}
    SELECT ${eventAppend.APPENDED},
      coalesce((SELECT json_agg(DISTINCT n) FROM input WHERE token IS NOT NULL AND n NOT IN (SELECT n FROM events)), '[]'::json) AS fenced`;

/**
 * Group commit for the event log: appends handed over while the previous statement commits (from any instance, any
 * number of events each) go together in the next one, so an event storm costs one commit per batch rather than per
 * event. A caller's promise settles only once its events are committed; the counter rows stay locked only for the
 * statement, and one batch runs at a time, so each instance's events are numbered in the order they were handed over.
 */
export class EventAppendGroupCommit {
  private readonly batcher: StatementBatcher<eventAppend.EventAppend, StoredEvent[] | null | FencedOutError>;

  constructor(private readonly db: Queryable) {
    this.batcher = new StatementBatcher((batch) => this.commit(batch), {
      maxWeight: MAX_EVENTS,
      weight: (append) => append.events.length,
    });
  }

  /**
   * The request's events as stored, or null when its instance no longer exists. Rejects with FencedOutError (and appends
   * nothing of this request; the rest of the batch is unaffected) when its fence is no longer the shard's lease.
   */
  async append(request: AppendRequest): Promise<StoredEvent[] | null> {
    const result = await this.batcher.add({
      ...request,
      sink: request.sink ?? false,
      eventIds: eventAppend.newEventIds(request.events.length, request.receivedAt.getTime()),
    });
    if (result instanceof FencedOutError) throw result;
    return result;
  }

  private async commit(batch: eventAppend.EventAppend[]): Promise<(StoredEvent[] | null | FencedOutError)[]> {
    const [{ appended, fenced }] = await queryRetrying<{ appended: eventAppend.AppendedRow[]; fenced: number[] }>(
      this.db,
      { name: 'append-events', text: APPEND_BATCH },
      [eventAppend.eventRowsJson(batch)],
    );
    const seqs = eventAppend.appendedSeqs(appended);
    const refused = new Set(fenced);
    return batch.map((append, n) =>
      refused.has(n) && append.fence ? new FencedOutError(append.fence) : eventAppend.storedEvents(append, seqs),
    );
  }
}
