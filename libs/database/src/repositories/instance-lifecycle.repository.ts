import { Injectable } from '@nestjs/common';
import type { InstanceStatus } from '@app/contracts';
import { SecretBox } from '@app/security';
import { PrismaService } from '../prisma.service';
import { FencedOutError, fenceHolds, type Fence } from './fence';

export interface OwnedInstance {
  id: string;
  customerId: string;
  shard: number;
  sandbox: boolean;
  status: InstanceStatus;
  deviceId: string | null;
  /** When the status last changed: for a connected instance, when its link last opened (takeovers open the oldest first). */
  statusChangedAt: Date | null;
  /** Why it is in its status, when something other than the network put it there (e.g. `proxy_unreachable`). */
  statusReason: string | null;
}

const OWNED_FIELDS = {
  id: true,
  customerId: true,
  shard: true,
  sandbox: true,
  status: true,
  deviceId: true,
  statusChangedAt: true,
  statusReason: true,
} as const;

/** The worker's view of instances: it acts on the instances of the shards it leases, whoever their customer is. */
@Injectable()
export class InstanceLifecycleRepository {
  constructor(
    private readonly prisma: PrismaService,
    private readonly secrets: SecretBox,
  ) {}

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

  /**
   * The proxy URL the instance's own settings, or while it follows the defaults its customer's, name (decrypted); null
   * when they name none (the deployment's `OUTBOUND_PROXY_URL` then applies), undefined for an unknown instance.
   */
  async proxyUrl(instanceId: string): Promise<string | null | undefined> {
    const row = await this.prisma.instance.findUnique({
      where: { id: instanceId },
      select: { useCustomDefaults: true, proxyUrl: true, customer: { select: { defaultProxyUrl: true } } },
    });
    if (!row) return undefined;
    return this.secrets.decryptOptional(row.useCustomDefaults ? row.customer.defaultProxyUrl : row.proxyUrl);
  }

  /**
   * Persists a transition with the reason for it (null: none; see `Instance.statusReason`); `deviceId: undefined` keeps the stored one. With a `fence` (the session's shard lease),
   * PostgreSQL writes it only while that lease is current, in the same statement, and FencedOutError is thrown
   * otherwise: a worker whose shard passed on would else mark the next owner's live link disconnected.
   */
  async setStatus(
    instanceId: string,
    status: InstanceStatus,
    deviceId?: string | null,
    fence?: Fence,
    reason: string | null = null,
  ): Promise<void> {
    if (!fence) {
      await this.prisma.instance.updateMany({
        where: { id: instanceId },
        data: { status, statusReason: reason, statusChangedAt: new Date(), ...(deviceId !== undefined ? { deviceId } : {}) },
      });
      return;
    }
    const { rows } = await this.prisma.pool.query<{ allowed: boolean }>(
      `WITH allowed AS (SELECT ${fenceHolds('$5', '$6')} AS ok), updated AS (
         UPDATE instances SET status = $2::"InstanceStatus", status_changed_at = $7::timestamptz AT TIME ZONE 'UTC', status_reason = $8,
                device_id = CASE WHEN $3::boolean THEN $4 ELSE device_id END
         WHERE id = $1 AND (SELECT ok FROM allowed)
       )
       SELECT ok AS allowed FROM allowed`,
      [instanceId, status, deviceId !== undefined, deviceId ?? null, fence.shard, fence.token, new Date(), reason],
    );
    if (!rows[0]?.allowed) throw new FencedOutError(fence);
  }
}
