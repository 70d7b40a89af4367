import { Injectable, type OnModuleInit } from '@nestjs/common';
import { EVENT_ROUTING_TOPIC } from '@app/contracts';
import { WebhookDeliveryRepository, type EventRouting } from '@app/database';
import { InvalidationBus } from '@app/redis';

const TTL_MS = 30_000;
const MAX_ENTRIES = 50_000;

/**
 * Each instance's effective event settings, cached while the invalidation bus is live: the API publishes every
 * settings change, so filters and webhook URLs apply to the very next event.
 */
@Injectable()
export class EventRoutingCache implements OnModuleInit {
  private readonly entries = new Map<string, { routing: EventRouting | null; expiresAt: number }>();
  /** Bumped by every invalidation: a read that overlapped one may have seen the old settings and is not cached. */
  private generation = 0;

  constructor(
    private readonly deliveries: WebhookDeliveryRepository,
    private readonly bus: InvalidationBus,
  ) {}

  onModuleInit(): void {
    this.bus.subscribe(EVENT_ROUTING_TOPIC, (instanceId) => this.forget(instanceId));
    this.bus.onLost(() => this.forget('*'));
  }

  async get(instanceId: string): Promise<EventRouting | null> {
    const cached = this.entries.get(instanceId);
    if (cached && cached.expiresAt > Date.now() && this.bus.isLive) return cached.routing;
    const generation = this.generation;
    const routing = await this.deliveries.routing(instanceId);
    if (this.entries.size >= MAX_ENTRIES) this.entries.clear();
    if (this.bus.isLive && generation === this.generation) this.entries.set(instanceId, { routing, expiresAt: Date.now() + TTL_MS });
    return routing;
  }

  private forget(instanceId: string): void {
    this.generation += 1;
    if (instanceId === '*') this.entries.clear();
    else this.entries.delete(instanceId);
  }

  /** Tells every replica (this one included) that an instance's routing changed. */
  async changed(instanceId: string): Promise<void> {
    this.forget(instanceId);
    await this.bus.publish(EVENT_ROUTING_TOPIC, instanceId).catch(() => undefined);
  }
}
