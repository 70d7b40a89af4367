import {
  DATABASE_POOLER_MODES,
  INTERACTIVE_TEXT_FALLBACKS,
  REDIS_MODES,
  type AppConfig,
  type BaileysTestNetworkSeam,
  type RedisAddress,
  type RedisTopology,
  TEST_SEAM_VARIABLES,
} from './app-config';
import { parseProxyUrl } from '@app/security';
import { secretWeakness } from './secret-strength';
import { parseTrustProxy, type TrustProxySetting } from './trust-proxy';

type Env = Record<string, string | undefined>;

export class ConfigError extends Error {
  constructor(readonly problems: string[]) {
    super(`invalid configuration:\n${problems.map((p) => `  - ${p}`).join('\n')}`);
    this.name = 'ConfigError';
  }
}

const LOG_LEVELS = ['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'] as const;

class EnvReader {
  readonly problems: string[] = [];

  constructor(private readonly env: Env) {}

  /** Which variables were consulted, so a test can hold CONFIG_VARIABLES to what is really read. */
  readonly names = new Set<string>();

  private raw(name: string): string | undefined {
    this.names.add(name);
    const value = this.env[name]?.trim();
    return value === '' ? undefined : value;
  }

  required(name: string, hint: string): string {
    const value = this.raw(name);
    if (value === undefined) this.problems.push(`${name} is required (${hint})`);
    return value ?? '';
  }

  optional(name: string, fallback: string): string {
    return this.raw(name) ?? fallback;
  }

  url(name: string, fallback: string | undefined, protocols: string[]): string {
    const value = fallback === undefined ? this.required(name, `a ${protocols.join(' or ')} URL`) : this.optional(name, fallback);
    if (!value) return value;
    try {
      const parsed = new URL(value);
      if (!protocols.includes(parsed.protocol.replace(/:$/, ''))) this.problems.push(`${name} must be a ${protocols.join(' or ')} URL`);
    } catch {
      this.problems.push(`${name} is not a valid URL`);
    }
    return value;
  }

  /** An optional proxy URL (`http://` or `socks5://`, credentials allowed); undefined when unset. */
  proxyUrl(name: string): string | undefined {
    const value = this.raw(name);
    if (value === undefined) return undefined;
    try {
      parseProxyUrl(value);
    } catch (error) {
      this.problems.push(`${name} ${(error as Error).message}`);
    }
    return value;
  }

  /**
   * A power of two up to `max`. Shards are `hash % count`, so with powers of two every shard of a larger space lies inside
   * one shard of a smaller one (`(hash % 4096) % 16 === hash % 16`): the space can grow without splitting any other way.
   */
  powerOfTwo(name: string, fallback: number, max: number): number {
    const value = this.int(name, fallback, 1, max);
    if ((value & (value - 1)) === 0) return value;
    this.problems.push(`${name} must be a power of two (1, 2, 4, ... ${max}), got "${value}"`);
    return fallback;
  }

  int(name: string, fallback: number, min: number, max: number): number {
    const value = this.raw(name);
    if (value === undefined) return fallback;
    const parsed = Number(value);
    if (!Number.isInteger(parsed) || parsed < min || parsed > max) {
      this.problems.push(`${name} must be an integer from ${min} to ${max}, got "${value}"`);
      return fallback;
    }
    return parsed;
  }

  bool(name: string, fallback: boolean): boolean {
    const value = this.raw(name)?.toLowerCase();
    if (value === undefined) return fallback;
    if (['true', '1', 'yes', 'on'].includes(value)) return true;
    if (['false', '0', 'no', 'off'].includes(value)) return false;
    this.problems.push(`${name} must be true or false, got "${value}"`);
    return fallback;
  }

  /** A comma-separated list of non-negative numbers of seconds, at most 50 entries, each at most a week. */
  durations(name: string, fallback: number[]): number[] {
    const value = this.raw(name);
    if (value === undefined) return fallback;
    const items = value.split(',').map((item) => item.trim());
    const numbers = items.map(Number);
    if (items.length > 50 || items.some((item) => item === '') || numbers.some((n) => !Number.isFinite(n) || n < 0 || n > 604_800)) {
      this.problems.push(`${name} must be a comma-separated list of at most 50 delays in seconds (0 to 604800), got "${value}"`);
      return fallback;
    }
    return numbers;
  }

  list(name: string): string[] {
    return (this.raw(name) ?? '')
      .split(',')
      .map((item) => item.trim().toLowerCase())
      .filter(Boolean);
  }

  trustProxy(name: string): TrustProxySetting {
    const { value, problem } = parseTrustProxy(this.raw(name));
    if (problem) this.problems.push(problem);
    return value;
  }

  /** An optional secret; when set it must be as strong as the admin key. */
  optionalSecret(name: string): string | undefined {
    const value = this.raw(name);
    const weakness = value === undefined ? undefined : secretWeakness(value);
    if (weakness) this.problems.push(`${name} ${weakness}; generate one with: openssl rand -base64 32`);
    return value;
  }

  oneOf<T extends string>(name: string, allowed: readonly T[], fallback: T): T {
    const value = this.raw(name)?.toLowerCase();
    if (value === undefined) return fallback;
    if ((allowed as readonly string[]).includes(value)) return value as T;
    this.problems.push(`${name} must be one of ${allowed.join(', ')}, got "${value}"`);
    return fallback;
  }

  encryptionKey(name: string): Buffer {
    const value = this.required(name, '32 random bytes, base64: openssl rand -base64 32');
    if (!value) return Buffer.alloc(0);
    const key = Buffer.from(value, 'base64');
    if (key.length !== 32 || key.toString('base64') !== value.replace(/\s/g, '')) {
      this.problems.push(`${name} must be exactly 32 bytes encoded as base64 (openssl rand -base64 32)`);
    }
    return key;
  }
}

/** docs/decisions.md: at once, 5 s, 5 min, 30 min, 2 h, 5 h, 10 h, 14 h, 20 h, 24 h. */
export const DEFAULT_WEBHOOK_RETRY_SCHEDULE = [0, 5, 300, 1800, 7200, 18_000, 36_000, 50_400, 72_000, 86_400];

/** The names of the variables `loadConfig` consults (for tests that keep the documented list honest). */
export function configVariablesRead(): string[] {
  const read = new EnvReader({});
  readAll(read);
  return [...read.names];
}

/** Reads and validates the whole configuration at once, reporting every problem together. */
export function loadConfig(env: Env = process.env): AppConfig {
  const read = new EnvReader(env);
  const config = readAll(read);
  if (read.problems.length > 0) throw new ConfigError(read.problems);
  return Object.freeze(config);
}

/** `host:port,host:port`; at least one. */
function readAddresses(read: EnvReader, name: string, hint: string): RedisAddress[] {
  const value = read.required(name, hint);
  if (!value) return [];
  const addresses: RedisAddress[] = [];
  for (const item of value.split(',').map((part) => part.trim())) {
    const match = /^(\[[0-9a-fA-F:]+\]|[^:\s]+):(\d{1,5})$/.exec(item);
    const port = Number(match?.[2]);
    if (!match || port < 1 || port > 65535) {
      read.problems.push(`${name} must be a comma-separated list of host:port, got "${item}"`);
      continue;
    }
    addresses.push({ host: match[1].replace(/^\[|\]$/g, ''), port });
  }
  return addresses;
}

function readRedisTopology(read: EnvReader): RedisTopology {
  const mode = read.oneOf('REDIS_MODE', REDIS_MODES, 'single');
  // Every variable is read whatever the mode, so the list of variables read stays complete; only the mode's are required.
  const sentinels = mode === 'sentinel' ? readAddresses(read, 'REDIS_SENTINELS', 'the sentinels as host:port,host:port') : [];
  const masterName =
    mode === 'sentinel'
      ? read.required('REDIS_SENTINEL_MASTER', "the master group's name the sentinels monitor")
      : read.optional('REDIS_SENTINEL_MASTER', '');
  const sentinelPassword = read.optional('REDIS_SENTINEL_PASSWORD', '') || undefined;
  const nodes = mode === 'cluster' ? readAddresses(read, 'REDIS_CLUSTER_NODES', 'seed nodes as host:port,host:port') : [];
  if (mode !== 'sentinel') read.optional('REDIS_SENTINELS', '');
  if (mode !== 'cluster') read.optional('REDIS_CLUSTER_NODES', '');
  if (mode === 'sentinel') return { mode, sentinels, masterName, sentinelPassword };
  if (mode === 'cluster') return { mode, nodes };
  return { mode };
}

function readAll(read: EnvReader): AppConfig {
  const adminApiKey = read.required('ADMIN_API_KEY', 'the operator key for /admin/*, at least 24 characters');
  if (adminApiKey && adminApiKey.length < 24) read.problems.push('ADMIN_API_KEY must be at least 24 characters long');
  else if (adminApiKey) {
    const weakness = secretWeakness(adminApiKey);
    if (weakness) read.problems.push(`ADMIN_API_KEY ${weakness}; generate one with: openssl rand -base64 32`);
  }

  // Read by scripts/migrate.mjs only (a migration needs a session, which a transaction pooler does not give); checked
  // here too so a typo is reported with every other problem at start-up.
  read.url('DATABASE_MIGRATION_URL', '', ['postgres', 'postgresql']);
  const config: AppConfig = {
    databaseUrl: read.url('DATABASE_URL', undefined, ['postgres', 'postgresql']),
    databaseReadUrl: read.url('DATABASE_READ_URL', '', ['postgres', 'postgresql']) || undefined,
    databasePoolSize: read.int('DATABASE_POOL_SIZE', 20, 1, 1_000),
    databasePooler: read.oneOf('DATABASE_POOLER', DATABASE_POOLER_MODES, 'none'),
    redisUrl: read.url('REDIS_URL', 'redis://127.0.0.1:6379', ['redis', 'rediss']),
    redis: readRedisTopology(read),
    port: read.int('PORT', 3000, 0, 65535),
    workerHealthPort: read.int('WORKER_HEALTH_PORT', 3001, 0, 65535),
    adminApiKey,
    encryptionKey: read.encryptionKey('ENCRYPTION_KEY'),
    sandboxEnabled: read.bool('SANDBOX_ENABLED', true),
    queuePrefix: read.optional('QUEUE_PREFIX', 'mgw'),
    shardCount: read.powerOfTwo('SHARD_COUNT', 4096, 65_536),
    shardLeaseMs: read.int('SHARD_LEASE_MS', 15_000, 1_000, 300_000),
    resumeRatePerSecond: read.int('RESUME_RATE_PER_SECOND', 50, 1, 10_000),
    shutdownTimeoutMs: read.int('SHUTDOWN_TIMEOUT_MS', 10_000, 1_000, 600_000),
    rateLimit: {
      requests: read.int('RATE_LIMIT_REQUESTS', 100, 1, 1_000_000),
      windowSeconds: read.int('RATE_LIMIT_WINDOW_SECONDS', 1, 1, 3600),
    },
    authFailureLimit: {
      limit: read.int('AUTH_FAILURE_LIMIT', 30, 1, 1_000_000),
      windowSeconds: read.int('AUTH_FAILURE_WINDOW_SECONDS', 60, 1, 86_400),
      blockSeconds: read.int('AUTH_FAILURE_BLOCK_SECONDS', 900, 1, 86_400),
    },
    webhookAllowPrivateNetworks: read.bool('WEBHOOK_ALLOW_PRIVATE_NETWORKS', false),
    webhookAllowedHosts: read.list('WEBHOOK_ALLOWED_HOSTS'),
    webhookEgressProxy: read.proxyUrl('WEBHOOK_EGRESS_PROXY'),
    webhookRetryScheduleSeconds: read.durations('WEBHOOK_RETRY_SCHEDULE', DEFAULT_WEBHOOK_RETRY_SCHEDULE),
    webhookConcurrency: read.int('WEBHOOK_CONCURRENCY', 64, 1, 10_000),
    webhookPerUrlConcurrency: read.int('WEBHOOK_PER_URL_CONCURRENCY', 8, 1, 1_000),
    eventRetentionHours: read.int('EVENT_RETENTION_HOURS', 72, 1, 24 * 365),
    retention: {
      messageDays: read.int('MESSAGE_RETENTION_DAYS', 30, 1, 3_650),
      networkMessageHours: read.int('NETWORK_RETENTION_HOURS', 72, 1, 24 * 365),
      dashboardDays: read.int('DASHBOARD_RETENTION_DAYS', 7, 1, 3_650),
      sandboxDays: read.int('SANDBOX_RETENTION_DAYS', 30, 1, 3_650),
      orphanMediaHours: read.int('ORPHAN_MEDIA_RETENTION_HOURS', 24, 1, 24 * 365),
    },
    sendRefusalBreaker: {
      refusals: read.int('SEND_REFUSAL_LIMIT', 3, 1, 1_000),
      windowSeconds: read.int('SEND_REFUSAL_WINDOW_SECONDS', 600, 1, 86_400),
      coolDownSeconds: read.int('SEND_REFUSAL_COOLDOWN_SECONDS', 900, 1, 86_400),
    },
    logLevel: read.oneOf('LOG_LEVEL', LOG_LEVELS, 'info'),
    trustProxy: read.trustProxy('TRUST_PROXY'),
    tenantLimits: {
      maxInstancesPerCustomer: read.int('MAX_INSTANCES_PER_CUSTOMER', 100, 1, 1_000_000),
      maxStreamsPerInstance: read.int('MAX_STREAMS_PER_INSTANCE', 10, 1, 10_000),
    },
    metricsToken: read.optionalSecret('METRICS_TOKEN'),
    keyCacheTtlMs: read.int('KEY_CACHE_TTL_MS', 30_000, 0, 3_600_000),
    instanceListCacheMb: read.int('INSTANCE_LIST_CACHE_MB', 16, 0, 4_096),
    interactiveTextFallback: read.oneOf('INTERACTIVE_TEXT_FALLBACK', INTERACTIVE_TEXT_FALLBACKS, 'after'),
    baileysWebSocketUrl: read.url('BAILEYS_WS_URL', 'wss://web.whatsapp.com/ws/chat', ['wss', 'ws']),
    outboundProxyUrl: read.proxyUrl('OUTBOUND_PROXY_URL'),
    undecryptableAfterSeconds: read.int('UNDECRYPTABLE_AFTER_SECONDS', 60, 1, 86_400),
    dashboard: {
      sessionIdleSeconds: read.int('DASHBOARD_SESSION_IDLE_SECONDS', 12 * 3600, 60, 30 * 86_400),
      sessionMaxSeconds: read.int('DASHBOARD_SESSION_MAX_SECONDS', 7 * 86_400, 60, 365 * 86_400),
      linkTtlSeconds: read.int('DASHBOARD_LINK_TTL_SECONDS', 72 * 3600, 60, 30 * 86_400),
      signInFailureLimit: read.int('SIGN_IN_FAILURE_LIMIT', 10, 1, 1_000_000),
      signInFailureWindowSeconds: read.int('SIGN_IN_FAILURE_WINDOW_SECONDS', 900, 1, 86_400),
      publicBaseUrl: read.url('PUBLIC_BASE_URL', '', ['http', 'https']).replace(/\/+$/, ''),
    },
    baileysTestNetwork: Object.fromEntries(
      TEST_SEAM_VARIABLES.map((name) => [name, read.optional(name, '') || undefined]),
    ) as BaileysTestNetworkSeam,
  };
  if (!/^[A-Za-z0-9_-]{1,32}$/.test(config.queuePrefix)) read.problems.push('QUEUE_PREFIX must be 1-32 letters, digits, "-" or "_"');
  if (config.redis.mode === 'cluster' && /^rediss?:\/\/[^/]*\/[1-9]/.test(config.redisUrl)) {
    read.problems.push('REDIS_URL must not name a database other than 0 with REDIS_MODE=cluster (a cluster has only database 0)');
  }
  if (config.port !== 0 && config.port === config.workerHealthPort) read.problems.push('PORT and WORKER_HEALTH_PORT must differ');
  return config;
}
