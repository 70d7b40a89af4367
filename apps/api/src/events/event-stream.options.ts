/** Timings of the pull stream. Fixed in production; tests replace the provider to shorten them. */
export interface EventStreamOptions {
  /** How often a stream sends a `: keep-alive` comment, so proxies and clients keep the connection open. */
  keepAliveMs: number;
  /**
   * How often each stream checks the log on its own. Wake-ups and the check on every (re)subscription cover pub/sub's
   * losses; this covers only an announcement the worker failed to publish, so it is minutes: 10,000 idle streams cost
   * 33 reads a second at 5 minutes (3,600 at the former 2 s).
   */
  pollMs: number;
  /** Events read from the log per query while catching up. */
  pageSize: number;
}

export const EVENT_STREAM_OPTIONS = Symbol('EVENT_STREAM_OPTIONS');

export const DEFAULT_EVENT_STREAM_OPTIONS: EventStreamOptions = Object.freeze({ keepAliveMs: 15_000, pollMs: 300_000, pageSize: 100 });
