import { Injectable } from '@nestjs/common';
import type { InstanceStatus } from '@app/contracts';
import { PrismaService } from '../prisma.service';

export interface OwnedInstance {
  id: string;
  customerId: string;
  shard: number;
  sandbox: boolean;
  status: InstanceStatus;
  deviceId: string | null;
  /** When the status last changed: for a connected instance, when its link last opened (takeovers open the oldest first). */
  statusChangedAt: Date | null;
}

const OWNED_FIELDS = {
  id: true,
  customerId: true,
  shard: true,
  sandbox: true,
  status: true,
  deviceId: true,
  statusChangedAt: true,
} as const;

/** The worker's view of instances: it acts on the instances of the shards it leases, whoever their customer is. */
@Injectable()
export class InstanceLifecycleRepository {
  constructor(private readonly prisma: PrismaService) {}

  async find(instanceId: string): Promise<OwnedInstance | null> {
    return this.prisma.instance.findUnique({ where: { id: instanceId }, select: OWNED_FIELDS });
  }

  async inShards(shards: number[]): Promise<OwnedInstance[]> {
    return this.prisma.instance.findMany({ where: { shard: { in: shards } }, select: OWNED_FIELDS, orderBy: { createdAt: 'asc' } });
  }

  /** The effective `historySync` setting: the customer's default while the instance follows the defaults. */
  async historySync(instanceId: string): Promise<boolean> {
    const row = await this.prisma.instance.findUnique({
      where: { id: instanceId },
      select: { useCustomDefaults: true, historySync: true, customer: { select: { defaultHistorySync: true } } },
    });
    if (!row) return false;
    return row.useCustomDefaults ? row.customer.defaultHistorySync : row.historySync;
  }

  /** Persists a transition; `deviceId: undefined` keeps the stored one. */
  async setStatus(instanceId: string, status: InstanceStatus, deviceId?: string | null): Promise<void> {
    await this.prisma.instance.updateMany({
      where: { id: instanceId },
      data: { status, statusChangedAt: new Date(), ...(deviceId !== undefined ? { deviceId } : {}) },
    });
  }
}
