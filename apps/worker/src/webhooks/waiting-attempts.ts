import type { PendingDelivery } from '@app/database';

export interface WaitingAttempt {
  instanceId: string;
  url: string;
  /** The attempt to make: a committed event's first one (from memory), or one a queue job loaded from its row. */
  delivery: PendingDelivery;
  /** Taken from the queue (then it goes back there with a short delay when it has waited too long). */
  queued: boolean;
  /** From when it may be sent back to the queue (epoch ms). */
  until: number;
}

/**
 * Attempts waiting in this process for a slot of their URL, so a burst (committed events) or a backlog (queue jobs
 * whose URL was busy) is delivered from memory rather than round-tripping through the queue, within bounds: at most
 * `capacity` attempts (the rest stay with or go to the queue), optionally at most `perUrl` of one URL, and each until
 * its deadline, when the caller judges it due (then it goes to the queue), so a slow receiver's backlog lives in PostgreSQL and Redis, not here.
 */
export class WaitingAttempts {
  private readonly byUrl = new Map<string, WaitingAttempt[]>();
  private count = 0;

  constructor(private readonly capacity: number) {}

  get size(): number {
    return this.count;
  }

  /** False when full (or its URL already has `perUrl` waiting): the caller queues the attempt instead. */
  add(attempt: WaitingAttempt, perUrl = Infinity): boolean {
    if (this.count >= this.capacity) return false;
    const waiting = this.byUrl.get(attempt.url) ?? [];
    if (waiting.length >= perUrl) return false;
    waiting.push(attempt);
    this.byUrl.set(attempt.url, waiting);
    this.count += 1;
    return true;
  }

  urls(): string[] {
    return [...this.byUrl.keys()];
  }

  /** The oldest waiting attempt of the URL, removed. */
  take(url: string): WaitingAttempt | undefined {
    const waiting = this.byUrl.get(url);
    const next = waiting?.shift();
    if (!next) return undefined;
    this.count -= 1;
    if (waiting?.length === 0) this.byUrl.delete(url);
    return next;
  }

  /** Puts back, at the front of its URL's line, an attempt just taken that could not start after all. */
  restore(attempt: WaitingAttempt): void {
    const waiting = this.byUrl.get(attempt.url) ?? [];
    waiting.unshift(attempt);
    this.byUrl.set(attempt.url, waiting);
    this.count += 1;
  }

  /**
   * Removes and returns the attempts whose deadline has come and that `due` (when given) sends back, in line order;
   * the others keep their places.
   */
  expired(now = Date.now(), due: (attempt: WaitingAttempt) => boolean = () => true): WaitingAttempt[] {
    const out: WaitingAttempt[] = [];
    for (const [url, waiting] of this.byUrl) {
      const left = waiting.filter((attempt) => attempt.until > now || !due(attempt) || (out.push(attempt), false));
      if (left.length === waiting.length) continue;
      if (left.length === 0) this.byUrl.delete(url);
      else this.byUrl.set(url, left);
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
