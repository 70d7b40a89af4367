import type { CacheStore } from '@whiskeysockets/baileys';

interface Entry {
  value: unknown;
  expiresAt: number;
}

/**
 * A bounded cache with a time to live, in the shape Baileys takes for its caches. It keeps no timers (expired
 * entries go when read or pushed out by newer ones), so a session that is dropped leaves nothing running behind.
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
    const entry = this.entries.get(key);
    if (!entry) return undefined;
    if (entry.expiresAt <= this.now()) {
      this.entries.delete(key);
      return undefined;
    }
    return entry.value as T;
  }

  set<T>(key: string, value: T): void {
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
}
