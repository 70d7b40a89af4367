import { Inject, Injectable, type OnModuleDestroy } from '@nestjs/common';
import { PrismaPg } from '@prisma/adapter-pg';
import { Pool } from 'pg';
import { APP_CONFIG, type AppConfig } from '@app/config';
import { PrismaClient } from './generated/prisma/client';

@Injectable()
export class PrismaService extends PrismaClient implements OnModuleDestroy {
  /**
   * The connection pool Prisma's adapter runs on. Repositories may run a hot statement on it directly (skipping the
   * query engine's per-call cost); nothing outside libs/database sees it.
   */
  readonly pool: Pool;

  constructor(@Inject(APP_CONFIG) config: AppConfig) {
    const pool = new Pool({ connectionString: config.databaseUrl, max: 20, connectionTimeoutMillis: 5_000 });
    super({ adapter: new PrismaPg(pool) });
    // An idle client's error (server restart, network) must not crash the process; the next query reconnects.
    pool.on('error', () => undefined);
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
