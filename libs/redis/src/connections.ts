import { Cluster, Redis, type ClusterOptions, type RedisOptions } from 'ioredis';
import type { RedisTopology } from '@app/config';

/** A connection to the deployment's Redis, whatever its topology: a node (single, Sentinel) or a whole cluster. */
export type RedisConnection = Redis | Cluster;

/** Where the connections go: `REDIS_URL` and the topology (`REDIS_MODE` and its variables). */
export interface RedisTarget {
  url: string;
  topology: RedisTopology;
}

/** Options a caller may set for one connection; each topology maps them to its own client. */
export type ConnectionOptions = Pick<
  RedisOptions,
  | 'enableOfflineQueue'
  | 'maxRetriesPerRequest'
  | 'enableReadyCheck'
  | 'disableClientInfo'
  | 'connectionName'
  | 'autoResubscribe'
  | 'lazyConnect'
  | 'retryStrategy'
  | 'enableAutoPipelining'
>;

/** What REDIS_URL says about the data nodes in every mode: TLS, user, password, database. Its host is single mode's. */
function credentials(url: string): RedisOptions {
  const parsed = new URL(url);
  const tls = parsed.protocol === 'rediss:';
  return {
    username: decodeURIComponent(parsed.username) || undefined,
    password: decodeURIComponent(parsed.password) || undefined,
    db: Number(parsed.pathname.replace(/^\//, '') || 0),
    ...(tls ? { tls: {} } : {}),
  };
}

/**
 * The one place a Redis connection is made (commands, subscribers, BullMQ's producers and workers, blocking commands).
 * - single: `new Redis(REDIS_URL)`, exactly as before.
 * - sentinel: asks the sentinels for the master, and again after every reconnect, so a failover is followed.
 * - cluster: an ioredis `Cluster` from the seed nodes; `sharded` adds one sharded-pub/sub subscriber per master.
 */
export function createConnection(target: RedisTarget, options: ConnectionOptions, sharded = false): RedisConnection {
  const { topology } = target;
  if (topology.mode === 'single') return new Redis(target.url, options);
  const auth = credentials(target.url);
  if (topology.mode === 'sentinel') {
    return new Redis({
      ...auth,
      ...options,
      sentinels: topology.sentinels,
      name: topology.masterName,
      sentinelPassword: topology.sentinelPassword,
      ...(auth.tls ? { enableTLSForSentinelMode: true, sentinelTLS: {} } : {}),
      // A master demoted by a failover answers writes with READONLY while the socket stays up: reconnect (the sentinels
      // then name the new master) and send the command again. A master that died drops the socket: ioredis reconnects.
      reconnectOnError: (error: Error) => (error.message.startsWith('READONLY') ? 2 : false),
    });
  }
  const { db: _db, ...nodeAuth } = auth;
  const clusterOptions: ClusterOptions = {
    redisOptions: { ...nodeAuth, ...options },
    enableOfflineQueue: options.enableOfflineQueue ?? true,
    enableReadyCheck: options.enableReadyCheck ?? true,
    lazyConnect: options.lazyConnect ?? false,
    enableAutoPipelining: options.enableAutoPipelining ?? false,
    shardedSubscribers: sharded,
    // A failover moves slots: find the new master quickly rather than after the default 5 s.
    slotsRefreshInterval: 1_000,
    // The default 1 s answer time for CLUSTER SLOTS fails on a busy host, and a failed first refresh delays start-up.
    slotsRefreshTimeout: 3_000,
    // TLS certificates name hosts; keep the names the nodes announce instead of resolving them to addresses.
    ...(auth.tls ? { dnsLookup: (address: string, callback: (error: null, address: string) => void) => callback(null, address) } : {}),
  };
  return new Cluster(topology.nodes, clusterOptions);
}

/** QUIT when connected (lets pending replies arrive); otherwise drop the socket, since QUIT would wait for a reconnect forever. */
export async function closeConnection(connection: RedisConnection): Promise<void> {
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
