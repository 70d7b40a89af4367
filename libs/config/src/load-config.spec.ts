import { CONFIG_VARIABLES, TEST_SEAM_VARIABLES } from './app-config';
import { ConfigError, configVariablesRead, loadConfig } from './load-config';

const minimal = {
  DATABASE_URL: 'postgresql://postgres@127.0.0.1:5432/gateway',
  ADMIN_API_KEY: 'an-admin-key-that-is-long-enough',
  ENCRYPTION_KEY: Buffer.alloc(32, 7).toString('base64'),
};

function problemsOf(env: Record<string, string>): string[] {
  try {
    loadConfig(env);
  } catch (error) {
    if (error instanceof ConfigError) return error.problems;
    throw error;
  }
  return [];
}

describe('loadConfig', () => {
  it('fills documented defaults', () => {
    const config = loadConfig(minimal);
    expect(config).toMatchObject({
      redisUrl: 'redis://127.0.0.1:6379',
      databaseReadUrl: undefined,
      databasePoolSize: 20,
      databasePooler: 'none',
      port: 3000,
      workerHealthPort: 3001,
      sandboxEnabled: true,
      queuePrefix: 'mgw',
      shardCount: 4096,
      resumeRatePerSecond: 50,
      rateLimit: { requests: 100, windowSeconds: 1 },
      authFailureLimit: { limit: 30, windowSeconds: 60, blockSeconds: 900 },
      webhookAllowPrivateNetworks: false,
      webhookAllowedHosts: [],
      webhookEgressProxy: undefined,
      webhookRetryScheduleSeconds: [0, 5, 300, 1800, 7200, 18_000, 36_000, 50_400, 72_000, 86_400],
      webhookConcurrency: 64,
      webhookPerUrlConcurrency: 8,
      eventRetentionHours: 72,
      retention: { messageDays: 30, networkMessageHours: 72, dashboardDays: 7, sandboxDays: 30, orphanMediaHours: 24 },
      sendRefusalBreaker: { refusals: 3, windowSeconds: 600, coolDownSeconds: 900 },
      logLevel: 'info',
      trustProxy: false,
      interactiveTextFallback: 'after',
      baileysWebSocketUrl: 'wss://web.whatsapp.com/ws/chat',
      outboundProxyUrl: undefined,
      undecryptableAfterSeconds: 60,
      dashboard: {
        sessionIdleSeconds: 43_200,
        sessionMaxSeconds: 604_800,
        linkTtlSeconds: 259_200,
        signInFailureLimit: 10,
        signInFailureWindowSeconds: 900,
        publicBaseUrl: '',
      },
    });
    expect(config.encryptionKey).toHaveLength(32);
    expect(Object.isFrozen(config)).toBe(true);
  });

  it('reads each Redis topology', () => {
    expect(loadConfig(minimal).redis).toEqual({ mode: 'single' });
    expect(
      loadConfig({
        ...minimal,
        REDIS_URL: 'rediss://:secret@ignored:6379/2',
        REDIS_MODE: 'sentinel',
        REDIS_SENTINELS: '10.0.0.1:26379, sentinel-b:26380,[::1]:26381',
        REDIS_SENTINEL_MASTER: 'mymaster',
        REDIS_SENTINEL_PASSWORD: 'sentinel-secret',
      }).redis,
    ).toEqual({
      mode: 'sentinel',
      sentinels: [
        { host: '10.0.0.1', port: 26379 },
        { host: 'sentinel-b', port: 26380 },
        { host: '::1', port: 26381 },
      ],
      masterName: 'mymaster',
      sentinelPassword: 'sentinel-secret',
    });
    expect(loadConfig({ ...minimal, REDIS_MODE: 'Cluster', REDIS_CLUSTER_NODES: 'redis-1:7000,redis-2:7000' }).redis).toEqual({
      mode: 'cluster',
      nodes: [
        { host: 'redis-1', port: 7000 },
        { host: 'redis-2', port: 7000 },
      ],
    });
  });

  it('refuses an incomplete or malformed Redis topology', () => {
    expect(problemsOf({ ...minimal, REDIS_MODE: 'sentinel' })).toEqual([
      'REDIS_SENTINELS is required (the sentinels as host:port,host:port)',
      "REDIS_SENTINEL_MASTER is required (the master group's name the sentinels monitor)",
    ]);
    expect(problemsOf({ ...minimal, REDIS_MODE: 'cluster', REDIS_CLUSTER_NODES: 'redis-1,redis-2:70000' })).toEqual([
      'REDIS_CLUSTER_NODES must be a comma-separated list of host:port, got "redis-1"',
      'REDIS_CLUSTER_NODES must be a comma-separated list of host:port, got "redis-2:70000"',
    ]);
    expect(problemsOf({ ...minimal, REDIS_MODE: 'cluster', REDIS_CLUSTER_NODES: 'a:1', REDIS_URL: 'redis://a:1/3' })).toEqual([
      'REDIS_URL must not name a database other than 0 with REDIS_MODE=cluster (a cluster has only database 0)',
    ]);
    expect(problemsOf({ ...minimal, REDIS_MODE: 'ring' })).toEqual(['REDIS_MODE must be one of single, sentinel, cluster, got "ring"']);
  });

  it('reports every problem at once, readably', () => {
    expect(problemsOf({ PORT: 'eighty', SHARD_COUNT: '0', SANDBOX_ENABLED: 'maybe', LOG_LEVEL: 'loud' })).toEqual([
      'ADMIN_API_KEY is required (the operator key for /admin/*, at least 24 characters)',
      'DATABASE_URL is required (a postgres or postgresql URL)',
      'PORT must be an integer from 0 to 65535, got "eighty"',
      'ENCRYPTION_KEY is required (32 random bytes, base64: openssl rand -base64 32)',
      'SANDBOX_ENABLED must be true or false, got "maybe"',
      'SHARD_COUNT must be an integer from 1 to 65536, got "0"',
      'LOG_LEVEL must be one of fatal, error, warn, info, debug, trace, silent, got "loud"',
    ]);
  });

  it('takes 4,096 shards by default and only a power of two up to 65,536', () => {
    expect(loadConfig(minimal).shardCount).toBe(4096);
    expect(loadConfig({ ...minimal, SHARD_COUNT: '65536' }).shardCount).toBe(65_536);
    expect(problemsOf({ ...minimal, SHARD_COUNT: '1000' })).toEqual([
      'SHARD_COUNT must be a power of two (1, 2, 4, ... 65536), got "1000"',
    ]);
    expect(problemsOf({ ...minimal, SHARD_COUNT: '131072' })).toEqual(['SHARD_COUNT must be an integer from 1 to 65536, got "131072"']);
  });

  it('rejects an encryption key of the wrong size without echoing it', () => {
    const short = Buffer.alloc(16, 1).toString('base64');
    const problems = problemsOf({ ...minimal, ENCRYPTION_KEY: short });
    expect(problems).toEqual(['ENCRYPTION_KEY must be exactly 32 bytes encoded as base64 (openssl rand -base64 32)']);
    expect(problems.join(' ')).not.toContain(short);
  });

  it('rejects a short admin key and a non-postgres database URL', () => {
    expect(problemsOf({ ...minimal, ADMIN_API_KEY: 'short', DATABASE_URL: 'mysql://x/y' })).toEqual([
      'ADMIN_API_KEY must be at least 24 characters long',
      'DATABASE_URL must be a postgres or postgresql URL',
    ]);
  });

  it('refuses an admin key with too little randomness, saying why and how to make one', () => {
    for (const weak of ['a'.repeat(24), 'abababababababababababab', 'passwordpasswordpassword1234', '123412341234123412341234']) {
      const problems = problemsOf({ ...minimal, ADMIN_API_KEY: weak });
      expect(problems).toHaveLength(1);
      expect(problems[0]).toMatch(/^ADMIN_API_KEY (holds at most \d+ bits of randomness, 128 are required|is not random enough)/);
      expect(problems[0]).toContain('openssl rand -base64 32');
      expect(problems[0]).not.toContain(weak);
    }
    for (const strong of ['3q2+7w1CkAo8xV0mFz9Lr6TsYpNbUeHd', 'f3a9c2e17b5d08a4c6e1f2b3d4a5c6e7', 'xK9_m2Lq-Z8vR4tN7wB1cY6hJ3sD5fG0']) {
      expect(problemsOf({ ...minimal, ADMIN_API_KEY: strong })).toEqual([]);
    }
  });

  it('reads TRUST_PROXY as off, a hop count or a list of proxy addresses, and refuses "trust everything"', () => {
    expect(loadConfig(minimal).trustProxy).toBe(false);
    expect(loadConfig({ ...minimal, TRUST_PROXY: 'false' }).trustProxy).toBe(false);
    expect(loadConfig({ ...minimal, TRUST_PROXY: '2' }).trustProxy).toBe(2);
    expect(loadConfig({ ...minimal, TRUST_PROXY: '10.0.0.0/8, 192.168.1.7,loopback, fd00::/8' }).trustProxy).toEqual([
      '10.0.0.0/8',
      '192.168.1.7',
      'loopback',
      'fd00::/8',
    ]);
    expect(problemsOf({ ...minimal, TRUST_PROXY: 'true' })).toEqual([
      'TRUST_PROXY=true would let clients choose their own address through X-Forwarded-For; set the number of proxies in front of the API (e.g. 1) or their addresses/CIDRs (e.g. 10.0.0.0/8)',
    ]);
    expect(problemsOf({ ...minimal, TRUST_PROXY: '10.0.0.0/33, proxy.internal' })).toEqual([
      'TRUST_PROXY must be false, a number of proxy hops (1-32), or a comma-separated list of proxy addresses/CIDRs; "10.0.0.0/33, proxy.internal" is none of these',
    ]);
  });

  it('reads the tenant limits and an optional metrics token, which must be strong', () => {
    expect(loadConfig(minimal)).toMatchObject({
      tenantLimits: { maxInstancesPerCustomer: 100, maxStreamsPerInstance: 10 },
      metricsToken: undefined,
    });
    expect(loadConfig({ ...minimal, MAX_INSTANCES_PER_CUSTOMER: '3', MAX_STREAMS_PER_INSTANCE: '1' }).tenantLimits).toEqual({
      maxInstancesPerCustomer: 3,
      maxStreamsPerInstance: 1,
    });
    expect(problemsOf({ ...minimal, METRICS_TOKEN: 'metrics' })[0]).toMatch(/^METRICS_TOKEN holds at most/);
  });

  it('parses lists and booleans', () => {
    const config = loadConfig({ ...minimal, WEBHOOK_ALLOWED_HOSTS: ' Hooks.Internal , 10.0.0.5 ,', WEBHOOK_ALLOW_PRIVATE_NETWORKS: 'yes' });
    expect(config.webhookAllowedHosts).toEqual(['hooks.internal', '10.0.0.5']);
    expect(config.webhookAllowPrivateNetworks).toBe(true);
  });

  it('reads the pool size, the pooler mode, a replica URL and a migration URL, and refuses bad ones', () => {
    const config = loadConfig({
      ...minimal,
      DATABASE_POOL_SIZE: '5',
      DATABASE_POOLER: 'Transaction',
      DATABASE_READ_URL: 'postgresql://reader@replica:5432/gateway',
      DATABASE_MIGRATION_URL: 'postgresql://owner@primary:5432/gateway',
    });
    expect([config.databasePoolSize, config.databasePooler, config.databaseReadUrl]).toEqual([
      5,
      'transaction',
      'postgresql://reader@replica:5432/gateway',
    ]);
    expect(
      problemsOf({
        ...minimal,
        DATABASE_POOL_SIZE: '0',
        DATABASE_POOLER: 'session',
        DATABASE_READ_URL: 'mysql://replica/gateway',
        DATABASE_MIGRATION_URL: 'not a url',
      }),
    ).toEqual([
      'DATABASE_MIGRATION_URL is not a valid URL',
      'DATABASE_READ_URL must be a postgres or postgresql URL',
      'DATABASE_POOL_SIZE must be an integer from 1 to 1000, got "0"',
      'DATABASE_POOLER must be one of none, transaction, got "session"',
    ]);
  });

  it('reads the resume rate as sessions a second from 1 to 10000', () => {
    expect(loadConfig({ ...minimal, RESUME_RATE_PER_SECOND: '200' }).resumeRatePerSecond).toBe(200);
    expect(problemsOf({ ...minimal, RESUME_RATE_PER_SECOND: '0' })).toEqual([
      'RESUME_RATE_PER_SECOND must be an integer from 1 to 10000, got "0"',
    ]);
    expect(problemsOf({ ...minimal, RESUME_RATE_PER_SECOND: '2.5' })).toEqual([
      'RESUME_RATE_PER_SECOND must be an integer from 1 to 10000, got "2.5"',
    ]);
  });

  it('lists in CONFIG_VARIABLES exactly the variables it reads', () => {
    expect([...configVariablesRead()].sort()).toEqual([...CONFIG_VARIABLES, ...TEST_SEAM_VARIABLES].sort());
  });

  it('reads the webhook retry schedule as seconds and refuses anything else', () => {
    expect(loadConfig({ ...minimal, WEBHOOK_RETRY_SCHEDULE: '0, 0.5,2' }).webhookRetryScheduleSeconds).toEqual([0, 0.5, 2]);
    for (const bad of ['1,,2', '-1', 'soon', '604801']) {
      expect(problemsOf({ ...minimal, WEBHOOK_RETRY_SCHEDULE: bad })).toEqual([
        `WEBHOOK_RETRY_SCHEDULE must be a comma-separated list of at most 50 delays in seconds (0 to 604800), got "${bad}"`,
      ]);
    }
  });

  it('reads the plain-text fallback of buttons and lists', () => {
    expect(loadConfig({ ...minimal, INTERACTIVE_TEXT_FALLBACK: 'Instead' }).interactiveTextFallback).toBe('instead');
    expect(problemsOf({ ...minimal, INTERACTIVE_TEXT_FALLBACK: 'both' })).toEqual([
      'INTERACTIVE_TEXT_FALLBACK must be one of off, after, instead, got "both"',
    ]);
  });
});
