import { Inject, Injectable, Logger, type OnModuleDestroy, type OnModuleInit } from '@nestjs/common';
import { APP_CONFIG, type AppConfig } from '@app/config';
import {
  AppError,
  REDIS_VALUE_WIRE_VERSION,
  decodeWireJsonOr,
  liveStatusKey,
  liveStatusKeyPrefix,
  liveStatusSchema,
  sendingPauseKey,
  sendingPauseKeyPrefix,
  sendingPauseSchema,
  type InstanceScope,
  type LiveStatus,
  type SendingPause,
} from '@app/contracts';
import { InstanceRepository } from '@app/database';
import { KeyInvalidations, RedisService } from '@app/redis';

/** A bound on staleness should a push ever go missing without the connection noticing. */
const CACHE_TTL_MS = 1_000;
const MAX_ENTRIES = 50_000;
/**
 * How long the copy this process writes after a miss lives: a bound on how long it can outlive a change whose own copy
 * the worker failed to write to Redis (a Redis outage between its PostgreSQL and Redis writes), and on a leftover after
 * a race with a delete (see `keepCopy`). The next read after it expires reads PostgreSQL once and writes it again.
 */
const COPY_TTL_MS = 10_000;

interface Cached {
  /** Undefined: the key was absent (kept only for values whose absence means something, see `readTracked`). */
  value: unknown;
  expiresAt: number;
}

/**
 * The instance's current status: the owning worker's live copy in Redis, else what PostgreSQL last recorded (then
 * copied into Redis, so that an instance the worker has not written a copy for, one created and never paired, costs one
 * PostgreSQL read and not one per request: exactly such instances are polled while a client waits for a QR scan).
 * What was read from Redis is kept in memory only while Redis pushes changes of those keys to this process (key
 * tracking, see `KeyInvalidations`): a status change reaches every replica as soon as the worker writes it. The same
 * holds for the worker's record of paused sends, read with every status.
 */
@Injectable()
export class LiveStatusReader implements OnModuleInit, OnModuleDestroy {
  private readonly logger = new Logger(LiveStatusReader.name);
  private readonly cache = new Map<string, Cached>();
  private readonly reading = new Map<string, { generation: number; value: Promise<string | null> }>();
  private readonly invalidations: KeyInvalidations;

  constructor(
    @Inject(APP_CONFIG) private readonly config: AppConfig,
    private readonly redis: RedisService,
    private readonly instances: InstanceRepository,
  ) {
    this.invalidations = new KeyInvalidations(redis, [
      liveStatusKeyPrefix(config.queuePrefix),
      sendingPauseKeyPrefix(config.queuePrefix),
    ]);
  }

  onModuleInit(): void {
    this.invalidations.onInvalidate((keys) => {
      if (keys === null) this.cache.clear();
      else for (const key of keys) this.cache.delete(key);
    });
    this.invalidations.start();
  }

  onModuleDestroy(): void {
    this.invalidations.stop();
  }

  /** Whether status changes are being pushed to this process (else `onChange` may miss some). */
  get isLive(): boolean {
    return this.invalidations.isLive;
  }

  /**
   * Runs with the ids of instances whose live status was just written or deleted by anyone (a worker, another
   * replica); null when any may have changed (pushes lost, or tracking re-established).
   */
  onChange(listener: (instanceIds: string[] | null) => void): void {
    const prefix = liveStatusKeyPrefix(this.config.queuePrefix);
    this.invalidations.onInvalidate((keys) => {
      if (keys === null) return listener(null);
      const ids = keys
        .filter((key) => key.startsWith(prefix) && key.endsWith(':status'))
        .map((key) => key.slice(prefix.length, -':status'.length));
      if (ids.length > 0) listener(ids);
    });
  }

  /** The live copies of several instances at once (missing ones: null). */
  async readMany(instanceIds: string[]): Promise<(LiveStatus | null)[]> {
    if (instanceIds.length === 0) return [];
    const values = await this.redis.mget(instanceIds.map((id) => liveStatusKey(this.config.queuePrefix, id)));
    return values.map((value, index) => (value ? (this.decode(instanceIds[index], value) ?? null) : null));
  }

  /** The worker's live copy; one this API cannot read counts as missing (PostgreSQL has the status too). */
  private decode(instanceId: string, stored: string): LiveStatus | undefined {
    return decodeWireJsonOr('live_status', liveStatusSchema, REDIS_VALUE_WIRE_VERSION, stored, (reason) =>
      this.logger.warn({ instanceId, boundary: 'live_status', reason }, 'live status unreadable; read from PostgreSQL'),
    );
  }

  async read(scope: InstanceScope): Promise<LiveStatus> {
    const key = liveStatusKey(this.config.queuePrefix, scope.instanceId);
    const live = await this.readTracked(key, false, (stored) => this.decode(scope.instanceId, stored));
    if (live) return live;
    const instance = await this.instances.find(scope, scope.instanceId);
    if (!instance) throw new AppError('not_found');
    const recorded: LiveStatus = {
      status: instance.status,
      deviceId: instance.deviceId,
      updatedAt: Date.now(),
      ...(instance.statusReason ? { reason: instance.statusReason } : {}),
    };
    void this.keepCopy(key, recorded);
    return recorded;
  }

  /** The worker's record of the instance's paused sends (`SendingPauses`), while there is one. */
  readSendingPause(instanceId: string): Promise<SendingPause | undefined> {
    return this.readTracked(sendingPauseKey(this.config.queuePrefix, instanceId), true, (stored) =>
      decodeWireJsonOr('sending_pause', sendingPauseSchema, REDIS_VALUE_WIRE_VERSION, stored, (reason) =>
        this.logger.warn({ instanceId, boundary: 'sending_pause', reason }, 'sending pause unreadable; not shown'),
      ),
    );
  }

  /**
   * The value under `key` as `decode` reads it (undefined: absent or unreadable), from memory while pushes are live.
   * `keepAbsence`: an absent key is remembered too (with broadcast tracking, its creation is pushed like any change).
   */
  private async readTracked<T extends object>(
    key: string,
    keepAbsence: boolean,
    decode: (stored: string) => T | undefined,
  ): Promise<T | undefined> {
    if (this.invalidations.isLive) {
      const hit = this.cache.get(key);
      if (hit && hit.expiresAt > Date.now()) return hit.value as T | undefined;
    }
    const generation = this.invalidations.generation;
    const stored = await this.readRedis(key, generation);
    const decoded = stored ? decode(stored) : undefined;
    const value = decoded ? Object.freeze(decoded) : undefined;
    // Only when no push (and no loss) came in between: one may have been about this very key.
    const keep = (value !== undefined || (keepAbsence && stored === null)) && this.invalidations.generation === generation;
    if (keep && this.invalidations.isLive) this.remember(key, value);
    return value;
  }

  /**
   * Stores what PostgreSQL recorded as the live copy, only where there is none (NX) and without a fencing token, so it
   * never hides a newer status: every status change writes PostgreSQL first and then replaces the copy (a copy without
   * a token always yields to the worker's, see `StatusStore`). Were the change written to PostgreSQL after this read,
   * its copy either is in Redis already (NX leaves it) or replaces this one when it arrives; no change is announced
   * (events) before its copy is written. A delete racing with this read may leave a copy of a deleted instance behind,
   * unreachable (its key is revoked) until the TTL removes it. Best effort: a failed write only costs the next miss.
   */
  private async keepCopy(key: string, recorded: LiveStatus): Promise<void> {
    await this.redis.client.set(key, JSON.stringify(recorded), 'PX', COPY_TTL_MS, 'NX').catch(() => undefined);
  }

  /**
   * Requests that miss the cache together (say, when an entry expires under load) share one GET, but only while no
   * push came in since it was sent: a read started before a change must not answer requests that arrive after it.
   */
  private readRedis(key: string, generation: number): Promise<string | null> {
    const shared = this.invalidations.isLive ? this.reading.get(key) : undefined;
    if (shared && shared.generation === generation) return shared.value;
    const value = this.redis.client.get(key).catch(() => null);
    if (this.invalidations.isLive) {
      const read = { generation, value };
      this.reading.set(key, read);
      void value.finally(() => {
        if (this.reading.get(key) === read) this.reading.delete(key);
      });
    }
    return value;
  }

  private remember(key: string, value: unknown): void {
    if (this.cache.size >= MAX_ENTRIES) this.cache.delete(this.cache.keys().next().value as string);
    this.cache.set(key, { value, expiresAt: Date.now() + CACHE_TTL_MS });
  }
}
