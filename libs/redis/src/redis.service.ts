import { Inject, Injectable, Logger, type OnModuleDestroy, type OnModuleInit } from '@nestjs/common';
import type { Cluster, Redis } from 'ioredis';
import { APP_CONFIG, type AppConfig } from '@app/config';
import { closeConnection, createConnection, type ConnectionOptions, type RedisConnection } from './connections';
import { Subscription } from './subscription';
import { OutageLog } from './outage-log';
import { timeCommands, type CommandTimingListener } from './command-timing';

const CONNECT_WAIT_MS = 5_000;

/** Resolves once the connection is ready, or after `timeoutMs`, whichever comes first. */
function whenReady(connection: RedisConnection, timeoutMs: number): Promise<void> {
  if (connection.status === 'ready') return Promise.resolve();
  return new Promise((resolve) => {
    const done = (): void => {
      clearTimeout(timer);
      connection.off('ready', done);
      resolve();
    };
    const timer = setTimeout(done, timeoutMs);
    timer.unref();
    connection.once('ready', done);
  });
}

/** The process's Redis connections. Requests fail fast instead of queueing while Redis is down. */
@Injectable()
export class RedisService implements OnModuleInit, OnModuleDestroy {
  private readonly logger = new Logger(RedisService.name);
  readonly client: RedisConnection;
  /** True on a Redis Cluster: pub/sub is sharded (SPUBLISH/SSUBSCRIBE) and multi-key commands must share a slot. */
  readonly isCluster: boolean;
  private readonly connections: RedisConnection[] = [];
  private commandTiming: CommandTimingListener | undefined;

  constructor(@Inject(APP_CONFIG) private readonly config: AppConfig) {
    this.isCluster = config.redis.mode === 'cluster';
    // On a cluster, reads of many keys go out one per key (see `mget`): auto-pipelining batches them per node.
    this.client = this.connect('commands', { enableOfflineQueue: false, maxRetriesPerRequest: 1, enableAutoPipelining: this.isCluster });
  }

  /** A namespaced key: every key this deployment writes starts with the queue prefix. */
  key(...parts: string[]): string {
    return [this.config.queuePrefix, ...parts].join(':');
  }

  /** A further connection (BullMQ, blocking commands), for the configured topology; closed with the module. */
  connect(name: string, options: ConnectionOptions = {}): RedisConnection {
    return this.track(
      name,
      createConnection({ url: this.config.redisUrl, topology: this.config.redis }, { connectionName: `mgw-${name}`, ...options }),
    );
  }

  /**
   * A connection to one node, never a cluster (server-assisted key tracking is per connection and per node). On a
   * cluster there is none: null.
   */
  connectNode(name: string, options: ConnectionOptions = {}): Redis | null {
    if (this.isCluster) return null;
    return this.connect(name, options) as Redis;
  }

  /**
   * A subscriber (see `Subscription`). On a single node or Sentinel the handshake's INFO and CLIENT SETINFO would be
   * refused once a subscription is queued ahead of them (ioredis then leaves the connection unusable), so they are
   * switched off.
   */
  subscriber(name: string): Subscription {
    const options: ConnectionOptions = {
      enableOfflineQueue: true,
      maxRetriesPerRequest: null,
      enableReadyCheck: false,
      disableClientInfo: true,
      connectionName: undefined,
    };
    const connection = this.track(
      name,
      createConnection({ url: this.config.redisUrl, topology: this.config.redis }, options, this.isCluster),
    );
    return this.isCluster ? Subscription.sharded(connection as Cluster) : Subscription.plain(connection as Redis);
  }

  /** Publishes to subscribers of `Subscription`; resolves to how many received it (on a cluster: all of them too). */
  async publish(channel: string, message: string): Promise<number> {
    return this.isCluster ? Number(await this.client.spublish(channel, message)) : this.client.publish(channel, message);
  }

  /**
   * Several keys' values at once. A cluster refuses MGET over keys in different slots, so there each key is read on its
   * own (ioredis's auto-pipelining sends the reads for one node together).
   */
  async mget(keys: string[]): Promise<(string | null)[]> {
    if (keys.length === 0) return [];
    if (!this.isCluster) return this.client.mget(keys);
    return Promise.all(keys.map((key) => this.client.get(key)));
  }

  /** Deletes each key; resolves, per key, to whether it existed (null when its DEL failed). One round trip on a node. */
  async deleteEach(keys: string[]): Promise<(boolean | null)[]> {
    if (keys.length === 0) return [];
    if (this.isCluster)
      return Promise.all(
        keys.map((key) =>
          this.client.del(key).then(
            (removed) => removed === 1,
            () => null,
          ),
        ),
      );
    const pipeline = this.client.pipeline();
    for (const key of keys) pipeline.del(key);
    const results = await pipeline.exec().catch(() => null);
    return keys.map((_, index) => {
      const [error, removed] = results?.[index] ?? [new Error('pipeline failed'), 0];
      return error ? null : removed === 1;
    });
  }

  /** Times the commands of every connection this service made or makes (see `timeCommands`), for `/metrics`. */
  onCommandTimed(listener: CommandTimingListener): void {
    this.commandTiming = listener;
  }

  /**
   * Waits (at most `CONNECT_WAIT_MS`) for the command connection before the modules that use Redis start: it refuses
   * commands while it connects, so without the wait the first ones (a worker's lease check, an API readiness probe
   * right after the port opens) fail on a healthy Redis. A Redis that is down does not hold the start: readiness and the
   * outage log report it.
   */
  async onModuleInit(): Promise<void> {
    await whenReady(this.client, CONNECT_WAIT_MS);
  }

  async ping(): Promise<void> {
    await this.client.ping();
  }

  async onModuleDestroy(): Promise<void> {
    await Promise.all(this.connections.map((connection) => closeConnection(connection)));
  }

  private track<C extends RedisConnection>(name: string, connection: C): C {
    const outage = new OutageLog(this.logger, `redis ${name}`);
    connection.on('error', (error: Error) => outage.error(error));
    connection.on('ready', () => outage.up());
    timeCommands(connection, () => this.commandTiming);
    this.connections.push(connection);
    return connection;
  }
}
