/** Per-URL concurrency: at most `limit` deliveries to one URL at a time in this process. */
export class UrlSlots {
  private readonly busy = new Map<string, number>();

  constructor(private readonly limit: number) {}

  tryAcquire(url: string): (() => void) | null {
    const key = slotKey(url);
    const inUse = this.busy.get(key) ?? 0;
    if (inUse >= this.limit) return null;
    this.busy.set(key, inUse + 1);
    let released = false;
    return () => {
      if (released) return;
      released = true;
      const left = (this.busy.get(key) ?? 1) - 1;
      if (left <= 0) this.busy.delete(key);
      else this.busy.set(key, left);
    };
  }

  inUse(url: string): number {
    return this.busy.get(slotKey(url)) ?? 0;
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
