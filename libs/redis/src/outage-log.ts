/** Where an outage is reported: Nest's Logger fits. */
export interface OutageLogger {
  warn(message: string): void;
  log(message: string): void;
}

/**
 * The errors of one connection (or of a queue over it) as state changes: the first error of an outage is logged, the
 * same error again while the connection keeps retrying is only counted (a dead Redis answers every retry, several
 * times a second per connection), and coming back is one line. A different error, or the same one a minute later, is
 * logged again with how many were not.
 */
export class OutageLog {
  private current: string | undefined;
  private loggedAt = 0;
  private unlogged = 0;

  constructor(
    private readonly logger: OutageLogger,
    private readonly label: string,
    private readonly repeatAfterMs = 60_000,
  ) {}

  error(error: Error): void {
    const now = Date.now();
    if (error.message === this.current && now - this.loggedAt < this.repeatAfterMs) {
      this.unlogged += 1;
      return;
    }
    const more = this.unlogged > 0 ? ` (and ${this.unlogged} more errors since the last line)` : '';
    this.current = error.message;
    this.loggedAt = now;
    this.unlogged = 0;
    this.logger.warn(`${this.label}: ${error.message}${more}`);
  }

  /** The connection works again; logged only after an outage. */
  up(): void {
    if (this.current === undefined) return;
    this.logger.log(`${this.label}: connected again`);
    this.current = undefined;
    this.unlogged = 0;
  }
}
