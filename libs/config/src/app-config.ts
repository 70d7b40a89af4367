import type { TrustProxySetting } from './trust-proxy';

export interface RateLimitConfig {
  /** Requests one API key may make per window. */
  requests: number;
  windowSeconds: number;
}

export interface AuthFailureLimitConfig {
  /** Failed authentications one client address may cause per window before it is blocked. */
  limit: number;
  windowSeconds: number;
  blockSeconds: number;
}

export interface DashboardConfig {
  /** A session unused for this long ends (idle expiry). */
  sessionIdleSeconds: number;
  /** A session ends this long after sign-in however active it is (absolute expiry). */
  sessionMaxSeconds: number;
  /** How long an invite or password-reset link works. */
  linkTtlSeconds: number;
  /** Failed sign-ins per email address per window before that address is refused for the rest of the window. */
  signInFailureLimit: number;
  signInFailureWindowSeconds: number;
  /** Where people reach this server (for links shown to them); empty: the origin of the request that made the link. */
  publicBaseUrl: string;
}

/** Abuse limits per customer; the operator can override both per customer through the admin API. */
export interface TenantLimitsConfig {
  /** Instances one customer may have. */
  maxInstancesPerCustomer: number;
  /** Event streams (`GET /events/stream`) open at once for one instance, over all replicas. */
  maxStreamsPerInstance: number;
}

/**
 * When an instance's sends pause because the network keeps refusing them as from a restricted account (error acks
 * 463 and 479): that many refusals within the window pause sends for the cool-down; then one send probes.
 */
export interface SendRefusalBreakerConfig {
  refusals: number;
  windowSeconds: number;
  coolDownSeconds: number;
}

/** Retention of the tables that grow besides the event log; whole partitions are dropped where tables are partitioned. */
export interface RetentionConfig {
  /** Sent and failed messages (rows of `messages`); accepted sends not yet dispatched are always kept. */
  messageDays: number;
  /** The real network's kept messages (`network_messages`: retries, quotes, chat ranges). */
  networkMessageHours: number;
  /** Used or expired dashboard links and expired dashboard sessions, counted from when they stopped working. */
  dashboardDays: number;
  /** The simulated network's message and operation history of sandbox instances. */
  sandboxDays: number;
  /** Inline media that no accepted send refers to (a replayed or abandoned send), counted from upload. */
  orphanMediaHours: number;
}

/** How connections reach PostgreSQL: straight, or through a transaction-pooling proxy such as PgBouncer. */
export const DATABASE_POOLER_MODES = ['none', 'transaction'] as const;
export type DatabasePoolerMode = (typeof DATABASE_POOLER_MODES)[number];

/** A Redis server's address. */
export interface RedisAddress {
  host: string;
  port: number;
}

/**
 * Which Redis the deployment runs on. `REDIS_URL` always gives the scheme (`rediss://`: TLS), user, password and, for
 * single and Sentinel, the database; its host and port are used only by `single`.
 */
export type RedisTopology =
  | { mode: 'single' }
  | { mode: 'sentinel'; sentinels: RedisAddress[]; masterName: string; sentinelPassword: string | undefined }
  | { mode: 'cluster'; nodes: RedisAddress[] };

export const REDIS_MODES = ['single', 'sentinel', 'cluster'] as const;

export interface AppConfig {
  /** The primary: every write, and every read that a write, an authorization or a limit depends on. */
  databaseUrl: string;
  /** A streaming replica for reads where lag is harmless (event pages, SSE catch-up, chats, contacts, groups); undefined: the primary. */
  databaseReadUrl: string | undefined;
  /** Connections each pool of this process opens at most (the primary's and, when set, the replica's). */
  databasePoolSize: number;
  /** 'transaction': a transaction pooler sits in front, so no named prepared statements and no session state. */
  databasePooler: DatabasePoolerMode;
  redisUrl: string;
  redis: RedisTopology;
  port: number;
  workerHealthPort: number;
  adminApiKey: string;
  /** 32-byte key for AES-256-GCM encryption of secrets at rest. */
  encryptionKey: Buffer;
  sandboxEnabled: boolean;
  queuePrefix: string;
  /** Virtual shards (a power of two): the unit of ownership; each live worker leases an even share of them. */
  shardCount: number;
  /** How long a worker's claim on a shard lasts without renewal; failover takes about this long. */
  shardLeaseMs: number;
  /** Sessions a worker opens a second (jittered) after it acquires shards: a takeover is not a thundering herd. */
  resumeRatePerSecond: number;
  /** After SIGTERM/SIGINT the process has exited within this many ms, whatever Redis, PostgreSQL or the network do. */
  shutdownTimeoutMs: number;
  rateLimit: RateLimitConfig;
  authFailureLimit: AuthFailureLimitConfig;
  webhookAllowPrivateNetworks: boolean;
  webhookAllowedHosts: string[];
  /**
   * The proxy every webhook delivery goes through (`WEBHOOK_EGRESS_PROXY`, http or socks5); undefined for direct. The
   * address rules still judge the final target, never this proxy.
   */
  webhookEgressProxy: string | undefined;
  /** Delays in seconds before each webhook retry after the first attempt fails (each ±15 % jitter). */
  webhookRetryScheduleSeconds: number[];
  /** Webhook deliveries one worker makes at once, over all URLs. */
  webhookConcurrency: number;
  /** Deliveries one worker makes at once to the same URL, so one slow receiver cannot take every slot. */
  webhookPerUrlConcurrency: number;
  /** How long events stay in the event log (replay, retries, pull mode). */
  eventRetentionHours: number;
  /** How long the other growing tables keep their rows (see docs/operations.md). */
  retention: RetentionConfig;
  sendRefusalBreaker: SendRefusalBreakerConfig;
  logLevel: 'fatal' | 'error' | 'warn' | 'info' | 'debug' | 'trace' | 'silent';
  /** Express's `trust proxy`: false, a hop count, or the proxies' addresses/CIDRs (never "trust everything"). */
  trustProxy: TrustProxySetting;
  tenantLimits: TenantLimitsConfig;
  /** When set, `/metrics` answers only requests with `Authorization: Bearer <token>`. */
  metricsToken: string | undefined;
  keyCacheTtlMs: number;
  /** Memory for cached pages of the instance list, per API process, in MiB (0: no cache). */
  instanceListCacheMb: number;
  /** Plain-text copy of buttons and lists on the real network (they may not render): none, sent after, or sent instead. */
  interactiveTextFallback: InteractiveTextFallback;
  /** Where real-network (Baileys) sockets connect: WhatsApp Web's WebSocket endpoint unless overridden. */
  baileysWebSocketUrl: string;
  /**
   * The deployment's outbound proxy for real-network instances whose effective settings name none
   * (`OUTBOUND_PROXY_URL`, http or socks5); undefined for direct.
   */
  outboundProxyUrl: string | undefined;
  /** How long a real-network message that failed to decrypt may take to arrive again before `message_undecryptable`. */
  undecryptableAfterSeconds: number;
  dashboard: DashboardConfig;
  /**
   * The end-to-end tests' fake-network seam of the real-network driver, as given; the driver validates and refuses it
   * off loopback.
   */
  baileysTestNetwork: BaileysTestNetworkSeam;
}

/**
 * Variables only the end-to-end tests set (test/support/protocol-network): not operator settings, so not in
 * CONFIG_VARIABLES.
 */
export const TEST_SEAM_VARIABLES = ['BAILEYS_TEST_NETWORK_ROOT_KEY', 'BAILEYS_TEST_MEDIA_ORIGIN'] as const;
export type BaileysTestNetworkSeam = Readonly<Record<(typeof TEST_SEAM_VARIABLES)[number], string | undefined>>;

export const INTERACTIVE_TEXT_FALLBACKS = ['off', 'after', 'instead'] as const;
export type InteractiveTextFallback = (typeof INTERACTIVE_TEXT_FALLBACKS)[number];

/** Every environment variable the gateway reads; `.env.example`, docker-compose and the benches are checked against it. */
export const CONFIG_VARIABLES = [
  'DATABASE_URL',
  'DATABASE_READ_URL',
  'DATABASE_POOL_SIZE',
  'DATABASE_POOLER',
  'DATABASE_MIGRATION_URL',
  'REDIS_URL',
  'REDIS_MODE',
  'REDIS_SENTINELS',
  'REDIS_SENTINEL_MASTER',
  'REDIS_SENTINEL_PASSWORD',
  'REDIS_CLUSTER_NODES',
  'PORT',
  'WORKER_HEALTH_PORT',
  'ADMIN_API_KEY',
  'ENCRYPTION_KEY',
  'SANDBOX_ENABLED',
  'QUEUE_PREFIX',
  'SHARD_COUNT',
  'SHARD_LEASE_MS',
  'RESUME_RATE_PER_SECOND',
  'SEND_REFUSAL_LIMIT',
  'SEND_REFUSAL_WINDOW_SECONDS',
  'SEND_REFUSAL_COOLDOWN_SECONDS',
  'SHUTDOWN_TIMEOUT_MS',
  'RATE_LIMIT_REQUESTS',
  'RATE_LIMIT_WINDOW_SECONDS',
  'AUTH_FAILURE_LIMIT',
  'AUTH_FAILURE_WINDOW_SECONDS',
  'AUTH_FAILURE_BLOCK_SECONDS',
  'WEBHOOK_ALLOW_PRIVATE_NETWORKS',
  'WEBHOOK_ALLOWED_HOSTS',
  'WEBHOOK_EGRESS_PROXY',
  'WEBHOOK_RETRY_SCHEDULE',
  'WEBHOOK_CONCURRENCY',
  'WEBHOOK_PER_URL_CONCURRENCY',
  'EVENT_RETENTION_HOURS',
  'MESSAGE_RETENTION_DAYS',
  'NETWORK_RETENTION_HOURS',
  'DASHBOARD_RETENTION_DAYS',
  'SANDBOX_RETENTION_DAYS',
  'ORPHAN_MEDIA_RETENTION_HOURS',
  'LOG_LEVEL',
  'TRUST_PROXY',
  'KEY_CACHE_TTL_MS',
  'INSTANCE_LIST_CACHE_MB',
  'INTERACTIVE_TEXT_FALLBACK',
  'UNDECRYPTABLE_AFTER_SECONDS',
  'BAILEYS_WS_URL',
  'OUTBOUND_PROXY_URL',
  'PUBLIC_BASE_URL',
  'DASHBOARD_SESSION_IDLE_SECONDS',
  'DASHBOARD_SESSION_MAX_SECONDS',
  'DASHBOARD_LINK_TTL_SECONDS',
  'SIGN_IN_FAILURE_LIMIT',
  'SIGN_IN_FAILURE_WINDOW_SECONDS',
  'MAX_INSTANCES_PER_CUSTOMER',
  'MAX_STREAMS_PER_INSTANCE',
  'METRICS_TOKEN',
] as const;
