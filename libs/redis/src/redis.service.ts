import { Inject, Injectable, Logger, type OnModuleDestroy } from '@nestjs/common';
import { Redis, type RedisOptions } from 'ioredis';
import { APP_CONFIG, type AppConfig } from '@app/config';

/** The process's Redis connections. Requests fail fast instead of queueing while Redis is down. */
@Injectable()
export class RedisService implements OnModuleDestroy {
  private readonly logger = new Logger(RedisService.name);
  readonly client: Redis;
  private readonly connections: Redis[] = [];

  constructor(@Inject(APP_CONFIG) private readonly config: AppConfig) {
    this.client = this.connect('commands', { enableOfflineQueue: false, maxRetriesPerRequest: 1 });
  }

  /** A namespaced key: every key this deployment writes starts with the queue prefix. */
  key(...parts: string[]): string {
    return [this.config.queuePrefix, ...parts].join(':');
  }

  /** A further connection (subscribers, blocking commands); closed with the module. */
  connect(name: string, options: RedisOptions = {}): Redis {
    const connection = new Redis(this.config.redisUrl, { connectionName: `mgw-${name}`, ...options });
    connection.on('error', (error: Error) => this.logger.warn(`redis ${name}: ${error.message}`));
    this.connections.push(connection);
    return connection;
  }

  /**
   * A connection for SUBSCRIBE only. The handshake's INFO and CLIENT SETINFO would be refused once a subscription is
   * queued ahead of them (ioredis then leaves the connection unusable), so they are switched off.
   */
  subscriber(name: string): Redis {
    return this.connect(name, {
      enableOfflineQueue: true,
      maxRetriesPerRequest: null,
      enableReadyCheck: false,
      disableClientInfo: true,
      connectionName: undefined,
    });
  }

  async ping(): Promise<void> {
    await this.client.ping();
  }

  async onModuleDestroy(): Promise<void> {
    await Promise.all(this.connections.map((connection) => closeConnection(connection)));
  }
}

/** QUIT when connected (lets pending replies arrive); otherwise drop the socket, since QUIT would wait for a reconnect forever. */
async function closeConnection(connection: Redis): Promise<void> {
  if (connection.status !== 'ready') {
    connection.disconnect();
    return;
  }
  const timeout = new Promise<void>((resolve) => setTimeout(resolve, 2_000).unref());
  await Promise.race([
    connection.quit().then(
      () => undefined,
      () => undefined,
    ),
    timeout,
  ]);
  connection.disconnect();
}
