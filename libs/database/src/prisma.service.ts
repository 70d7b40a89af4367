import { Inject, Injectable, type OnModuleDestroy } from '@nestjs/common';
import { PrismaPg } from '@prisma/adapter-pg';
import type { Pool } from 'pg';
import { APP_CONFIG, type AppConfig } from '@app/config';
import { createConnectionPool } from './connection-pool';
import { PrismaClient } from './generated/prisma/client';

/** The primary (`DATABASE_URL`): every write, and every read that a write, an authorization or a limit depends on. */
@Injectable()
export class PrismaService extends PrismaClient implements OnModuleDestroy {
  /**
   * The connection pool Prisma's adapter runs on. Repositories may run a hot statement on it directly (skipping the
   * query engine's per-call cost); nothing outside libs/database sees it.
   */
  readonly pool: Pool;

  constructor(@Inject(APP_CONFIG) config: AppConfig) {
    const pool = createConnectionPool({ url: config.databaseUrl, size: config.databasePoolSize, pooler: config.databasePooler });
    super({ adapter: new PrismaPg(pool) });
    this.pool = pool;
  }

  async ping(): Promise<void> {
    await this.$queryRaw`SELECT 1`;
  }

  async onModuleDestroy(): Promise<void> {
    await this.$disconnect();
    await this.pool.end();
  }
}
