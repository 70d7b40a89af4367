import { ExpiringCache } from './expiring-cache';

/** Baileys' cache key for a one-time pre-key: `${type}.${id}` (`makeCacheableSignalKeyStore`). */
const PRE_KEY = 'pre-key.';

/**
 * The cache in front of an instance's Signal keys in PostgreSQL, which keeps no one-time pre-keys. Pairing writes 812
 * of them (rc14's INITIAL_PREKEY_COUNT) through Baileys' write-through cache, and each is read at most once, when a new
 * contact's first message consumes it (Baileys then deletes it): cached, they were most of what a freshly paired
 * session weighed more than a resumed one (about 0.35 MiB of heap each), and stayed until 5,000 later writes pushed them
 * out. They are read from PostgreSQL instead, once per new contact; sessions and sender keys, read on every message,
 * are still cached.
 */
export class SignalKeyCache extends ExpiringCache {
  override get<T>(key: string): T | undefined {
    return key.startsWith(PRE_KEY) ? undefined : super.get<T>(key);
  }

  override set<T>(key: string, value: T): void {
    if (key.startsWith(PRE_KEY)) super.del(key);
    else super.set(key, value);
  }
}
