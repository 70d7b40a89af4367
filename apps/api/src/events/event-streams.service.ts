import type { ServerResponse } from 'node:http';
import { Inject, Injectable, Logger, type OnModuleDestroy, type OnModuleInit } from '@nestjs/common';
import { APP_CONFIG, type AppConfig } from '@app/config';
import { AppError, eventsChannel, parseEventAnnouncement, type InstanceScope } from '@app/contracts';
import { CredentialRepository, EventLogRepository, EventStreamRepository } from '@app/database';
import { InvalidationBus, RedisService, type Subscription } from '@app/redis';
import { KeyResolver } from '../auth/key-resolver';
import { TenantLimits } from '../limits/tenant-limits';
import { EventStreamCursor, KEEP_ALIVE_FRAME, gapFrame } from './event-stream-cursor';
import { EVENT_STREAM_OPTIONS, type EventStreamOptions } from './event-stream.options';
import { STREAM_SLOT_TTL_MS, StreamSlots, type StreamSlot } from './stream-slots';

/** Where a client asked the stream to begin; the `Last-Event-ID` header wins over `?after=`. */
export interface StreamStart {
  lastEventId?: string;
  after?: number;
}

interface OpenStream {
  readonly scope: InstanceScope;
  /** The hash of the API key that opened the stream: the stream lives only as long as that key. */
  readonly keyHash: string;
  readonly cursor: EventStreamCursor;
  readonly close: () => void;
}

const SEQUENCE = /^\d{1,15}$/;

const UNCOUNTED_SLOT: StreamSlot = { renew: () => Promise.resolve(), release: () => Promise.resolve() };

/**
 * The pull streams of this API process. One Redis subscription per process hears the worker announce every
 * committed event and wakes the open streams of that instance; a stream with nothing new costs the database nothing.
 * Wake-ups carry no events: streams read the log itself. Pub/sub drops what is published while the subscription is
 * down, so each time it is (re)established every stream checks the log once; the deletion of an instance (published on
 * the invalidation bus) makes its streams check at once. A long safety poll per stream (`pollMs`, minutes) covers
 * only an announcement the worker failed to publish for an instance that then stays quiet.
 */
@Injectable()
export class EventStreamsService implements OnModuleInit, OnModuleDestroy {
  private readonly logger = new Logger(EventStreamsService.name);
  private readonly byInstance = new Map<string, Set<OpenStream>>();
  private readonly byKey = new Map<string, Set<OpenStream>>();
  private subscriber: Subscription | undefined;
  private closing = false;

  constructor(
    @Inject(APP_CONFIG) private readonly config: AppConfig,
    @Inject(EVENT_STREAM_OPTIONS) private readonly options: EventStreamOptions,
    private readonly redis: RedisService,
    private readonly log: EventLogRepository,
    private readonly positions: EventStreamRepository,
    private readonly slots: StreamSlots,
    private readonly limits: TenantLimits,
    private readonly keys: KeyResolver,
    private readonly bus: InvalidationBus,
    private readonly credentials: CredentialRepository,
  ) {}

  /** Rotating, regenerating or revoking a key ends the streams it opened, on every replica (the revocation is published). */
  onModuleInit(): void {
    this.keys.onKeyRevoked((keyHash) => this.closeOpenedWith(keyHash));
    // Deleted (or otherwise changed): a check of its streams, which end once the instance is gone.
    this.keys.onInstanceForgotten((instanceId) => this.byInstance.get(instanceId)?.forEach((stream) => void this.poll(stream)));
  }

  /** Number of open streams in this process. */
  get size(): number {
    let count = 0;
    for (const streams of this.byInstance.values()) count += streams.size;
    return count;
  }

  /** Answers with the stream: errors found before the first byte are ordinary JSON errors; afterwards only events flow. */
  async open(scope: InstanceScope, keyHash: string, start: StreamStart, response: ServerResponse): Promise<void> {
    const requested = resumePoint(start);
    const retained = await this.positions.retained(scope);
    if (retained === null) throw new AppError('unauthorized');
    let startAfter = requested ?? retained.lastSeq;
    let gap: string | undefined;
    // Events after the cursor were pruned: say so first, then go on from the oldest kept. 0 means "all that is kept".
    if (startAfter + 1n < retained.oldestKept) {
      if (startAfter > 0n) gap = gapFrame(startAfter + 1n, retained.oldestKept);
      startAfter = retained.oldestKept - 1n;
    }
    if (response.destroyed) return;
    const slot = await this.claimSlot(scope);
    if (response.destroyed) {
      void slot.release();
      return;
    }

    response.writeHead(200, { 'Content-Type': 'text/event-stream', 'Cache-Control': 'no-cache', 'X-Accel-Buffering': 'no' });
    if (this.closing) {
      // Shutting down: an empty stream that ends makes EventSource clients reconnect (to another replica), an error would not.
      response.end();
      void slot.release();
      return;
    }
    this.ensureSubscribed();
    response.socket?.setNoDelay(true);
    response.flushHeaders();
    if (gap) response.write(gap);
    const stream = this.attach(scope, keyHash, startAfter, response, slot);
    void stream.cursor.wake();
  }

  onModuleDestroy(): void {
    this.closeAll();
  }

  /** Shutdown: ends every open stream (clients reconnect elsewhere with Last-Event-ID) and opens no more. */
  closeAll(): void {
    this.closing = true;
    for (const streams of [...this.byInstance.values()]) for (const stream of [...streams]) stream.close();
  }

  /**
   * 429 while the instance has its limit of open streams (over all replicas). While Redis cannot count, streams open
   * uncounted: they read the log from PostgreSQL, and refusing them would turn a Redis outage into a pull-mode outage.
   */
  private async claimSlot(scope: InstanceScope): Promise<StreamSlot> {
    const limit = await this.limits.maxStreamsPerInstance(scope.customerId);
    const slot = await this.slots.acquire(scope.instanceId, limit).catch((error: unknown) => {
      this.logger.warn({ err: error, instanceId: scope.instanceId }, 'stream slots unavailable; opening the stream uncounted');
      return UNCOUNTED_SLOT;
    });
    if (slot) return slot;
    throw new AppError(
      'rate_limited',
      `rate limited: this instance already has ${limit} open event streams, the most allowed; close one before opening another`,
      { 'Retry-After': '5' },
    );
  }

  private closeOpenedWith(keyHash: string): void {
    for (const stream of [...(this.byKey.get(keyHash) ?? [])]) stream.close();
  }

  private attach(scope: InstanceScope, keyHash: string, startAfter: bigint, response: ServerResponse, slot: StreamSlot): OpenStream {
    const cursor = new EventStreamCursor(
      startAfter,
      (afterSeq, limit) => this.log.list(scope.instanceId, afterSeq, limit),
      (frame) => writeFrame(response, frame),
      this.options.pageSize,
      (error) => this.logger.warn({ err: error, instanceId: scope.instanceId }, 'event stream read failed; retrying on the next wake-up'),
    );
    const poll = setInterval(() => void this.poll(stream), this.options.pollMs).unref();
    const keepAlive = setInterval(
      () => {
        // A client that is not reading already has frames queued; piling comments on top helps nobody.
        if (!response.writableNeedDrain) void writeFrame(response, KEEP_ALIVE_FRAME);
        slot
          .renew()
          .catch((error: unknown) => this.logger.warn({ err: error, instanceId: scope.instanceId }, 'stream slot renewal failed'));
      },
      Math.min(this.options.keepAliveMs, STREAM_SLOT_TTL_MS / 3),
    ).unref();
    const stream: OpenStream = {
      scope,
      keyHash,
      cursor,
      close: () => {
        if (cursor.isStopped) return;
        cursor.stop();
        clearInterval(poll);
        clearInterval(keepAlive);
        this.detach(stream);
        slot
          .release()
          .catch((error: unknown) => this.logger.warn({ err: error, instanceId: scope.instanceId }, 'stream slot release failed'));
        if (!response.writableEnded && !response.destroyed) response.end();
      },
    };
    let streams = this.byInstance.get(scope.instanceId);
    if (!streams) this.byInstance.set(scope.instanceId, (streams = new Set()));
    streams.add(stream);
    let sameKey = this.byKey.get(keyHash);
    if (!sameKey) this.byKey.set(keyHash, (sameKey = new Set()));
    sameKey.add(stream);
    response.once('close', stream.close);
    return stream;
  }

  private detach(stream: OpenStream): void {
    const streams = this.byInstance.get(stream.scope.instanceId);
    streams?.delete(stream);
    if (streams?.size === 0) this.byInstance.delete(stream.scope.instanceId);
    const sameKey = this.byKey.get(stream.keyHash);
    sameKey?.delete(stream);
    if (sameKey?.size === 0) this.byKey.delete(stream.keyHash);
  }

  /**
   * A check of one stream: asks for the instance's latest sequence number, reads only when it moved, and ends the
   * stream once the instance is gone (or, while revocations may have been missed, once its key is).
   */
  private async poll(stream: OpenStream): Promise<void> {
    let last: bigint | null;
    try {
      last = await this.positions.lastSeq(stream.scope);
    } catch (error) {
      this.logger.warn({ err: error, instanceId: stream.scope.instanceId }, 'event stream poll failed');
      return;
    }
    if (last === null) stream.close();
    else if (!this.bus.isLive && !(await this.keyStillValid(stream))) stream.close();
    else await stream.cursor.wake(last);
  }

  /** Only while revocations may be missed (the invalidation channel is down): ask the database whether the key still exists. */
  private async keyStillValid(stream: OpenStream): Promise<boolean> {
    try {
      return (await this.credentials.principalForKeyHash(stream.keyHash)) !== null;
    } catch {
      return true;
    }
  }

  private ensureSubscribed(): void {
    if (this.subscriber) return;
    const channel = eventsChannel(this.config.queuePrefix);
    const subscriber = this.redis.subscriber('event-streams');
    subscriber.on('message', (from: string, message: string) => {
      if (from !== channel) return;
      const announced = parseEventAnnouncement(message);
      if (!announced) return;
      this.byInstance.get(announced.instanceId)?.forEach((stream) => void stream.cursor.wake(announced.seq));
    });
    // 'ready' comes after every reconnect (and, on a single node, with the first connection); whatever was announced
    // while not subscribed is lost. Once Redis confirms the subscription (the connection's own resubscription went
    // first, so this one is only a barrier) every stream checks the log: anything committed later is announced to us.
    const subscribeThenCheck = () =>
      subscriber
        .subscribe(channel)
        .then(() => this.byInstance.forEach((streams) => streams.forEach((stream) => void this.poll(stream))))
        .catch((error: Error) => this.logger.warn(`subscribe ${channel}: ${error.message}`));
    subscriber.on('ready', () => void subscribeThenCheck());
    void subscribeThenCheck();
    this.subscriber = subscriber;
  }
}

/** `Last-Event-ID` (sent by EventSource on reconnect) wins; absent both, the stream starts with the next new event. */
function resumePoint(start: StreamStart): bigint | undefined {
  const header = start.lastEventId?.trim();
  if (header) {
    if (!SEQUENCE.test(header)) throw AppError.validation('Last-Event-ID must be a non-negative whole number');
    return BigInt(header);
  }
  return start.after === undefined ? undefined : BigInt(start.after);
}

/** Writes unless the client has gone; waits for 'drain' when the socket buffer is full, so a slow reader is not flooded. */
function writeFrame(response: ServerResponse, frame: string): Promise<boolean> {
  if (response.writableEnded || response.destroyed) return Promise.resolve(false);
  if (response.write(frame)) return Promise.resolve(true);
  return new Promise((resolve) => {
    const settle = () => {
      response.off('drain', settle);
      response.off('close', settle);
      resolve(!response.destroyed && !response.writableEnded);
    };
    response.once('drain', settle);
    response.once('close', settle);
  });
}
