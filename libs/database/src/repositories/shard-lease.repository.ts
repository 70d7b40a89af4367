import { Inject, Injectable, type OnModuleDestroy } from '@nestjs/common';
import type { Pool } from 'pg';
import { APP_CONFIG, type AppConfig } from '@app/config';
import { shardOf } from '@app/contracts';
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

/** What adopting a shard count did: how many instances moved to another shard, from which count. */
export interface ShardSpaceAdoption {
  previousCount: number | undefined;
  movedInstances: number;
}

/** A worker tried to change the shard count while workers under the old count still hold leases. */
export class ShardSpaceBusyError extends Error {
  constructor(previous: number | undefined, wanted: number, liveLeases: number) {
    super(
      `SHARD_COUNT ${wanted} needs instances re-sharded from ${previous ?? 'an older build'}, but ${liveLeases} shard leases are still held; ` +
        'stop every worker of the old shard count first (README, Operations: changing SHARD_COUNT)',
    );
    this.name = 'ShardSpaceBusyError';
  }
}

/** A live worker and how many current leases it holds. */
export interface WorkerShare {
  id: string;
  held: number;
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

  /** The lease pool, for its usage on `/metrics`. */
  get connectionPool(): Pool {
    return this.pool;
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

  /**
   * The workers whose membership has not expired, each with the number of current leases it holds (what the even split
   * keeps the extra shards with, so a join moves only the newcomer's share); expired members are removed on the way.
   */
  async liveWorkers(): Promise<WorkerShare[]> {
    const { rows } = await this.pool.query<WorkerShare>(
      `WITH gone AS (DELETE FROM shard_workers WHERE scope = $1 AND expires_at <= clock_timestamp()),
       held AS (
         SELECT worker_id, count(*)::int AS n FROM shard_leases
         WHERE scope = $1 AND worker_id IS NOT NULL AND expires_at > clock_timestamp() GROUP BY worker_id
       )
       SELECT w.id, coalesce(held.n, 0) AS held FROM shard_workers w LEFT JOIN held ON held.worker_id = w.id
       WHERE w.scope = $1 AND w.expires_at > clock_timestamp() ORDER BY w.id`,
      [this.scope],
    );
    return rows;
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

  /** Owner of every shard with a current lease (held and not expired): one row, however many shards there are. */
  async owners(): Promise<Map<number, string>> {
    const { rows } = await this.pool.query<{ owners: Record<string, string> }>(
      `SELECT coalesce(json_object_agg(shard, worker_id), '{}') AS owners
       FROM shard_leases WHERE scope = $1 AND worker_id IS NOT NULL AND expires_at > clock_timestamp()`,
      [this.scope],
    );
    return new Map(Object.entries(rows[0].owners).map(([shard, workerId]) => [Number(shard), workerId]));
  }

  /**
   * Makes `instances.shard` agree with `shardCount` before a worker takes leases: the in-place upgrade of a deployment
   * whose instances were sharded with another count (16 before the virtual shards). Under an advisory lock, so workers
   * starting together re-shard once. Recomputing needs every old-count worker gone (their sessions are keyed to the old
   * shard numbers): with live leases it refuses (`ShardSpaceBusyError`) and changes nothing. Then it frees every lease of
   * the scope (new tokens on re-acquire, so writes under an old token are fenced out) and records the count. The same
   * count as recorded is one read. Instances are sharded from their id alone, so the result does not depend on the old count.
   */
  async adoptShardCount(shardCount: number): Promise<ShardSpaceAdoption> {
    const client = await this.pool.connect();
    try {
      await client.query('BEGIN');
      await client.query(`SELECT pg_advisory_xact_lock(hashtext('shard_spaces:' || $1))`, [this.scope]);
      const recorded = await client.query<{ shard_count: number }>('SELECT shard_count FROM shard_spaces WHERE scope = $1', [this.scope]);
      const previousCount = recorded.rows[0]?.shard_count;
      if (previousCount === shardCount) {
        await client.query('COMMIT');
        return { previousCount, movedInstances: 0 };
      }
      // Instances are re-sharded only when this deployment changes its count, or once for a database the migration found
      // with instances of a build before shard spaces (marker scope ''). A deployment new to the database records its
      // count and leaves the instances alone: its own API stored their shards with the count it shares.
      const legacy = await client.query(`DELETE FROM shard_spaces WHERE scope = '' RETURNING scope`);
      if (previousCount === undefined && legacy.rowCount === 0) {
        await client.query(`INSERT INTO shard_spaces (scope, shard_count) VALUES ($1, $2)`, [this.scope, shardCount]);
        await client.query('COMMIT');
        return { previousCount, movedInstances: 0 };
      }
      const { rows: instances } = await client.query<{ id: string; shard: number }>('SELECT id, shard FROM instances');
      const moved = instances.filter((instance) => shardOf(instance.id, shardCount) !== instance.shard);
      if (moved.length > 0) {
        const live = await client.query<{ n: number }>(
          `SELECT count(*)::int AS n FROM shard_leases WHERE scope = $1 AND worker_id IS NOT NULL AND expires_at > clock_timestamp()`,
          [this.scope],
        );
        if (live.rows[0].n > 0) throw new ShardSpaceBusyError(previousCount, shardCount, live.rows[0].n);
        await client.query(`UPDATE instances i SET shard = m.shard FROM unnest($1::text[], $2::int[]) AS m(id, shard) WHERE i.id = m.id`, [
          moved.map((instance) => instance.id),
          moved.map((instance) => shardOf(instance.id, shardCount)),
        ]);
        await client.query(`DELETE FROM shard_leases WHERE scope = $1`, [this.scope]);
      }
      await client.query(
        `INSERT INTO shard_spaces (scope, shard_count) VALUES ($1, $2)
         ON CONFLICT (scope) DO UPDATE SET shard_count = EXCLUDED.shard_count, adopted_at = now()`,
        [this.scope, shardCount],
      );
      await client.query('COMMIT');
      return { previousCount, movedInstances: moved.length };
    } catch (error) {
      await client.query('ROLLBACK').catch(() => undefined);
      throw error;
    } finally {
      client.release();
    }
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
