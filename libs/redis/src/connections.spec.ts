import { Cluster, Redis } from 'ioredis';
import { createConnection } from './connections';

// lazyConnect: the options are checked without any server.
describe('createConnection', () => {
  it('single: REDIS_URL as before', () => {
    const connection = createConnection(
      { url: 'rediss://user:p%40ss@cache.internal:6380/2', topology: { mode: 'single' } },
      { lazyConnect: true },
    );
    expect(connection).toBeInstanceOf(Redis);
    const { host, port, username, password, db, tls } = (connection as Redis).options;
    expect({ host, port, username, password, db, tls: Boolean(tls) }).toEqual({
      host: 'cache.internal',
      port: 6380,
      username: 'user',
      password: 'p@ss',
      db: 2,
      tls: true,
    });
  });

  it('sentinel: the sentinels name the master; credentials and database from REDIS_URL', () => {
    const sentinels = [
      { host: '10.0.0.1', port: 26379 },
      { host: '10.0.0.2', port: 26379 },
    ];
    const connection = createConnection(
      {
        url: 'redis://:secret@ignored:1/3',
        topology: { mode: 'sentinel', sentinels, masterName: 'mymaster', sentinelPassword: 'sentinel-secret' },
      },
      { lazyConnect: true, maxRetriesPerRequest: null },
    ) as Redis;
    expect(connection).toBeInstanceOf(Redis);
    const { name, password, db, sentinelPassword, maxRetriesPerRequest, tls, failoverDetector } = connection.options;
    expect({
      sentinels: connection.options.sentinels,
      name,
      password,
      db,
      sentinelPassword,
      maxRetriesPerRequest,
      tls,
      failoverDetector,
    }).toEqual({
      sentinels,
      name: 'mymaster',
      password: 'secret',
      db: 3,
      sentinelPassword: 'sentinel-secret',
      maxRetriesPerRequest: null,
      tls: undefined,
      failoverDetector: false,
    });
    // A demoted master's READONLY reconnects and resends; other errors do not.
    expect(connection.options.reconnectOnError?.(new Error("READONLY You can't write against a read only replica."))).toBe(2);
    expect(connection.options.reconnectOnError?.(new Error('WRONGTYPE'))).toBe(false);
  });

  it('cluster: an ioredis Cluster from the seed nodes, node options from REDIS_URL and the caller, sharded pub/sub on request', () => {
    const nodes = [
      { host: 'redis-1', port: 7000 },
      { host: 'redis-2', port: 7000 },
    ];
    const connection = createConnection(
      { url: 'rediss://:secret@unused', topology: { mode: 'cluster', nodes } },
      { lazyConnect: true, maxRetriesPerRequest: null, enableOfflineQueue: false },
      true,
    ) as Cluster;
    expect(connection).toBeInstanceOf(Cluster);
    const { redisOptions, shardedSubscribers, enableOfflineQueue, lazyConnect } = connection.options;
    expect({ shardedSubscribers, enableOfflineQueue, lazyConnect }).toEqual({
      shardedSubscribers: true,
      enableOfflineQueue: false,
      lazyConnect: true,
    });
    expect({
      password: redisOptions?.password,
      db: redisOptions?.db,
      tls: Boolean(redisOptions?.tls),
      retries: redisOptions?.maxRetriesPerRequest,
    }).toEqual({
      password: 'secret',
      db: undefined,
      tls: true,
      retries: null,
    });
    expect((connection as unknown as { startupNodes: unknown }).startupNodes).toEqual(nodes);
    connection.disconnect();
  });
});
