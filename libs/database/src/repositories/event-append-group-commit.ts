import * as eventAppend from './event-append.sql';
import type { StoredEvent } from './stored-event';
import { queryRetrying, StatementBatcher, type Queryable } from './statement-batcher';

export interface AppendRequest {
  instanceId: string;
  events: eventAppend.NewEvent[];
  deliver: boolean;
  receivedAt: Date;
}

const MAX_EVENTS = 1_000;

/**
 * Appends the events of every request of the batch to their instances' logs with the next sequence numbers (in batch
 * order, then event order, per instance) and their webhook deliveries where asked: one statement, one commit.
 */
const APPEND_BATCH = `WITH events AS (SELECT * FROM ${eventAppend.eventRecords('$1')}), ${eventAppend.APPEND_STEPS}
    SELECT ${eventAppend.APPENDED}`;

/**
 * Group commit for the event log: appends handed over while the previous statement commits (from any instance, any
 * number of events each) go together in the next one, so an event storm costs one commit per batch rather than per
 * event. A caller's promise settles only once its events are committed; the counter rows stay locked only for the
 * statement, and one batch runs at a time, so each instance's events are numbered in the order they were handed over.
 */
export class EventAppendGroupCommit {
  private readonly batcher: StatementBatcher<eventAppend.EventAppend, StoredEvent[] | null>;

  constructor(private readonly db: Queryable) {
    this.batcher = new StatementBatcher((batch) => this.commit(batch), {
      maxWeight: MAX_EVENTS,
      weight: (append) => append.events.length,
    });
  }

  /** The request's events as stored, or null when its instance no longer exists. */
  append(request: AppendRequest): Promise<StoredEvent[] | null> {
    return this.batcher.add({ ...request, eventIds: eventAppend.newEventIds(request.events.length, request.receivedAt.getTime()) });
  }

  private async commit(batch: eventAppend.EventAppend[]): Promise<(StoredEvent[] | null)[]> {
    const [{ appended }] = await queryRetrying<{ appended: eventAppend.AppendedRow[] }>(
      this.db,
      { name: 'append-events', text: APPEND_BATCH },
      [eventAppend.eventRowsJson(batch)],
    );
    const seqs = eventAppend.appendedSeqs(appended);
    return batch.map((append) => eventAppend.storedEvents(append, seqs));
  }
}
