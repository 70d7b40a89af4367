import { Injectable, Logger } from '@nestjs/common';
import { Gauge, Histogram } from 'prom-client';
import { BacklogRepository, ConnectionPools, type Backlog } from '@app/database';
import { RedisService } from '@app/redis';
import { CachedReading } from './cached-reading';
import { MetricsRegistry } from './metrics';

/** Fleet-wide counts are read at most this often, whatever the number of scrapers. */
const BACKLOG_MAX_AGE_MS = 5_000;
/** A scrape never waits longer than this for PostgreSQL: it answers with the last counts. */
const BACKLOG_WAIT_MS = 1_000;

/**
 * What every process (API and worker) exports about the platform under it: its PostgreSQL pools, its Redis round trips,
 * and the deployment's backlog as PostgreSQL holds it. The backlog is the same in every process: aggregate it with
 * max(), never sum().
 */
@Injectable()
export class PlatformMetrics {
  private readonly logger = new Logger(PlatformMetrics.name);

  constructor(metrics: MetricsRegistry, pools: ConnectionPools, redis: RedisService, backlog: BacklogRepository) {
    const registers = [metrics.registry];
    new Gauge({
      name: 'db_pool_connections_in_use',
      help: 'PostgreSQL connections of the pool checked out right now, by pool (main, replica, lease)',
      labelNames: ['pool'] as const,
      registers,
      collect() {
        for (const usage of pools.usage()) this.set({ pool: usage.pool }, usage.inUse);
      },
    });
    new Gauge({
      name: 'db_pool_waiting_requests',
      help: 'Queries waiting for a free connection of the pool, by pool',
      labelNames: ['pool'] as const,
      registers,
      collect() {
        for (const usage of pools.usage()) this.set({ pool: usage.pool }, usage.waiting);
      },
    });
    new Gauge({
      name: 'db_pool_connections_max',
      help: 'The size of the pool (DATABASE_POOL_SIZE; the lease pool has 2), by pool',
      labelNames: ['pool'] as const,
      registers,
      collect() {
        for (const usage of pools.usage()) this.set({ pool: usage.pool }, usage.size);
      },
    });
    const redisLatency = new Histogram({
      name: 'redis_command_duration_seconds',
      help: 'Redis round trips as this process sees them (client queueing included), by command; blocking commands are left out',
      labelNames: ['command'] as const,
      buckets: [0.0005, 0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 1],
      registers,
    });
    redis.onCommandTimed((command, seconds) => redisLatency.observe({ command }, seconds));

    const reading = new CachedReading<Backlog>(() => backlog.read(), {
      maxAgeMs: BACKLOG_MAX_AGE_MS,
      waitMs: BACKLOG_WAIT_MS,
      onError: (error) => this.logger.warn(`backlog not read for /metrics (last values kept): ${error.message}`),
    });
    const backlogGauge = (name: string, help: string, pick: (backlog: Backlog) => number) =>
      new Gauge({
        name,
        help,
        registers,
        async collect() {
          const current = await reading.get();
          if (current) this.set(pick(current));
        },
      });
    backlogGauge(
      'messages_pending_sends',
      'Messages accepted and not yet handed to the network, deployment-wide (aggregate with max())',
      (current) => current.pendingSends,
    );
    backlogGauge(
      'messages_oldest_pending_send_age_seconds',
      'Age of the oldest message still waiting to be sent, deployment-wide (aggregate with max())',
      (current) => current.oldestPendingSendSeconds,
    );
    backlogGauge(
      'webhook_pending_deliveries',
      'Webhook deliveries waiting for an attempt (first or retry), deployment-wide (aggregate with max())',
      (current) => current.pendingDeliveries,
    );
    backlogGauge(
      'webhook_oldest_overdue_delivery_seconds',
      'How long the most overdue pending delivery is past its attempt time, deployment-wide (aggregate with max())',
      (current) => current.oldestOverdueDeliverySeconds,
    );
  }
}
