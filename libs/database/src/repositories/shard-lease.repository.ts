import { Inject, Injectable, type OnModuleDestroy } from '@nestjs/common';
import type { Pool } from 'pg';
import { APP_CONFIG, type AppConfig } from '@app/config';
import { createConnectionPool } from '../connection-pool';

/** One held lease: its shard and fencing token (tokens are unique over all shards). */
export interface HeldLease {
  shard: number;
  token: number;
}

/** A shard's lease as the operator overview shows it. */
export interface LeaseRow {
  shard: number;
  workerId: string;
  token: number;
  expiresAt: Date;
}

export interface LiveWorker {
  id: string;
  expiresAt: Date;
}

/**
 * Shard leases and worker membership in PostgreSQL (tables `shard_leases`, `shard_workers`). Every expiry is computed on
 * PostgreSQL's clock (`clock_timestamp()`), so the workers' clocks do not matter. Tokens come from the sequence
 * `shard_lease_token_seq`: they never go backwards, whatever happens to Redis.
 *
 * Locks: fenced writes hold `FOR KEY SHARE` on the lease row (see `fence.ts`); acquire and release take `FOR UPDATE`, so
 * they wait for such writes (or skip the row) and the writes that come later see the new token. Renewal is a plain
 * UPDATE of `expires_at` (a non-key column), which does not conflict with the writes' lock, so hot writes never wait for
 * renewals nor renewals for them.
 *
 * It has its own small pool: ownership must not queue behind the hot statements of the shared pool, or a busy worker
 * would miss its renewals and lose its shards.
 */
@Injectable()
export class ShardLeaseRepository implements OnModuleDestroy {
  private readonly pool: Pool;
  /** The deployment's lease space: QUEUE_PREFIX, as the Redis keys are, so deployments sharing a database stay apart. */
  private readonly scope: string;

  constructor(@Inject(APP_CONFIG) config: AppConfig) {
    this.scope = config.queuePrefix;
    this.pool = createConnectionPool({ url: config.databaseUrl, size: 2, pooler: config.databasePooler });
  }

  /**
   * One statement per tick: refreshes this worker's membership (when `heartbeat`) and extends every lease it names that
   * is still its own. Returns the tokens that were extended; a lease not among them is gone or someone else's.
   */
  async renew(workerId: string, leaseMs: number, tokens: readonly number[], heartbeat: boolean): Promise<Set<number>> {
    const { rows } = await this.pool.query<{ token: string }>(
      `WITH member AS (
         INSERT INTO shard_workers (scope, id, expires_at) SELECT $5, $1, clock_timestamp() + $2 * interval '1 millisecond' WHERE $4::boolean
         ON CONFLICT (scope, id) DO UPDATE SET expires_at = EXCLUDED.expires_at
       )
       UPDATE shard_leases SET expires_at = clock_timestamp() + $2 * interval '1 millisecond'
       WHERE scope = $5 AND worker_id = $1 AND token = ANY($3::bigint[])
       RETURNING token::text`,
      [workerId, leaseMs, tokens.map(String), heartbeat, this.scope],
    );
    return new Set(rows.map((row) => Number(row.token)));
  }

  /** Ids of the workers whose membership has not expired; expired members are removed on the way. */
  async liveWorkers(): Promise<string[]> {
    const { rows } = await this.pool.query<{ id: string }>(
      `WITH gone AS (DELETE FROM shard_workers WHERE scope = $1 AND expires_at <= clock_timestamp())
       SELECT id FROM shard_workers WHERE scope = $1 AND expires_at > clock_timestamp() ORDER BY id`,
      [this.scope],
    );
    return rows.map((row) => row.id);
  }

  /**
   * Takes up to `max` of the `candidates` shards (in that order of preference) that are free or whose lease expired, each
   * with a new token; one statement. Rows another transaction has locked (a write of the previous owner still in flight, a
   * competing acquire) are skipped, not waited for.
   */
  async acquire(workerId: string, candidates: readonly number[], max: number, leaseMs: number): Promise<HeldLease[]> {
    if (max <= 0 || candidates.length === 0) return [];
    // A shard's row is created once and then only updated; an operator (or a test) may also have deleted one.
    await this.pool.query(
      `INSERT INTO shard_leases (scope, shard, expires_at)
       SELECT $2, s, '-infinity' FROM unnest($1::int[]) AS s
       WHERE NOT EXISTS (SELECT 1 FROM shard_leases l WHERE l.scope = $2 AND l.shard = s)
       ON CONFLICT (scope, shard) DO NOTHING`,
      [candidates, this.scope],
    );
    const { rows } = await this.pool.query<{ shard: number; token: string }>(
      `WITH free AS (
         SELECT shard FROM shard_leases
         WHERE scope = $5 AND shard = ANY($2::int[]) AND (worker_id IS NULL OR expires_at <= clock_timestamp())
         ORDER BY array_position($2::int[], shard) LIMIT $3
         FOR UPDATE SKIP LOCKED
       )
       UPDATE shard_leases l SET worker_id = $1, token = nextval('shard_lease_token_seq'),
              expires_at = clock_timestamp() + $4 * interval '1 millisecond'
       FROM free WHERE l.scope = $5 AND l.shard = free.shard
       RETURNING l.shard, l.token::text`,
      [workerId, candidates, max, leaseMs, this.scope],
    );
    return rows.map((row) => ({ shard: row.shard, token: Number(row.token) })).sort((a, b) => a.shard - b.shard);
  }

  /** Frees these leases where they are still this worker's (same token); the next owner need not wait for them to expire. */
  async release(workerId: string, leases: readonly HeldLease[]): Promise<void> {
    if (leases.length === 0) return;
    await this.pool.query(
      `WITH mine AS (
         SELECT shard FROM shard_leases WHERE scope = $3 AND worker_id = $1 AND token = ANY($2::bigint[]) ORDER BY shard FOR UPDATE
       )
       UPDATE shard_leases l SET worker_id = NULL, token = NULL, expires_at = '-infinity'
       FROM mine WHERE l.scope = $3 AND l.shard = mine.shard`,
      [workerId, leases.map((lease) => String(lease.token)), this.scope],
    );
  }

  async deregister(workerId: string): Promise<void> {
    await this.pool.query('DELETE FROM shard_workers WHERE scope = $1 AND id = $2', [this.scope, workerId]);
  }

  /** Every current lease (held and not expired), by shard, and the live workers, read in one snapshot. */
  async overview(): Promise<{ leases: LeaseRow[]; workers: LiveWorker[] }> {
    const { rows } = await this.pool.query<{ leases: LeaseRow[] | null; workers: LiveWorker[] | null }>(
      `SELECT
         (SELECT json_agg(json_build_object('shard', shard, 'workerId', worker_id, 'token', token, 'expiresAt', expires_at) ORDER BY shard)
          FROM shard_leases WHERE scope = $1 AND worker_id IS NOT NULL AND expires_at > clock_timestamp()) AS leases,
         (SELECT json_agg(json_build_object('id', id, 'expiresAt', expires_at) ORDER BY id)
          FROM shard_workers WHERE scope = $1 AND expires_at > clock_timestamp()) AS workers`,
      [this.scope],
    );
    const [{ leases, workers }] = rows;
    return {
      leases: (leases ?? []).map((lease) => ({ ...lease, token: Number(lease.token), expiresAt: new Date(lease.expiresAt) })),
      workers: (workers ?? []).map((worker) => ({ id: worker.id, expiresAt: new Date(worker.expiresAt) })),
    };
  }

  async onModuleDestroy(): Promise<void> {
    await this.pool.end();
  }
}
