import { Logger } from '@nestjs/common';
import type { Redis } from 'ioredis';
import type { RedisService } from './redis.service';

/** Where Redis publishes tracking invalidations for RESP2 clients that redirect them. */
const INVALIDATION_CHANNEL = '__redis__:invalidate';

type Listener = (keys: string[] | null) => void;

/**
 * Server-assisted invalidation (Redis `CLIENT TRACKING`, broadcast mode) for the keys under some prefixes: whoever
 * writes, deletes or expires such a key, Redis pushes its name to this process at once, so values read from those keys
 * may be kept in memory. No writer has to cooperate.
 *
 * `isLive` is false whenever a push may have been missed (not set up yet, reconnecting, or tracking refused by the
 * server): callers must not trust what they cached then. `generation` changes with every push and every loss, so a
 * read that started in an older generation may be used but not cached (a push for it may already have gone by).
 */
export class KeyInvalidations {
  private readonly logger = new Logger(KeyInvalidations.name);
  private readonly listeners = new Set<Listener>();
  private connection: Redis | undefined;
  private live = false;
  private current = 0;
  private connects = 0;
  private refusedLogged = false;

  constructor(
    private readonly redis: RedisService,
    private readonly prefixes: string[],
  ) {}

  get isLive(): boolean {
    return this.live;
  }

  get generation(): number {
    return this.current;
  }

  /** `keys` null: anything under the prefixes may have changed (a flush, or pushes may have been missed). */
  onInvalidate(listener: Listener): void {
    this.listeners.add(listener);
  }

  start(): void {
    if (this.connection) return;
    // Commands fail instead of waiting for a reconnect: a TRACKING naming the old connection's id must never run on a
    // new connection. ioredis must not resubscribe by itself either: after a reconnect the set-up runs again in order.
    const connection = this.redis.connectNode('key-invalidations', {
      enableOfflineQueue: false,
      maxRetriesPerRequest: 0,
      autoResubscribe: false,
    });
    if (!connection) {
      // A cluster: tracking is per node, and the keys under a prefix spread over every master. Nothing is cached then
      // (never live): each read goes to Redis, and callers that wait for pushes fall back to polling.
      this.logger.log(`key tracking for ${this.described()} not used on a Redis Cluster: values are read from Redis each time`);
      return;
    }
    connection.on('message', (channel: string, message: string) => {
      if (channel !== INVALIDATION_CHANNEL) return;
      this.invalidate(message === '' ? null : message.split(','));
    });
    connection.on('ready', () => void this.setUp(connection));
    for (const event of ['close', 'end', 'reconnecting']) connection.on(event, () => this.lose());
    this.connection = connection;
  }

  /** After this, nothing is live any more (the connection itself is closed with the RedisService). */
  stop(): void {
    this.lose();
    this.connection = undefined;
  }

  private async setUp(connection: Redis): Promise<void> {
    const attempt = ++this.connects;
    try {
      const id = await connection.client('ID');
      const prefixes = this.prefixes.flatMap((prefix) => ['PREFIX', prefix]);
      await connection.client('TRACKING', 'ON', 'REDIRECT', String(id), 'BCAST', ...prefixes);
      await connection.subscribe(INVALIDATION_CHANNEL);
    } catch (error) {
      // Older servers or an ACL without CLIENT: callers simply never cache.
      if (!this.refusedLogged) this.logger.warn(`key tracking for ${this.described()} unavailable: ${(error as Error).message}`);
      this.refusedLogged = true;
      return;
    }
    if (attempt !== this.connects || connection !== this.connection || connection.status !== 'ready') return;
    this.current += 1;
    this.live = true;
  }

  private described(): string {
    return this.prefixes.map((prefix) => `${prefix}*`).join(', ');
  }

  private invalidate(keys: string[] | null): void {
    this.current += 1;
    this.listeners.forEach((listener) => listener(keys));
  }

  private lose(): void {
    this.connects += 1;
    if (!this.live) return;
    this.live = false;
    this.invalidate(null);
  }
}
