import { Client } from 'pg';
import { testEnv } from './environment';

export interface LoggedEvent {
  seq: string;
  eventType: string;
  data: Record<string, unknown>;
}

/** Reads an instance's event log straight from PostgreSQL (the delivery API comes with the events feature). */
export async function eventLog(instanceId: string): Promise<LoggedEvent[]> {
  const client = new Client({ connectionString: testEnv().DATABASE_URL });
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

/** Polls until `check` passes or the time is up; returns the last value. */
export async function eventually<T>(read: () => Promise<T>, check: (value: T) => boolean, timeoutMs = 10_000): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  let value = await read();
  while (!check(value) && Date.now() < deadline) {
    await new Promise((resolve) => setTimeout(resolve, 100));
    value = await read();
  }
  return value;
}
