import { Inject, Injectable, type OnModuleDestroy } from '@nestjs/common';
import { PrismaPg } from '@prisma/adapter-pg';
import type { Pool } from 'pg';
import { APP_CONFIG, type AppConfig } from '@app/config';
import { createConnectionPool } from './connection-pool';
import { PrismaClient } from './generated/prisma/client';
import { PrismaService } from './prisma.service';

/**
 * Where reads that may lag go (`DATABASE_READ_URL`, else the primary itself): a streaming replica replays the primary
 * some milliseconds to seconds behind, so it serves only what a client may see a moment late and nothing decides on:
 * event pages, SSE catch-up, and the chat and contact reads of the API. Key resolution, the instance-list version
 * check, idempotency, limits and every read a write depends on stay on `PrismaService`. Only the repository methods
 * named for it take this, so the split is visible where the SQL is.
 */
@Injectable()
export class ReadReplica implements OnModuleDestroy {
  readonly client: PrismaClient;
  private readonly pool: Pool | undefined;

  constructor(@Inject(APP_CONFIG) config: AppConfig, primary: PrismaService) {
    if (!config.databaseReadUrl) {
      this.client = primary;
      return;
    }
    this.pool = createConnectionPool({ url: config.databaseReadUrl, size: config.databasePoolSize, pooler: config.databasePooler });
    this.client = new PrismaClient({ adapter: new PrismaPg(this.pool) });
  }

  /** The replica's own pool; none when reads go to the primary (whose pool `PrismaService` holds). */
  get connectionPool(): Pool | undefined {
    return this.pool;
  }

  async onModuleDestroy(): Promise<void> {
    if (!this.pool) return;
    await this.client.$disconnect();
    await this.pool.end();
  }
}
