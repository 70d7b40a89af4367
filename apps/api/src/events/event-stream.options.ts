/** Timings of the pull stream. Fixed in production; tests replace the provider to shorten them. */
export interface EventStreamOptions {
  /** How often a stream sends a `: keep-alive` comment, so proxies and clients keep the connection open. */
  keepAliveMs: number;
  /** How often each stream re-reads the log on its own, in case a pub/sub wake-up was missed. */
  pollMs: number;
  /** Events read from the log per query while catching up. */
  pageSize: number;
}

export const EVENT_STREAM_OPTIONS = Symbol('EVENT_STREAM_OPTIONS');

export const DEFAULT_EVENT_STREAM_OPTIONS: EventStreamOptions = Object.freeze({ keepAliveMs: 15_000, pollMs: 2_000, pageSize: 100 });
