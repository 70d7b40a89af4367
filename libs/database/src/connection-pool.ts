import { Pool, type PoolConfig } from 'pg';
import type { DatabasePoolerMode } from '@app/config';

/** The part of the configuration a connection pool is made from. */
export interface PoolSettings {
  url: string;
  size: number;
  pooler: DatabasePoolerMode;
}

/**
 * A `pg` pool for one server. Behind a transaction pooler (PgBouncer `pool_mode = transaction`) consecutive statements
 * of one client may run on different server connections, so a statement prepared under a name on one of them is
 * unknown, or already known, on the next (`prepared statement "…" already exists`). The repositories name their hot
 * statements (PostgreSQL then plans them once per connection); in that mode the pool sends them unnamed instead, which
 * PgBouncer passes through safely. Nothing else the gateway runs keeps session state (no SET, LISTEN, advisory or
 * temporary objects outside a transaction), and Prisma's adapter names no statement.
 */
export function createConnectionPool(settings: PoolSettings): Pool {
  const config: PoolConfig = { connectionString: settings.url, max: settings.size, connectionTimeoutMillis: 5_000 };
  const pool = new Pool(config);
  // An idle client's error (server restart, network) must not crash the process; the next query reconnects.
  pool.on('error', () => undefined);
  if (settings.pooler === 'transaction') {
    const query = pool.query.bind(pool) as (...args: unknown[]) => unknown;
    pool.query = ((statement: unknown, ...rest: unknown[]) => query(withoutName(statement), ...rest)) as Pool['query'];
  }
  return pool;
}

function withoutName(statement: unknown): unknown {
  if (typeof statement !== 'object' || statement === null || !('name' in statement)) return statement;
  const { name: _name, ...unnamed } = statement;
  return unnamed;
}
