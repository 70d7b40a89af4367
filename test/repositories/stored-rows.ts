import type { RepositoryDatabase } from './repository-database';

export interface EventRow {
  id: string;
  instance_id: string;
  seq: string;
  event_type: string;
  received_at: Date;
  data: Record<string, unknown>;
}

export interface DeliveryRow {
  event_id: string;
  instance_id: string;
  state: string;
  attempts: number;
  schedule_step: number;
  last_error: string | null;
}

/** An instance's event log as stored, in sequence order (timestamps are stored as UTC without a zone). */
export function eventRows(db: RepositoryDatabase, instanceId: string): Promise<EventRow[]> {
  return db.rows<EventRow>(
    `SELECT id, instance_id, seq::text AS seq, event_type, received_at AT TIME ZONE 'UTC' AS received_at, data
     FROM event_log WHERE instance_id = $1 ORDER BY event_log.seq`,
    [instanceId],
  );
}

/** An instance's webhook deliveries in the order of their events (timestamps left out: they are the database's now()). */
export function deliveryRows(db: RepositoryDatabase, instanceId: string): Promise<DeliveryRow[]> {
  return db.rows<DeliveryRow>(
    `SELECT d.event_id, d.instance_id, d.state::text AS state, d.attempts, d.schedule_step, d.last_error
     FROM webhook_deliveries d JOIN event_log e ON e.id = d.event_id WHERE d.instance_id = $1 ORDER BY e.seq`,
    [instanceId],
  );
}
