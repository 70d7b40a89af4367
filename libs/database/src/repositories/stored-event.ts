import type { EventEnvelope } from '@app/contracts';

/** An event as the log holds it: its envelope and its place in the instance's sequence. */
export interface StoredEvent {
  seq: bigint;
  envelope: EventEnvelope;
}
