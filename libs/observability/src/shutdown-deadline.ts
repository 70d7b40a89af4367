/** The time left before a shutdown must be over. */
export class ShutdownDeadline {
  private readonly endsAt: number;

  constructor(timeoutMs: number) {
    this.endsAt = performance.now() + timeoutMs;
  }

  remainingMs(): number {
    return Math.max(0, this.endsAt - performance.now());
  }

  /** Waits for `work` at most `ms` (and never past the deadline); true when it settled in time. */
  settlesWithin(work: Promise<unknown>, ms: number): Promise<boolean> {
    return this.settles(work, Math.max(0, this.remainingMs() - ms));
  }

  /**
   * Waits for `work` but no longer than the deadline minus `reserveMs` (time kept for the steps after it). True when the
   * work settled in time; its rejection counts as settled. The work itself is not cancelled.
   */
  async settles(work: Promise<unknown>, reserveMs = 0): Promise<boolean> {
    let timer: NodeJS.Timeout | undefined;
    const late = new Promise<false>((resolve) => {
      timer = setTimeout(() => resolve(false), Math.max(0, this.remainingMs() - reserveMs));
    });
    const settled = work.then(
      () => true as const,
      () => true as const,
    );
    try {
      return await Promise.race([settled, late]);
    } finally {
      clearTimeout(timer);
    }
  }
}

export interface GracefulShutdownOptions {
  timeoutMs: number;
  logger: { log(message: string): void; error(message: string): void };
  /** Stops taking work, finishes what is in progress and closes connections, using the deadline to bound each step. */
  run(deadline: ShutdownDeadline, signal: NodeJS.Signals): Promise<void>;
  /** Defaults to process.exit; tests pass their own. */
  exit?: (code: number) => void;
}

/**
 * SIGTERM/SIGINT start `run`; whatever Redis, PostgreSQL or the network do, the process exits within `timeoutMs`:
 * with 0 when `run` finished, with 1 when the deadline cut it short (unfinished work is left to whoever takes over,
 * which is why everything accepted must already be durable). A second signal exits at once.
 */
export function exitWithin(options: GracefulShutdownOptions): void {
  const exit = options.exit ?? ((code: number) => process.exit(code));
  let started = false;
  const onSignal = (signal: NodeJS.Signals) => {
    if (started) {
      options.logger.error(`${signal} again: exiting now`);
      exit(1);
      return;
    }
    started = true;
    const deadline = new ShutdownDeadline(options.timeoutMs);
    options.logger.log(`${signal}: shutting down (at most ${options.timeoutMs} ms)`);
    // Not unref'd: it must fire even if everything else the process waits on is gone.
    const hardStop = setTimeout(() => {
      options.logger.error(`shutdown did not finish within ${options.timeoutMs} ms; exiting, unfinished work is left to the next owner`);
      exit(1);
    }, options.timeoutMs);
    options.run(deadline, signal).then(
      () => {
        clearTimeout(hardStop);
        exit(0);
      },
      (error: unknown) => {
        clearTimeout(hardStop);
        options.logger.error(`shutdown failed: ${error instanceof Error ? error.message : String(error)}`);
        exit(1);
      },
    );
  };
  process.on('SIGTERM', onSignal);
  process.on('SIGINT', onSignal);
}
