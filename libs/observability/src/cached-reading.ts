/**
 * A value read at scrape time, bounded: a reading younger than `maxAgeMs` is reused, and a refresh that does not
 * answer within `waitMs` (a slow or unreachable Redis or PostgreSQL) leaves the scrape with the last value while it
 * goes on in the background. One refresh at a time; a failed one keeps the last value too.
 */
export class CachedReading<T> {
  private value: T | undefined;
  private readAt = -Infinity;
  private refreshing: Promise<void> | undefined;

  constructor(
    private readonly read: () => Promise<T>,
    private readonly options: { maxAgeMs: number; waitMs: number; onError?: (error: Error) => void },
    private readonly now: () => number = () => performance.now(),
  ) {}

  /** The freshest value available within `waitMs`; undefined until a first read succeeded. */
  async get(): Promise<T | undefined> {
    if (this.now() - this.readAt < this.options.maxAgeMs) return this.value;
    this.refreshing ??= this.read().then(
      (value) => {
        this.value = value;
        this.readAt = this.now();
        this.refreshing = undefined;
      },
      (error: Error) => {
        this.refreshing = undefined;
        this.options.onError?.(error);
      },
    );
    let timer: NodeJS.Timeout | undefined;
    const timeout = new Promise<void>((resolve) => {
      timer = setTimeout(resolve, this.options.waitMs);
      timer.unref();
    });
    await Promise.race([this.refreshing, timeout]);
    clearTimeout(timer);
    return this.value;
  }
}
