type Release = () => void;

interface Waiter {
  grant: (release: Release | null) => void;
  timer: NodeJS.Timeout;
}

/**
 * Per-URL concurrency: at most `limit` deliveries to one URL at a time in this process. A delivery that finds its URL
 * busy may wait a little for a slot (a fast receiver frees one within milliseconds), but only as many wait per URL as
 * there are slots, so one slow receiver never holds more than twice its share of the process's concurrency.
 */
export class UrlSlots {
  private readonly busy = new Map<string, number>();
  private readonly waiting = new Map<string, Waiter[]>();
  private held = 0;

  constructor(private readonly limit: number) {}

  tryAcquire(url: string): Release | null {
    const key = slotKey(url);
    const inUse = this.busy.get(key) ?? 0;
    if (inUse >= this.limit) return null;
    this.busy.set(key, inUse + 1);
    this.held += 1;
    return this.releaser(key);
  }

  /**
   * A slot now, or the first one freed within `waitMs`; null when none was freed in time or `limit` deliveries are
   * already waiting for this URL (the caller then retries later without holding its place).
   */
  acquire(url: string, waitMs: number): Promise<Release | null> {
    const now = this.tryAcquire(url);
    if (now) return Promise.resolve(now);
    const key = slotKey(url);
    const queue = this.waiting.get(key) ?? [];
    if (queue.length >= this.limit) return Promise.resolve(null);
    this.waiting.set(key, queue);
    return new Promise<Release | null>((resolve) => {
      const waiter: Waiter = {
        grant: resolve,
        timer: setTimeout(() => {
          const left = (this.waiting.get(key) ?? []).filter((other) => other !== waiter);
          if (left.length > 0) this.waiting.set(key, left);
          else this.waiting.delete(key);
          resolve(null);
        }, waitMs),
      };
      queue.push(waiter);
    });
  }

  inUse(url: string): number {
    return this.busy.get(slotKey(url)) ?? 0;
  }

  /** Slots in use across every URL: the attempts in flight. */
  get total(): number {
    return this.held;
  }

  private releaser(key: string): Release {
    let released = false;
    return () => {
      if (released) return;
      released = true;
      const queue = this.waiting.get(key);
      const next = queue?.shift();
      if (queue?.length === 0) this.waiting.delete(key);
      if (next) {
        // The slot passes straight to the first waiter: the count stays.
        clearTimeout(next.timer);
        next.grant(this.releaser(key));
        return;
      }
      this.held -= 1;
      const left = (this.busy.get(key) ?? 1) - 1;
      if (left <= 0) this.busy.delete(key);
      else this.busy.set(key, left);
    };
  }
}

/** Receivers are told apart by origin and path; the query string does not make a different receiver. */
function slotKey(url: string): string {
  try {
    const parsed = new URL(url);
    return `${parsed.origin}${parsed.pathname}`;
  } catch {
    return url;
  }
}
