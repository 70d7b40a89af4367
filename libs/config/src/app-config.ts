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

export interface AppConfig {
  databaseUrl: string;
  redisUrl: string;
  port: number;
  workerHealthPort: number;
  adminApiKey: string;
  /** 32-byte key for AES-256-GCM encryption of secrets at rest. */
  encryptionKey: Buffer;
  sandboxEnabled: boolean;
  queuePrefix: string;
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
  /** Delays in seconds before each webhook retry after the first attempt fails (each ±15 % jitter). */
  webhookRetryScheduleSeconds: number[];
  /** Webhook deliveries one worker makes at once, over all URLs. */
  webhookConcurrency: number;
  /** Deliveries one worker makes at once to the same URL, so one slow receiver cannot take every slot. */
  webhookPerUrlConcurrency: number;
  /** How long events stay in the event log (replay, retries, pull mode). */
  eventRetentionHours: number;
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
  dashboard: DashboardConfig;
}

export const INTERACTIVE_TEXT_FALLBACKS = ['off', 'after', 'instead'] as const;
export type InteractiveTextFallback = (typeof INTERACTIVE_TEXT_FALLBACKS)[number];

/** Every environment variable the gateway reads; `.env.example`, docker-compose and the benches are checked against it. */
export const CONFIG_VARIABLES = [
  'DATABASE_URL',
  'REDIS_URL',
  'PORT',
  'WORKER_HEALTH_PORT',
  'ADMIN_API_KEY',
  'ENCRYPTION_KEY',
  'SANDBOX_ENABLED',
  'QUEUE_PREFIX',
  'SHARD_COUNT',
  'SHARD_LEASE_MS',
  'RESUME_RATE_PER_SECOND',
  'SHUTDOWN_TIMEOUT_MS',
  'RATE_LIMIT_REQUESTS',
  'RATE_LIMIT_WINDOW_SECONDS',
  'AUTH_FAILURE_LIMIT',
  'AUTH_FAILURE_WINDOW_SECONDS',
  'AUTH_FAILURE_BLOCK_SECONDS',
  'WEBHOOK_ALLOW_PRIVATE_NETWORKS',
  'WEBHOOK_ALLOWED_HOSTS',
  'WEBHOOK_RETRY_SCHEDULE',
  'WEBHOOK_CONCURRENCY',
  'WEBHOOK_PER_URL_CONCURRENCY',
  'EVENT_RETENTION_HOURS',
  'LOG_LEVEL',
  'TRUST_PROXY',
  'KEY_CACHE_TTL_MS',
  'INSTANCE_LIST_CACHE_MB',
  'INTERACTIVE_TEXT_FALLBACK',
  'BAILEYS_WS_URL',
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
