import { Injectable } from '@nestjs/common';
import { parseStoredSink, type CustomerScope } from '@app/contracts';
import { SecretBox } from '@app/security';
import { PrismaService } from '../prisma.service';
import type { CustomerDefaults, CustomerLimitOverrides, CustomerRecord, Page } from '../records';
import { isUniqueViolation, type NewDashboardLink, type NewDashboardUser } from './dashboard-user.repository';

const CUSTOMER_FIELDS = { id: true, name: true, createdAt: true, disabledAt: true } as const;

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

  /** With `owner`, the customer's first dashboard user and its invite link are created in the same commit. */
  async createWithKey(
    customer: { id: string; name: string },
    key: StoredKey,
    owner?: { user: NewDashboardUser; link: NewDashboardLink },
  ): Promise<CustomerRecord | 'email_taken'> {
    try {
      return await this.prisma.customer.create({
        data: {
          id: customer.id,
          name: customer.name,
          apiKeys: { create: { id: key.id, keyHash: key.hash, prefix: key.prefix } },
          ...(owner ? { dashboardUsers: { create: { ...owner.user, links: { create: owner.link } } } } : {}),
        },
        select: CUSTOMER_FIELDS,
      });
    } catch (error) {
      if (isUniqueViolation(error)) return 'email_taken';
      throw error;
    }
  }

  async list(skip: number, take: number, order: 'asc' | 'desc'): Promise<Page<CustomerRecord>> {
    const [items, totalCount] = await this.prisma.$transaction([
      this.prisma.customer.findMany({
        orderBy: [{ createdAt: order }, { id: order }],
        skip,
        take,
        select: CUSTOMER_FIELDS,
      }),
      this.prisma.customer.count(),
    ]);
    return { items, totalCount };
  }

  async find(customerId: string): Promise<CustomerRecord | null> {
    return this.prisma.customer.findUnique({ where: { id: customerId }, select: CUSTOMER_FIELDS });
  }

  /**
   * Disables or re-enables the customer. Returns the customer and the hashes of every key that acts for it (customer
   * and instance keys), so callers can drop them from caches; null for an unknown customer.
   */
  async setDisabled(customerId: string, disabled: boolean): Promise<{ customer: CustomerRecord; keyHashes: string[] } | null> {
    return this.prisma.$transaction(async (tx) => {
      const updated = await tx.customer.updateMany({
        where: { id: customerId },
        data: { disabledAt: disabled ? new Date() : null },
      });
      if (updated.count === 0) return null;
      const customer = await tx.customer.findUniqueOrThrow({ where: { id: customerId }, select: CUSTOMER_FIELDS });
      const keys = await tx.customerApiKey.findMany({ where: { customerId, revokedAt: null }, select: { keyHash: true } });
      const instances = await tx.instance.findMany({ where: { customerId, apiKeyHash: { not: null } }, select: { apiKeyHash: true } });
      return {
        customer,
        keyHashes: [...keys.map((key) => key.keyHash), ...instances.flatMap((row) => (row.apiKeyHash ? [row.apiKeyHash] : []))],
      };
    });
  }

  /** Customers and instances in numbers, for the operator's overview. */
  async counts(): Promise<{ customers: number; disabledCustomers: number; instancesByStatus: Record<string, number> }> {
    const [customers, disabledCustomers, byStatus] = await this.prisma.$transaction([
      this.prisma.customer.count(),
      this.prisma.customer.count({ where: { disabledAt: { not: null } } }),
      this.prisma.instance.groupBy({ by: ['status'], _count: { _all: true }, orderBy: { status: 'asc' } }),
    ]);
    const instancesByStatus: Record<string, number> = {};
    for (const row of byStatus) instancesByStatus[row.status] = (row._count as { _all: number })._all;
    return { customers, disabledCustomers, instancesByStatus };
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
        defaultProxyUrl: true,
        defaultEventSink: true,
      },
    });
    const sink = this.secrets.decryptOptional(row.defaultEventSink);
    return {
      ...row,
      defaultSigningSecret: this.secrets.decryptOptional(row.defaultSigningSecret),
      defaultProxyUrl: this.secrets.decryptOptional(row.defaultProxyUrl),
      defaultEventSink: sink ? parseStoredSink(sink) : null,
    };
  }

  async updateDefaults(scope: CustomerScope, defaults: CustomerDefaults): Promise<void> {
    await this.prisma.customer.update({
      where: { id: scope.customerId },
      data: {
        ...defaults,
        defaultSigningSecret: this.secrets.encryptOptional(defaults.defaultSigningSecret),
        defaultProxyUrl: this.secrets.encryptOptional(defaults.defaultProxyUrl),
        defaultEventSink: defaults.defaultEventSink ? this.secrets.encrypt(JSON.stringify(defaults.defaultEventSink)) : null,
      },
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
