import type { Operation } from './common';

/** Incoming calls, answered from this device. */
export interface CallOperations {
  /** Declines a ringing call from `callerId`; an unknown or finished call is not_found. */
  'calls.reject': Operation<{ callId: string; callerId: string }>;
}
