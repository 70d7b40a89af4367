import { Client } from 'pg';
import { testEnv } from './environment';

export interface LoggedEvent {
  seq: string;
  eventType: string;
  data: Record<string, unknown>;
}

/**
 * Reads an instance's event log straight from PostgreSQL (the delivery API comes with the events feature): the run's
 * database, or a suite's own.
 */
export async function eventLog(instanceId: string, databaseUrl = testEnv().DATABASE_URL): Promise<LoggedEvent[]> {
  const client = new Client({ connectionString: databaseUrl });
  await client.connect();
  try {
    const result = await client.query<{ seq: string; event_type: string; data: Record<string, unknown> }>(
      // Ordered by the stored number, not by the text it is read as ('10' < '9').
      'SELECT seq::text, event_type, data FROM event_log WHERE instance_id = $1 ORDER BY event_log.seq',
      [instanceId],
    );
    return result.rows.map((row) => ({ seq: row.seq, eventType: row.event_type, data: row.data }));
  } finally {
    await client.end();
  }
}

/** An instance's logged events of one type, after `seq` (all of them by default). */
export async function eventsOfType(instanceId: string, type: string, after = 0, databaseUrl?: string): Promise<LoggedEvent[]> {
  return (await eventLog(instanceId, databaseUrl)).filter((event) => event.eventType === type && Number(event.seq) > after);
}

/** The seq of an instance's last logged event; 0 while there is none. */
export async function lastSeqOf(instanceId: string): Promise<number> {
  const log = await eventLog(instanceId);
  return log.length === 0 ? 0 : Number(log[log.length - 1].seq);
}

/** How a polled value reads in a failure message: JSON, with sets and maps spelled out, cut to a readable length. */
function describeSeen(value: unknown): string {
  let shown: string;
  try {
    shown =
      JSON.stringify(value, (_key, item: unknown) =>
        item instanceof Set ? { Set: [...item] } : item instanceof Map ? { Map: [...item] } : item,
      ) ?? String(value);
  } catch {
    shown = String(value);
  }
  return shown.length > 2_000 ? `${shown.slice(0, 2_000)}… (${shown.length} characters)` : shown;
}

/**
 * Polls until `check` passes and returns the value that passed. When the time is up it throws with what it last
 * saw (the value `check` refused, or the error reading or checking it), so a failing wait says why where it fails.
 */
export async function eventually<T>(read: () => Promise<T>, check: (value: T) => boolean, timeoutMs = 10_000): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    let seen: string;
    try {
      const value = await read();
      if (check(value)) return value;
      seen = `last value: ${describeSeen(value)}`;
    } catch (error) {
      seen = `last error: ${error instanceof Error ? error.message : String(error)}`;
    }
    if (Date.now() >= deadline) throw new Error(`eventually: not true within ${timeoutMs} ms: ${check.toString()}\n${seen}`);
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}
