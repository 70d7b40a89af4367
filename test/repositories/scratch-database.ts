import { randomBytes } from 'node:crypto';
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { Client } from 'pg';
import { PrismaService } from '@app/database';
import { testConfig, testEnv } from '../support/environment';

const MIGRATIONS = join(__dirname, '..', '..', 'prisma', 'migrations');

/**
 * A database of its own for suites that change what every table looks like (partitions are database-wide): created
 * on the run's server, migrated as far as asked, dropped afterwards.
 */
export class ScratchDatabase {
  readonly url: string;
  private readonly serverUrl: string;
  private readonly name: string;
  private prismaService: PrismaService | undefined;

  constructor(label: string) {
    const server = new URL(testEnv().TEST_PG_SERVER_URL);
    server.pathname = '/postgres';
    this.serverUrl = server.toString();
    this.name = `${new URL(testEnv().DATABASE_URL).pathname.slice(1)}_${label}_${randomBytes(3).toString('hex')}`;
    const url = new URL(testEnv().DATABASE_URL);
    url.pathname = `/${this.name}`;
    this.url = url.toString();
  }

  async create(): Promise<void> {
    await this.onServer((client) => client.query(`CREATE DATABASE "${this.name}"`));
  }

  /** Applies the migrations (all, or those `include` picks) in order, each as one script, as scripts/migrate.mjs does. */
  async migrate(include: (name: string) => boolean = () => true): Promise<string[]> {
    const names = readdirSync(MIGRATIONS, { withFileTypes: true })
      .filter((entry) => entry.isDirectory() && include(entry.name))
      .map((entry) => entry.name)
      .sort();
    const client = new Client({ connectionString: this.url });
    await client.connect();
    try {
      for (const name of names) await client.query(readFileSync(join(MIGRATIONS, name, 'migration.sql'), 'utf8'));
    } finally {
      await client.end();
    }
    return names;
  }

  /** The repositories' connection to this database. */
  get prisma(): PrismaService {
    this.prismaService ??= new PrismaService(testConfig({ databaseUrl: this.url }));
    return this.prismaService;
  }

  async rows<Row extends object = Record<string, unknown>>(text: string, values: unknown[] = []): Promise<Row[]> {
    return (await this.prisma.pool.query<Row>(text, values)).rows;
  }

  async drop(): Promise<void> {
    await this.prismaService?.onModuleDestroy();
    await this.onServer((client) => client.query(`DROP DATABASE IF EXISTS "${this.name}" WITH (FORCE)`));
  }

  private async onServer(work: (client: Client) => Promise<unknown>): Promise<void> {
    const client = new Client({ connectionString: this.serverUrl });
    await client.connect();
    try {
      await work(client);
    } finally {
      await client.end();
    }
  }
}
