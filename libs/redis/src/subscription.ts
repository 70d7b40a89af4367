import { EventEmitter } from 'node:events';
import type { Cluster, Redis } from 'ioredis';

/**
 * A pub/sub subscriber, the same to its users on every topology:
 * - `message` (channel, message);
 * - `ready`: subscribed (again): anything published while it was down is lost, so look again;
 * - `lost`: messages may be missed from now until the next `ready`.
 *
 * On a single node and on Sentinel it is plain SUBSCRIBE on one connection (ioredis resubscribes after a reconnect or a
 * failover). On a cluster it is sharded pub/sub (SSUBSCRIBE): each channel lives on the master that owns its slot, and
 * ioredis keeps one subscriber connection per master, moving the channels when slots move. Sharded, so that SPUBLISH's
 * receiver count is the whole count: classic PUBLISH on a cluster reaches every node, but counts only the receivers
 * connected to the node it was sent to, which the command client relies on.
 */
export class Subscription extends EventEmitter {
  private constructor(
    private readonly connection: Redis | Cluster,
    private readonly sharded: boolean,
  ) {
    super();
  }

  static plain(connection: Redis): Subscription {
    const subscription = new Subscription(connection, false);
    connection.on('message', (channel: string, message: string) => subscription.emit('message', channel, message));
    // ioredis resubscribes after a reconnect; 'ready' follows that resubscription.
    connection.on('ready', () => subscription.emit('ready'));
    for (const event of ['close', 'end']) connection.on(event, () => subscription.emit('lost'));
    return subscription;
  }

  static sharded(cluster: Cluster): Subscription {
    const subscription = new Subscription(cluster, true);
    cluster.on('smessage', (channel: string, message: string) => subscription.emit('message', channel, message));
    // Emitted once ioredis has (re)made the per-master subscribers after a slot change and resubscribed their channels.
    cluster.on('subscribersReady', () => subscription.emit('ready'));
    // A per-master subscriber ended (its node failed or left): its channels miss messages until the next refresh.
    for (const event of ['-node', '-subscriber', 'close', 'end']) cluster.on(event, () => subscription.emit('lost'));
    return subscription;
  }

  async subscribe(channel: string): Promise<void> {
    await (this.sharded ? this.connection.ssubscribe(channel) : this.connection.subscribe(channel));
  }

  async unsubscribe(channel: string): Promise<void> {
    await (this.sharded ? this.connection.sunsubscribe(channel) : this.connection.unsubscribe(channel));
  }
}
