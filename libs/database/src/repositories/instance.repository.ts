import { Injectable } from '@nestjs/common';
import type { CustomerScope, InstanceStatus } from '@app/contracts';
import { SecretBox } from '@app/security';
import type { Instance } from '../generated/prisma/client';
import { PrismaService } from '../prisma.service';
import type { InstanceRecord, InstanceSettings, Page } from '../records';

export interface NewInstance {
  id: string;
  name: string;
  shard: number;
  sandbox: boolean;
  apiKey: { hash: string; prefix: string };
}

@Injectable()
export class InstanceRepository {
  constructor(
    private readonly prisma: PrismaService,
    private readonly secrets: SecretBox,
  ) {}

  private toRecord(row: Instance): InstanceRecord {
    return {
      id: row.id,
      customerId: row.customerId,
      name: row.name,
      status: row.status,
      deviceId: row.deviceId,
      shard: row.shard,
      sandbox: row.sandbox,
      hasApiKey: row.apiKeyHash !== null,
      createdAt: row.createdAt,
      settings: {
        useCustomDefaults: row.useCustomDefaults,
        pullMode: row.pullMode,
        webhookUrl: row.webhookUrl,
        eventSigningSecret: this.secrets.decryptOptional(row.eventSigningSecret),
        historySync: row.historySync,
        eventFilters: row.eventFilters,
      },
    };
  }

  async create(scope: CustomerScope, instance: NewInstance): Promise<InstanceRecord> {
    const { apiKey, ...fields } = instance;
    const row = await this.prisma.instance.create({
      data: { ...fields, customerId: scope.customerId, apiKeyHash: apiKey.hash, apiKeyPrefix: apiKey.prefix },
    });
    return this.toRecord(row);
  }

  async find(scope: CustomerScope, id: string): Promise<InstanceRecord | null> {
    const row = await this.prisma.instance.findFirst({ where: { id, customerId: scope.customerId } });
    return row ? this.toRecord(row) : null;
  }

  async list(scope: CustomerScope, skip: number, take: number, status?: InstanceStatus): Promise<Page<InstanceRecord>> {
    const where = { customerId: scope.customerId, ...(status ? { status } : {}) };
    const [rows, totalCount] = await this.prisma.$transaction([
      this.prisma.instance.findMany({ where, orderBy: [{ createdAt: 'asc' }, { id: 'asc' }], skip, take }),
      this.prisma.instance.count({ where }),
    ]);
    return { items: rows.map((row) => this.toRecord(row)), totalCount };
  }

  /** Every instance of the customer with its recorded status (for the dashboard's live list). */
  async statuses(scope: CustomerScope): Promise<{ id: string; status: InstanceStatus; deviceId: string | null }[]> {
    return this.prisma.instance.findMany({
      where: { customerId: scope.customerId },
      orderBy: [{ createdAt: 'asc' }, { id: 'asc' }],
      select: { id: true, status: true, deviceId: true },
    });
  }

  /** False when the instance does not exist for this customer. */
  async rename(scope: CustomerScope, id: string, name: string): Promise<boolean> {
    const { count } = await this.prisma.instance.updateMany({ where: { id, customerId: scope.customerId }, data: { name } });
    return count === 1;
  }

  async updateSettings(scope: CustomerScope, id: string, settings: Partial<InstanceSettings>): Promise<boolean> {
    const { eventSigningSecret, ...plain } = settings;
    const data =
      eventSigningSecret === undefined ? plain : { ...plain, eventSigningSecret: this.secrets.encryptOptional(eventSigningSecret) };
    const { count } = await this.prisma.instance.updateMany({ where: { id, customerId: scope.customerId }, data });
    return count === 1;
  }

  async sendInterval(scope: CustomerScope, id: string): Promise<number | undefined> {
    const row = await this.prisma.instance.findFirst({ where: { id, customerId: scope.customerId }, select: { sendIntervalMs: true } });
    return row?.sendIntervalMs;
  }

  async setSendInterval(scope: CustomerScope, id: string, sendIntervalMs: number): Promise<boolean> {
    const { count } = await this.prisma.instance.updateMany({ where: { id, customerId: scope.customerId }, data: { sendIntervalMs } });
    return count === 1;
  }

  /** Stores a new instance key; returns the hash it replaced (null when there was none), or undefined when not found. */
  async replaceApiKey(scope: CustomerScope, id: string, key: { hash: string; prefix: string }): Promise<string | null | undefined> {
    return this.prisma.$transaction(async (tx) => {
      const current = await tx.instance.findFirst({ where: { id, customerId: scope.customerId }, select: { apiKeyHash: true } });
      if (!current) return undefined;
      await tx.instance.update({ where: { id }, data: { apiKeyHash: key.hash, apiKeyPrefix: key.prefix } });
      return current.apiKeyHash;
    });
  }

  /** Deletes the instance; returns its key hash (null when it had none), or undefined when not found. */
  async delete(scope: CustomerScope, id: string): Promise<string | null | undefined> {
    const rows = await this.prisma.instance.findMany({ where: { id, customerId: scope.customerId }, select: { apiKeyHash: true } });
    if (rows.length === 0) return undefined;
    const [, , , , , { count }] = await this.prisma.$transaction([
      this.prisma.messageCounter.deleteMany({ where: { instanceId: id } }),
      this.prisma.sandboxMessage.deleteMany({ where: { instanceId: id } }),
      this.prisma.sandboxGroup.deleteMany({ where: { instanceId: id } }),
      this.prisma.sandboxContact.deleteMany({ where: { instanceId: id } }),
      this.prisma.sandboxDevice.deleteMany({ where: { instanceId: id } }),
      this.prisma.instance.deleteMany({ where: { id, customerId: scope.customerId } }),
    ]);
    return count === 1 ? rows[0].apiKeyHash : undefined;
  }
}
