import type { EventEnvelope } from '@app/contracts';

export interface WaitingAttempt {
  instanceId: string;
  url: string;
  envelope: EventEnvelope;
  since: number;
}

/**
 * Committed events waiting in this process for a slot of their URL, so a burst is delivered from memory rather than
 * through the queue, within bounds: at most `capacity` events (the rest go to the queue at once) and at most `maxWaitMs`
 * each (then they go to the queue too), so a slow receiver's backlog lives in PostgreSQL and Redis, not here.
 */
export class WaitingFirstAttempts {
  private readonly byUrl = new Map<string, WaitingAttempt[]>();
  private count = 0;

  constructor(
    private readonly capacity: number,
    private readonly maxWaitMs: number,
  ) {}

  get size(): number {
    return this.count;
  }

  /** False when full: the caller queues the event instead. */
  add(attempt: WaitingAttempt): boolean {
    if (this.count >= this.capacity) return false;
    const waiting = this.byUrl.get(attempt.url) ?? [];
    waiting.push(attempt);
    this.byUrl.set(attempt.url, waiting);
    this.count += 1;
    return true;
  }

  urls(): string[] {
    return [...this.byUrl.keys()];
  }

  /** The oldest waiting event of the URL, removed. */
  take(url: string): WaitingAttempt | undefined {
    const waiting = this.byUrl.get(url);
    const next = waiting?.shift();
    if (!next) return undefined;
    this.count -= 1;
    if (waiting?.length === 0) this.byUrl.delete(url);
    return next;
  }

  /** Puts back, at the front of its URL's line, an event just taken that could not start after all. */
  restore(attempt: WaitingAttempt): void {
    const waiting = this.byUrl.get(attempt.url) ?? [];
    waiting.unshift(attempt);
    this.byUrl.set(attempt.url, waiting);
    this.count += 1;
  }

  /** Removes and returns the events that have waited `maxWaitMs` or longer. */
  expired(now = Date.now()): WaitingAttempt[] {
    const out: WaitingAttempt[] = [];
    for (const [url, waiting] of this.byUrl) {
      let kept = 0;
      while (kept < waiting.length && now - waiting[kept].since >= this.maxWaitMs) kept += 1;
      if (kept === 0) continue;
      out.push(...waiting.splice(0, kept));
      if (waiting.length === 0) this.byUrl.delete(url);
    }
    this.count -= out.length;
    return out;
  }

  /** Removes and returns everything (shutdown). */
  drain(): WaitingAttempt[] {
    const out = [...this.byUrl.values()].flat();
    this.byUrl.clear();
    this.count = 0;
    return out;
  }
}
