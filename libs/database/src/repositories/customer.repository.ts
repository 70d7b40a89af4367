import { Injectable } from '@nestjs/common';
import type { CustomerScope } from '@app/contracts';
import { SecretBox } from '@app/security';
import { PrismaService } from '../prisma.service';
import type { CustomerDefaults, CustomerLimitOverrides, CustomerRecord, Page } from '../records';

export interface StoredKey {
  id: string;
  hash: string;
  prefix: string;
}

@Injectable()
export class CustomerRepository {
  constructor(
    private readonly prisma: PrismaService,
    private readonly secrets: SecretBox,
  ) {}

  async createWithKey(customer: { id: string; name: string }, key: StoredKey): Promise<CustomerRecord> {
    const created = await this.prisma.customer.create({
      data: { id: customer.id, name: customer.name, apiKeys: { create: { id: key.id, keyHash: key.hash, prefix: key.prefix } } },
      select: { id: true, name: true, createdAt: true },
    });
    return created;
  }

  async list(skip: number, take: number): Promise<Page<CustomerRecord>> {
    const [items, totalCount] = await this.prisma.$transaction([
      this.prisma.customer.findMany({
        orderBy: [{ createdAt: 'asc' }, { id: 'asc' }],
        skip,
        take,
        select: { id: true, name: true, createdAt: true },
      }),
      this.prisma.customer.count(),
    ]);
    return { items, totalCount };
  }

  async getDefaults(scope: CustomerScope): Promise<CustomerDefaults> {
    const row = await this.prisma.customer.findUniqueOrThrow({
      where: { id: scope.customerId },
      select: {
        defaultWebhookUrl: true,
        defaultSigningSecret: true,
        defaultEventFilters: true,
        defaultHistorySync: true,
        defaultPullMode: true,
      },
    });
    return { ...row, defaultSigningSecret: this.secrets.decryptOptional(row.defaultSigningSecret) };
  }

  async updateDefaults(scope: CustomerScope, defaults: CustomerDefaults): Promise<void> {
    await this.prisma.customer.update({
      where: { id: scope.customerId },
      data: { ...defaults, defaultSigningSecret: this.secrets.encryptOptional(defaults.defaultSigningSecret) },
    });
  }

  /** The operator's limit overrides, or null when there is no such customer. */
  async limitOverrides(customerId: string): Promise<CustomerLimitOverrides | null> {
    return this.prisma.customer.findUnique({ where: { id: customerId }, select: { maxInstances: true, maxStreamsPerInstance: true } });
  }

  /** False when there is no such customer. */
  async setLimitOverrides(customerId: string, overrides: CustomerLimitOverrides): Promise<boolean> {
    const { count } = await this.prisma.customer.updateMany({ where: { id: customerId }, data: overrides });
    return count === 1;
  }

  /**
   * Revokes every active key of the customer and stores the new one, atomically. Returns the revoked hashes.
   * Rotations of one customer are serialised on the customer's row: under READ COMMITTED two concurrent rotations
   * would each revoke only the key they saw and both insert theirs, leaving several keys valid.
   */
  async replaceKey(scope: CustomerScope, key: StoredKey): Promise<string[]> {
    return this.prisma.$transaction(async (tx) => {
      await tx.$queryRaw`SELECT id FROM customers WHERE id = ${scope.customerId} FOR UPDATE`;
      const active = await tx.customerApiKey.findMany({
        where: { customerId: scope.customerId, revokedAt: null },
        select: { keyHash: true },
      });
      await tx.customerApiKey.updateMany({ where: { customerId: scope.customerId, revokedAt: null }, data: { revokedAt: new Date() } });
      await tx.customerApiKey.create({ data: { id: key.id, customerId: scope.customerId, keyHash: key.hash, prefix: key.prefix } });
      return active.map((row) => row.keyHash);
    });
  }
}
