import { randomBytes } from 'node:crypto';
import { PrismaService } from '@app/database';
import { SecretBox } from '@app/security';
import { testConfig } from '../support/environment';

/**
 * The repository tier's access to the run's migrated database (scripts/test.mjs creates and migrates it). Every suite
 * makes its own customer and instances with fresh ids and reads back only those rows, so no test depends on what
 * another left behind; dropping the customers at the end removes everything below them (cascades).
 */
export class RepositoryDatabase {
  readonly prisma: PrismaService;
  readonly box: SecretBox;
  private readonly customers: string[] = [];
  private readonly instanceIds: string[] = [];

  constructor() {
    const config = testConfig();
    this.prisma = new PrismaService(config);
    this.box = new SecretBox(config.encryptionKey);
  }

  /** Rows of a plain SQL query, on the repositories' own pool. */
  async rows<Row extends object = Record<string, unknown>>(text: string, values: unknown[] = []): Promise<Row[]> {
    const { rows } = await this.prisma.pool.query<Row>(text, values);
    return rows;
  }

  /** A new customer with `count` instances (shard 0 unless given), in creation order. */
  async instances(count: number, shard = 0): Promise<string[]> {
    const customerId = uniqueId('cus_repo');
    this.customers.push(customerId);
    await this.rows('INSERT INTO customers (id, name) VALUES ($1, $2)', [customerId, 'Repository tier']);
    const ids = Array.from({ length: count }, () => uniqueId('ins_repo'));
    this.instanceIds.push(...ids);
    for (const id of ids) {
      await this.rows('INSERT INTO instances (id, customer_id, name, shard, updated_at) VALUES ($1, $2, $3, $4, now())', [
        id,
        customerId,
        id,
        shard,
      ]);
    }
    return ids;
  }

  async close(): Promise<void> {
    // Message counters have no foreign key to their instance, so no cascade removes them.
    await this.rows('DELETE FROM message_counters WHERE instance_id = ANY($1::text[])', [this.instanceIds]);
    await this.rows('DELETE FROM customers WHERE id = ANY($1::text[])', [this.customers]);
    await this.prisma.onModuleDestroy();
  }
}

export function uniqueId(prefix: string): string {
  return `${prefix}_${randomBytes(6).toString('hex')}`;
}
