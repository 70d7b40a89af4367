import type { MessageOutcome } from '@app/contracts';
import * as eventAppend from './event-append.sql';
import { FencedOutError, fenceHolds, type Fence } from './fence';
import type { StoredEvent } from './stored-event';
import { queryRetrying, StatementBatcher, type Queryable } from './statement-batcher';

/** A stored send's status: `accepted` until its outcome; `unconfirmed` written but not acknowledged (see `MessageOutcome`). */
export type StoredStatus = 'accepted' | MessageOutcome;

/** A send's outcome to record; `from`: the status the row must still have (default `accepted`). */
export interface SendOutcome {
  status: MessageOutcome;
  error?: string;
  from?: StoredStatus;
}

export interface OutcomeRequest {
  instanceId: string;
  messageId: string;
  outcome: SendOutcome;
  events: eventAppend.NewEvent[];
  deliver: boolean;
  /** Also a sink delivery per event (the instance publishes to a broker). */
  sink?: boolean;
  /** The sending worker's shard lease: the outcome is recorded only while it is current. */
  fence?: Fence;
}

export interface RecordedOutcome {
  /** False when the row was no longer `accepted` (or the outcome's `from`; a repeated dispatch): nothing was written. */
  recorded: boolean;
  events: StoredEvent[];
}

interface Entry {
  request: OutcomeRequest;
  eventIds: string[];
}

const MAX_ROWS = 500;

/**
 * For every message of the batch that is still `accepted` (or in the status its outcome moves it `from`: an `unconfirmed`
 * send settled by a late ack, receipt or refusal): records its outcome, appends its events to its instance's
 * log with the next sequence numbers (numbered in batch order, then event order) and creates their webhook deliveries
 * when asked; one statement, one commit. A row that is no longer `accepted` gets nothing.
 */
export const RECORD_OUTCOMES_SQL = `WITH input AS (
      SELECT * FROM jsonb_to_recordset($1::jsonb) AS t(n int, message_id text, instance_id text, status text, from_status text, error text, shard int, token bigint)
    ), allowed AS (
      SELECT n FROM input WHERE token IS NULL OR ${fenceHolds('input.shard', 'input.token')}
    ), done AS (
      UPDATE messages m SET status = input.status::"MessageStatus", error = input.error,
             sent_at = CASE WHEN input.status = 'sent' THEN $2::timestamp(3) ELSE NULL END
      FROM input WHERE m.id = input.message_id AND m.instance_id = input.instance_id
        AND m.status = coalesce(input.from_status, 'accepted')::"MessageStatus"
        -- Probes each message by id. Without it, a partition filled by a burst of accepts and not analysed yet looks
        -- small, and the planner hashes the batch against every accepted row: a cost per outcome that grows with the
        -- backlog (a one-instance drain fell to 75 sends/s, see docs/scaling.md).
        AND m.id = ANY (ARRAY(SELECT message_id FROM input))
        AND input.n IN (SELECT n FROM allowed)
      RETURNING input.n
    ), events AS (
      SELECT e.* FROM ${eventAppend.eventRecords('$3')}
      WHERE e.n IN (SELECT n FROM done)
    ), ${eventAppend.APPEND_STEPS}
    SELECT coalesce((SELECT json_agg(n) FROM done), '[]'::json) AS done, ${eventAppend.APPENDED},
      coalesce((SELECT json_agg(n) FROM input WHERE n NOT IN (SELECT n FROM allowed)), '[]'::json) AS fenced`;

/**
 * Group commit for send outcomes, the worker's side of `MessageGroupCommit`. A drain hands over one message's outcome
 * and waits for it; outcomes handed over while the previous statement commits (from any instance) go together in the
 * next one, so a worker sending for many instances pays one statement and one commit per batch instead of per
 * message, and a message waits at most one commit longer than it would alone. A caller's promise settles only after
 * the statement holding its outcome has committed (or failed, then nothing of it was written), so a drain still
 * sends an instance's next message only once the previous outcome is durable.
 */
export class OutcomeGroupCommit {
  private readonly batcher: StatementBatcher<Entry, RecordedOutcome | FencedOutError>;

  constructor(private readonly db: Queryable) {
    this.batcher = new StatementBatcher((batch) => this.commit(batch), { maxWeight: MAX_ROWS });
  }

  /** Rejects with FencedOutError (nothing of it written, the rest of the batch unaffected) when its fence is stale. */
  async record(request: OutcomeRequest, at = Date.now()): Promise<RecordedOutcome> {
    const result = await this.batcher.add({ request, eventIds: eventAppend.newEventIds(request.events.length, at) });
    if (result instanceof FencedOutError) throw result;
    return result;
  }

  private async commit(batch: Entry[]): Promise<(RecordedOutcome | FencedOutError)[]> {
    const at = new Date();
    const messages = batch.map(({ request }, n) => ({
      n,
      message_id: request.messageId,
      instance_id: request.instanceId,
      status: request.outcome.status,
      from_status: request.outcome.from ?? null,
      error: request.outcome.error ?? null,
      shard: request.fence?.shard ?? null,
      token: request.fence?.token ?? null,
    }));
    // Events are received when their outcome is recorded: the time of this statement.
    const appends: eventAppend.EventAppend[] = batch.map(({ request, eventIds }) => ({
      ...request,
      sink: request.sink ?? false,
      eventIds,
      receivedAt: at,
    }));
    const [result] = await queryRetrying<{ done: number[]; appended: eventAppend.AppendedRow[]; fenced: number[] }>(
      this.db,
      { name: 'record-outcomes', text: RECORD_OUTCOMES_SQL },
      [JSON.stringify(messages), at.toISOString(), eventAppend.eventRowsJson(appends)],
    );
    const done = new Set(result.done);
    const seqs = eventAppend.appendedSeqs(result.appended);
    const fenced = new Set(result.fenced);
    return appends.map((append, n) =>
      fenced.has(n) && batch[n].request.fence
        ? new FencedOutError(batch[n].request.fence)
        : done.has(n)
          ? { recorded: true, events: eventAppend.storedEvents(append, seqs) ?? [] }
          : { recorded: false, events: [] },
    );
  }
}
