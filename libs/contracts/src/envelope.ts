import { randomBytes } from 'node:crypto';
import type { EventType } from './events';

/** What customers receive, by webhook or pull stream. */
export interface EventEnvelope<T extends object = Record<string, unknown>> {
  eventId: string;
  instanceId: string;
  eventType: EventType;
  receivedAt: string;
  eventData: T;
}

/** `evt_<unix-ms>_<16 hex>`: unique, sortable by creation time, stable across retries. */
export function newEventId(now = Date.now()): string {
  return `evt_${now}_${randomBytes(8).toString('hex')}`;
}
