import type { CacheStore } from '@whiskeysockets/baileys';

interface Entry {
  value: unknown;
  expiresAt: number;
}

/**
 * A bounded cache with a time to live, in the shape Baileys takes for its caches. It keeps no timers, so a session
 * that is dropped leaves nothing running behind: every read and write first drops the expired entries at the front
 * (entries are in the order they were written, so with one time to live the expired ones are all there), and an entry
 * read after it expired is gone too. A busy instance thus holds only what it wrote in the last `ttlMs`, not up to
 * `maxEntries` stale entries.
 */
export class ExpiringCache implements CacheStore {
  private readonly entries = new Map<string, Entry>();

  constructor(
    private readonly ttlMs: number,
    private readonly maxEntries: number,
    private readonly now: () => number = Date.now,
  ) {}

  get size(): number {
    return this.entries.size;
  }

  get<T>(key: string): T | undefined {
    this.dropExpired();
    const entry = this.entries.get(key);
    if (!entry) return undefined;
    if (entry.expiresAt <= this.now()) {
      this.entries.delete(key);
      return undefined;
    }
    return entry.value as T;
  }

  set<T>(key: string, value: T): void {
    this.dropExpired();
    // Re-inserting moves the key to the end, so the first key is always the one written longest ago.
    this.entries.delete(key);
    this.entries.set(key, { value, expiresAt: this.now() + this.ttlMs });
    while (this.entries.size > this.maxEntries) this.entries.delete(this.entries.keys().next().value as string);
  }

  del(key: string): void {
    this.entries.delete(key);
  }

  flushAll(): void {
    this.entries.clear();
  }

  /** Amortised O(1): each entry is looked at once more than it is kept. */
  private dropExpired(): void {
    const now = this.now();
    for (const [key, entry] of this.entries) {
      if (entry.expiresAt > now) return;
      this.entries.delete(key);
    }
  }
}
