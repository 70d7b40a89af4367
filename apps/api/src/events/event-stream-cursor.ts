import type { StoredEvent } from '@app/database';

/** An SSE comment line: ignored by clients, but keeps proxies and idle-timeouts from closing the connection. */
export const KEEP_ALIVE_FRAME = ': keep-alive\n\n';

/**
 * One SSE message: `id:` is the event's per-instance sequence number (what a client sends back as `Last-Event-ID`),
 * `data:` the envelope. JSON.stringify escapes line breaks, so the envelope always fits on one `data:` line.
 */
export function eventFrame(event: StoredEvent): string {
  return `id: ${event.seq}\ndata: ${JSON.stringify(event.envelope)}\n\n`;
}

/**
 * Events were lost between what the client has and what follows: those from `firstMissing` to `oldestKept - 1` were
 * pruned. Its `id:` is the last lost sequence, so an EventSource that reconnects right after does not hear of it again.
 */
export function gapFrame(firstMissing: bigint, oldestKept: bigint): string {
  const data = JSON.stringify({ firstMissing: Number(firstMissing), oldestKept: Number(oldestKept) });
  return `id: ${oldestKept - 1n}\nevent: gap\ndata: ${data}\n\n`;
}

/** Up to `limit` events of the log with a sequence number above `afterSeq`, in sequence order. */
export type PageReader = (afterSeq: bigint, limit: number) => Promise<StoredEvent[]>;

/**
 * Reads after an announced event that the read did not return yet (a read replica that has not replayed it), retried
 * after 50 ms, 100 ms, … up to about 13 s in all; then the stream's safety poll takes over.
 */
const BEHIND_RETRIES = 8;
const BEHIND_FIRST_DELAY_MS = 50;

/** Hands a frame to the transport; resolves once it can take more, with false when the client has gone. */
export type FrameWriter = (frame: string) => Promise<boolean>;

/**
 * Where one stream stands in an instance's event log. A wake-up only says "look again": events are always read from
 * the log after the last one sent, page by page, and one read runs at a time, so they go out in sequence order with
 * no gap and no repeat however wake-ups arrive (late, twice, out of order, in bursts, or not at all).
 */
export class EventStreamCursor {
  private lastSent: bigint;
  private running = false;
  /** A wake-up arrived that the current read may not have seen. */
  private dirty = false;
  private stopped = false;
  private settled: Promise<void> = Promise.resolve();
  /** The highest sequence number announced: the reader may lag (a replica), so reading stops only once it is sent. */
  private announced: bigint;
  private behindRetries = 0;
  private retryTimer: NodeJS.Timeout | undefined;

  constructor(
    startAfter: bigint,
    private readonly read: PageReader,
    private readonly write: FrameWriter,
    private readonly pageSize: number,
    private readonly onError: (error: unknown) => void,
  ) {
    this.lastSent = startAfter;
    this.announced = startAfter;
  }

  /** The sequence number of the last event sent (or the starting point). */
  get position(): bigint {
    return this.lastSent;
  }

  get isStopped(): boolean {
    return this.stopped;
  }

  /**
   * Something may have been appended, up to `seq` when the caller knows it. Resolves once the cursor has caught up
   * with what it read; never rejects (read errors go to `onError`, and the next wake-up tries again).
   */
  wake(seq?: bigint): Promise<void> {
    if (this.stopped || (seq !== undefined && seq <= this.lastSent)) return this.settled;
    if (seq !== undefined && seq > this.announced) this.announced = seq;
    this.dirty = true;
    if (!this.running) {
      this.running = true;
      this.settled = this.catchUp();
    }
    return this.settled;
  }

  /** Sends nothing more; a read in flight is dropped. */
  stop(): void {
    this.stopped = true;
    clearTimeout(this.retryTimer);
  }

  private async catchUp(): Promise<void> {
    const before = this.lastSent;
    try {
      while (this.dirty && !this.stopped) {
        this.dirty = false;
        await this.sendPages();
      }
    } catch (error) {
      if (!this.stopped) this.onError(error);
    } finally {
      this.running = false;
      this.retryWhileBehind(this.lastSent > before);
    }
  }

  /** An announced event was not readable yet: look again shortly, a few times, rather than wait for the next wake-up. */
  private retryWhileBehind(progressed: boolean): void {
    if (progressed) this.behindRetries = 0;
    if (this.stopped || this.retryTimer || this.lastSent >= this.announced) return;
    if (this.behindRetries >= BEHIND_RETRIES) {
      // Given up (the instance was deleted, or the announcement was wrong): the safety poll and later wake-ups remain.
      this.announced = this.lastSent;
      this.behindRetries = 0;
      return;
    }
    const delay = BEHIND_FIRST_DELAY_MS * 2 ** this.behindRetries;
    this.behindRetries += 1;
    this.retryTimer = setTimeout(() => {
      this.retryTimer = undefined;
      void this.wake();
    }, delay).unref();
  }

  private async sendPages(): Promise<void> {
    for (;;) {
      const page = await this.read(this.lastSent, this.pageSize);
      const before = this.lastSent;
      for (const event of page) {
        if (this.stopped) return;
        // The reader promises seq > afterSeq; never trust it with the ordering invariant.
        if (event.seq <= this.lastSent) continue;
        // Sequences are contiguous and only pruning removes events: a jump means the client lost some. Say so.
        if (event.seq > this.lastSent + 1n && !(await this.write(gapFrame(this.lastSent + 1n, event.seq)))) {
          this.stop();
          return;
        }
        const accepted = this.write(eventFrame(event));
        this.lastSent = event.seq;
        if (!(await accepted)) {
          this.stop();
          return;
        }
      }
      if (page.length < this.pageSize || this.lastSent === before) return;
    }
  }
}
