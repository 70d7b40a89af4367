import { Injectable } from '@nestjs/common';
import type { Pool } from 'pg';
import { PrismaService } from './prisma.service';
import { ReadReplica } from './read-replica';
import { ShardLeaseRepository } from './repositories/shard-lease.repository';

/** How busy one named connection pool is right now. */
export interface PoolUsage {
  pool: 'main' | 'replica' | 'lease';
  size: number;
  inUse: number;
  waiting: number;
}

/** The process's PostgreSQL pools (main, read replica when configured, shard leases), read without a query. */
@Injectable()
export class ConnectionPools {
  constructor(
    private readonly primary: PrismaService,
    private readonly replica: ReadReplica,
    private readonly leases: ShardLeaseRepository,
  ) {}

  usage(): PoolUsage[] {
    const pools: [PoolUsage['pool'], Pool | undefined][] = [
      ['main', this.primary.pool],
      ['replica', this.replica.connectionPool],
      ['lease', this.leases.connectionPool],
    ];
    return pools.flatMap(([pool, connections]) =>
      connections
        ? [
            {
              pool,
              size: connections.options.max ?? 0,
              inUse: connections.totalCount - connections.idleCount,
              waiting: connections.waitingCount,
            },
          ]
        : [],
    );
  }
}
