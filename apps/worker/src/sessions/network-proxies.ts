import { Inject, Injectable, type OnModuleInit } from '@nestjs/common';
import { APP_CONFIG, type AppConfig } from '@app/config';
import { NETWORK_PROXY_TOPIC } from '@app/contracts';
import { InstanceLifecycleRepository } from '@app/database';
import { InvalidationBus } from '@app/redis';

/** Whose proxy may have changed: one instance, every instance of a customer, or (after missed messages) anyone's. */
export type ProxyChange = { instanceId: string } | { customerId: string } | 'any';

/** The proxy each real-network instance goes through, and word of changes to it from the API (any replica). */
@Injectable()
export class NetworkProxies implements OnModuleInit {
  private readonly listeners: ((change: ProxyChange) => void)[] = [];

  constructor(
    @Inject(APP_CONFIG) private readonly config: AppConfig,
    private readonly instances: InstanceLifecycleRepository,
    private readonly bus: InvalidationBus,
  ) {}

  onModuleInit(): void {
    this.bus.subscribe(NETWORK_PROXY_TOPIC, (message) => {
      const customerId = message.startsWith('customer:') ? message.slice('customer:'.length) : undefined;
      this.notify(customerId ? { customerId } : { instanceId: message });
    });
    // Changes announced while the subscription was down are found by comparing every session's proxy.
    this.bus.onLost(() => this.notify('any'));
  }

  /** The instance's effective proxy URL: its settings' (or its customer's default), else `OUTBOUND_PROXY_URL`. */
  async effective(instanceId: string): Promise<string | undefined> {
    return (await this.instances.proxyUrl(instanceId)) ?? this.config.outboundProxyUrl;
  }

  onChange(listener: (change: ProxyChange) => void): void {
    this.listeners.push(listener);
  }

  private notify(change: ProxyChange): void {
    for (const listener of this.listeners) listener(change);
  }
}
