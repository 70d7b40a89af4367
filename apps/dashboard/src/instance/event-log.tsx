import { useQueryClient } from '@tanstack/react-query';
import { EVENT_TYPES } from '@contracts/events';
import { useEffect, useMemo, useState, type FormEvent } from 'react';
import { describeError } from '../api/http';
import {
  EVENT_PAGE_SIZE,
  keys,
  useDeliveriesQuery,
  useLoadOlderEvents,
  useRecentEventsQuery,
  useRecoverFailed,
  useRedeliver,
} from '../api/queries';
import { followLiveFeed, type LiveFeed } from '../api/live-socket';
import type {
  DeliveryReportDto as DeliveryReport,
  EventPageDto as EventPage,
  LoggedEventDto as LoggedEvent,
} from '@messaging-gateway/client';
import { CurlPreview } from '../components/curl-preview';
import { EmptyState, ErrorNotice, InlineError, LoadingBlock } from '../components/feedback';
import { DeliveryMarker, DeliveryStatesProvider } from './delivery-marker';
import { summarizeEvent } from './event-summary';
import { useCurrentInstance } from './instance-page';

/** Keeps the newest-first page of the log current from the instance's event stream. */
function useLiveEvents(instanceId: string, after: number | undefined): 'live' | 'reconnecting' {
  const client = useQueryClient();
  const [state, setState] = useState<'live' | 'reconnecting'>('reconnecting');
  useEffect(() => {
    if (after === undefined) return;
    let last = after;
    const abort = new AbortController();
    const feed: LiveFeed = { stream: 'events', instanceId, after: () => last };
    followLiveFeed(feed, {
      signal: abort.signal,
      onOpen: () => setState('live'),
      onDrop: () => setState('reconnecting'),
      onMessage: (message) => {
        const seq = Number(message.id);
        if (!Number.isSafeInteger(seq) || seq <= last) return;
        last = seq;
        const logged: LoggedEvent = { seq, event: JSON.parse(message.data) as LoggedEvent['event'] };
        client.setQueryData<EventPage>(keys.events(instanceId), (page) =>
          page ? { ...page, items: [logged, ...page.items.filter((item) => item.seq !== seq)] } : page,
        );
      },
    });
    return () => abort.abort();
  }, [client, instanceId, after]);
  return state;
}

export function EventLog() {
  const instance = useCurrentInstance();
  const events = useRecentEventsQuery(instance.id);
  const newest = events.data ? (events.data.items[0]?.seq ?? events.data.nextAfter ?? 0) : undefined;
  // The stream starts where the first page ended; later pages come from the stream only.
  // From the first render when the page is already loaded (prefetched at start): one render sooner live.
  const [streamFrom, setStreamFrom] = useState<number | undefined>(newest);
  useEffect(() => {
    if (streamFrom === undefined && newest !== undefined) setStreamFrom(newest);
  }, [newest, streamFrom]);
  const live = useLiveEvents(instance.id, streamFrom);
  const [typeFilter, setTypeFilter] = useState('');
  const [search, setSearch] = useState('');
  const shown = useMemo(() => {
    const needle = search.trim().toLowerCase();
    return (events.data?.items ?? []).filter(
      (item) =>
        (!typeFilter || item.event.eventType === typeFilter) &&
        (!needle || JSON.stringify(item.event).toLowerCase().includes(needle) || summarizeEvent(item.event).toLowerCase().includes(needle)),
    );
  }, [events.data, typeFilter, search]);

  return (
    <div className="stack">
      <section className="card" aria-labelledby="log-title">
        <div className="row spread">
          <h2 id="log-title">Event log</h2>
          <span className={`pill ${live === 'live' ? 'pill-live' : ''}`}>{live === 'live' ? 'Live' : 'Reconnecting…'}</span>
        </div>
        <div className="form-inline">
          <label className="field">
            <span>Event type</span>
            <select value={typeFilter} onChange={(event) => setTypeFilter(event.target.value)}>
              <option value="">All types</option>
              {EVENT_TYPES.map((type) => (
                <option key={type} value={type}>
                  {type}
                </option>
              ))}
            </select>
          </label>
          <label className="field grow">
            <span>Search</span>
            <input type="search" value={search} placeholder="text, chat, id…" onChange={(event) => setSearch(event.target.value)} />
          </label>
        </div>
        {events.isPending ? (
          <LoadingBlock label="Loading events" />
        ) : events.error ? (
          <ErrorNotice error={events.error} onRetry={() => void events.refetch()} />
        ) : shown.length === 0 ? (
          <EmptyState title={events.data.items.length === 0 ? 'No events yet' : 'No event matches the filter'}>
            {events.data.items.length === 0 ? 'Pair the instance or send a message; events appear here the moment they happen.' : null}
          </EmptyState>
        ) : (
          <DeliveryStatesProvider
            instanceId={instance.id}
            since={events.data.items.at(-1)?.event.receivedAt}
            newest={events.data.items[0]?.seq}
          >
            <ol className="event-list" aria-label="Events">
              {shown.map((item) => (
                <EventRow key={item.seq} item={item} />
              ))}
            </ol>
          </DeliveryStatesProvider>
        )}
        {events.data && <LoadOlder oldest={events.data.items.at(-1)?.seq} initialCount={events.data.items.length} />}
      </section>
      <RecoverFailedCard />
    </div>
  );
}

/** Pages back through the log, newest first; the first page and the live stream cover the rest. */
function LoadOlder({ oldest, initialCount }: { oldest: number | undefined; initialCount: number }) {
  const instance = useCurrentInstance();
  const older = useLoadOlderEvents(instance.id);
  const [exhausted, setExhausted] = useState(initialCount < EVENT_PAGE_SIZE);
  if (exhausted || oldest === undefined || oldest <= 1) return null;
  return (
    <div className="row load-older">
      <button
        type="button"
        className="button"
        disabled={older.isPending}
        onClick={() => older.mutate(oldest, { onSuccess: (page) => setExhausted(page.items.length < EVENT_PAGE_SIZE) })}
      >
        {older.isPending ? 'Loading…' : 'Load older events'}
      </button>
      <InlineError>{older.error ? describeError(older.error) : null}</InlineError>
    </div>
  );
}

function EventRow({ item }: { item: LoggedEvent }) {
  const [open, setOpen] = useState(false);
  const { event } = item;
  const time = new Date(event.receivedAt);
  return (
    <li className="event-row">
      <button type="button" className="event-head" aria-expanded={open} onClick={() => setOpen(!open)}>
        <span className="event-type mono">{event.eventType}</span>
        <span className="event-summary">{summarizeEvent(event)}</span>
        <DeliveryMarker eventId={event.eventId} />
        <time className="muted small" dateTime={event.receivedAt} title={time.toISOString()}>
          {time.toLocaleTimeString()}
        </time>
      </button>
      {open && <EventDetails item={item} />}
    </li>
  );
}

function EventDetails({ item }: { item: LoggedEvent }) {
  const instance = useCurrentInstance();
  const [raw, setRaw] = useState(false);
  return (
    <div className="event-details">
      <DeliveryAttempts eventId={item.event.eventId} />
      <button type="button" className="button button-quiet" aria-expanded={raw} onClick={() => setRaw(!raw)}>
        {raw ? 'Hide raw JSON' : 'Show raw JSON'}
      </button>
      {raw && (
        <pre className="raw-json" aria-label="Raw event JSON">
          {JSON.stringify(item.event, null, 2)}
        </pre>
      )}
      <CurlPreview request={{ method: 'GET', path: `/events/${item.event.eventId}/deliveries`, instanceId: instance.id }} />
    </div>
  );
}

const STATE_LABELS: Record<DeliveryReport['state'], string> = {
  pending: 'Delivery pending',
  delivered: 'Delivered',
  failed: 'Delivery failed',
  stopped: 'Delivery stopped',
  none: 'Not sent to a webhook',
};

function DeliveryAttempts({ eventId }: { eventId: string }) {
  const instance = useCurrentInstance();
  const report = useDeliveriesQuery(instance.id, eventId, true);
  const redeliver = useRedeliver(instance.id);
  if (report.isPending) return <LoadingBlock label="Loading deliveries" />;
  if (report.error)
    return <ErrorNotice title="Deliveries could not be loaded" error={report.error} onRetry={() => void report.refetch()} />;
  const { state, attempts, nextAttemptAt } = report.data;
  return (
    <section aria-label="Webhook deliveries" className="deliveries">
      <div className="row">
        <span className={`badge delivery-${state}`}>{STATE_LABELS[state]}</span>
        {nextAttemptAt && <span className="muted small">next attempt {new Date(nextAttemptAt).toLocaleTimeString()}</span>}
        {state !== 'none' && (
          // A pending delivery waits out its backoff; the same request makes it due now (the receiver may be back).
          <button type="button" className="button" onClick={() => redeliver.mutate(eventId)} disabled={redeliver.isPending}>
            {state === 'pending' ? 'Retry now' : 'Redeliver'}
          </button>
        )}
      </div>
      <InlineError>{redeliver.error ? describeError(redeliver.error) : null}</InlineError>
      {attempts.length > 0 && (
        <table className="attempts">
          <caption className="sr-only">Delivery attempts</caption>
          <thead>
            <tr>
              <th scope="col">#</th>
              <th scope="col">Status</th>
              <th scope="col">Duration</th>
              <th scope="col">When</th>
              <th scope="col">Error</th>
            </tr>
          </thead>
          <tbody>
            {attempts.map((attempt) => (
              <tr key={attempt.number}>
                <td>{attempt.number}</td>
                <td>
                  <span className={`badge outcome-${attempt.outcome}`}>{attempt.statusCode ?? attempt.outcome}</span>
                </td>
                <td>{attempt.durationMs} ms</td>
                <td>{new Date(attempt.startedAt).toLocaleTimeString()}</td>
                <td className="small">{attempt.error ? attempt.error.slice(0, 160) : '—'}</td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
    </section>
  );
}

type RecoveryState = 'failed' | 'pending';

/** What a bulk recovery did, in words: a count of 0 names what the other button is for. */
function recoveryOutcome(state: RecoveryState, count: number, since: string): string {
  const from = new Date(since).toLocaleString();
  if (state === 'failed')
    return count > 0
      ? `Queued again: ${count} failed ${count === 1 ? 'delivery' : 'deliveries'}`
      : `No failed deliveries since ${from}. Deliveries waiting for their next attempt are pending, not failed: use Retry pending now.`;
  return count > 0 ? `Retrying now: ${count} pending ${count === 1 ? 'delivery' : 'deliveries'}` : `No deliveries pending since ${from}.`;
}

function RecoverFailedCard() {
  const instance = useCurrentInstance();
  const recover = useRecoverFailed(instance.id);
  const [since, setSince] = useState(() => new Date(Date.now() - 3_600_000).toISOString().slice(0, 16));
  const [state, setState] = useState<RecoveryState>('failed');
  const body = { since: since ? new Date(since).toISOString() : '', state };
  const run = (chosen: RecoveryState) => {
    setState(chosen);
    recover.mutate({ ...body, state: chosen });
  };
  const submit = (event: FormEvent) => {
    event.preventDefault();
    run('failed');
  };
  const count = recover.data?.count;
  return (
    <form className="card form-inline" onSubmit={submit} aria-labelledby="recover-title">
      <h2 id="recover-title" className="full">
        Recover failed deliveries
      </h2>
      <label className="field">
        <span>Failed since</span>
        <input type="datetime-local" required value={since} onChange={(event) => setSince(event.target.value)} />
      </label>
      <button type="submit" className="button" disabled={recover.isPending}>
        Redeliver all failed
      </button>
      <button type="button" className="button" disabled={recover.isPending || !since} onClick={() => run('pending')}>
        Retry pending now
      </button>
      {recover.isSuccess && typeof count === 'number' && (
        <span className="ok" role="status">
          {recoveryOutcome(recover.variables.state, count, recover.variables.since)}
        </span>
      )}
      <InlineError>{recover.error ? describeError(recover.error) : null}</InlineError>
      <CurlPreview request={{ method: 'POST', path: '/events/redeliver', instanceId: instance.id, body }} />
    </form>
  );
}
