import type { EventEnvelopeDto } from './generated/openapi.js';

/**
 * An event body (webhook delivery or stream message) that is not an event envelope: names the field, never its value.
 * Hand-written rather than a schema library so the client keeps its two small dependencies; the gateway's own
 * envelope fixtures check it (envelope.spec.ts).
 */
export class EventDecodeError extends Error {
  override readonly name = 'EventDecodeError';
}

/**
 * The envelope's fields checked at run time. `eventType` is any string: a newer gateway may add event types, and a
 * receiver should be able to skip one it does not know rather than fail. Fields added later are optional and kept.
 */
export function decodeEventEnvelope(value: unknown): EventEnvelopeDto {
  if (!isRecord(value)) throw new EventDecodeError('the event is not a JSON object');
  for (const field of ['eventId', 'instanceId', 'eventType', 'receivedAt'] as const) {
    if (typeof value[field] !== 'string' || value[field] === '') throw new EventDecodeError(`${field}: expected a non-empty string`);
  }
  if (Number.isNaN(Date.parse(value.receivedAt as string))) throw new EventDecodeError('receivedAt: expected an ISO 8601 time');
  if (!isRecord(value.eventData)) throw new EventDecodeError('eventData: expected an object');
  return value as unknown as EventEnvelopeDto;
}

/** `decodeEventEnvelope` of a JSON text. */
export function parseEventEnvelope(text: string): EventEnvelopeDto {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    throw new EventDecodeError('the body is not JSON');
  }
  return decodeEventEnvelope(value);
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}
