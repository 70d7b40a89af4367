import { Inject, Injectable, Logger, type OnModuleDestroy } from '@nestjs/common';
import { APP_CONFIG, type AppConfig } from '@app/config';
import type { EventSinkKind, EventSinkSettings } from '@app/contracts';
import { brokerHostProblem, outboundPolicy, type OutboundPolicy } from '@app/security';
import type { BrokerConnection, BrokerConnectionHooks } from './broker-connection';
import { NatsJetStreamConnection } from './nats/nats-connection';
import { RabbitMqConnection } from './rabbitmq/rabbitmq-connection';

type ConnectionFactory = (url: string, hooks: BrokerConnectionHooks, hostProblem: () => Promise<string | null>) => BrokerConnection;

/** One adapter per broker kind; the compiler checks that every kind of `EVENT_SINK_KINDS` has one. */
const ADAPTERS: Record<EventSinkKind, ConnectionFactory> = {
  rabbitmq: (url, hooks, hostProblem) => new RabbitMqConnection(url, hooks, hostProblem),
  nats: (url, hooks, hostProblem) => new NatsJetStreamConnection(url, hooks, hostProblem),
};

/**
 * The worker's broker connections: one per distinct broker URL, made on first use and reused by every instance whose
 * sink names it, closed on shutdown. Listeners hear when a broker that failed answers again.
 */
@Injectable()
export class SinkConnections implements OnModuleDestroy {
  private readonly logger = new Logger(SinkConnections.name);
  private readonly connections = new Map<string, BrokerConnection>();
  private readonly policy: OutboundPolicy;
  private readonly recoveryListeners: ((url: string) => void)[] = [];

  constructor(@Inject(APP_CONFIG) config: AppConfig) {
    this.policy = outboundPolicy(config);
  }

  for(settings: EventSinkSettings): BrokerConnection {
    const key = `${settings.kind} ${settings.url}`;
    let connection = this.connections.get(key);
    if (!connection) {
      connection = ADAPTERS[settings.kind](
        settings.url,
        {
          recovered: () => {
            this.logger.log(`${settings.kind} broker ${new URL(settings.url).host} answers again`);
            for (const listener of this.recoveryListeners) listener(settings.url);
          },
        },
        // Checked at every connection, not only when saved: a name may resolve elsewhere now.
        () => brokerHostProblem(this.policy, settings.url),
      );
      this.connections.set(key, connection);
    }
    return connection;
  }

  onRecovered(listener: (url: string) => void): void {
    this.recoveryListeners.push(listener);
  }

  async closeAll(): Promise<void> {
    const connections = [...this.connections.values()];
    this.connections.clear();
    await Promise.all(connections.map((connection) => connection.close()));
  }

  async onModuleDestroy(): Promise<void> {
    await this.closeAll();
  }
}
