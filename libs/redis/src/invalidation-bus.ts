import { Injectable, Logger, type OnModuleDestroy } from '@nestjs/common';
import { RedisService } from './redis.service';
import type { Subscription } from './subscription';

type Listener = (message: string) => void;

/**
 * Cross-replica cache invalidation over Redis pub/sub. `isLive` is false whenever the subscription
 * may have missed messages (not yet subscribed, or reconnecting), so callers must not trust caches then.
 */
@Injectable()
export class InvalidationBus implements OnModuleDestroy {
  private readonly logger = new Logger(InvalidationBus.name);
  private subscriber: Subscription | undefined;
  private readonly listeners = new Map<string, Set<Listener>>();
  private live = false;
  private readonly lostListeners = new Set<() => void>();

  constructor(private readonly redis: RedisService) {}

  get isLive(): boolean {
    return this.live;
  }

  /** Runs whenever the subscription was interrupted, so caches can drop what they may have missed. */
  onLost(listener: () => void): void {
    this.lostListeners.add(listener);
  }

  subscribe(topic: string, listener: Listener): void {
    const channel = this.redis.key('invalidate', topic);
    const existing = this.listeners.get(channel);
    if (existing) {
      existing.add(listener);
      return;
    }
    this.listeners.set(channel, new Set([listener]));
    void this.ensureSubscriber()
      .subscribe(channel)
      .catch((error: Error) => this.logger.warn(`subscribe ${channel}: ${error.message}`));
  }

  async publish(topic: string, message: string): Promise<void> {
    await this.redis.publish(this.redis.key('invalidate', topic), message);
  }

  private ensureSubscriber(): Subscription {
    if (this.subscriber) return this.subscriber;
    const subscriber = this.redis.subscriber('invalidation');
    subscriber.on('message', (channel: string, message: string) => this.listeners.get(channel)?.forEach((listener) => listener(message)));
    subscriber.on('ready', () => {
      this.live = true;
    });
    const lost = () => {
      if (this.live) this.lostListeners.forEach((listener) => listener());
      this.live = false;
    };
    subscriber.on('lost', lost);
    this.subscriber = subscriber;
    return subscriber;
  }

  onModuleDestroy(): void {
    this.live = false;
  }
}
