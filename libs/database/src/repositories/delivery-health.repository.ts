import { Injectable, Optional } from '@nestjs/common';
import type { PrismaClient } from '../generated/prisma/client';
import { PrismaService } from '../prisma.service';
import { ReadReplica } from '../read-replica';
import type { DeliveryState } from './delivery-batches';

export interface DeliveryStateRow {
  eventId: string;
  receivedAt: Date;
  state: DeliveryState;
}

export interface HourlyDeliveryCount {
  hour: Date;
  state: DeliveryState;
  count: number;
}

/**
 * Read-only views of an instance's webhook deliveries for the console's health views. Reads go to the replica, like
 * the event log pages they sit beside; every query is bounded by the delivery's `received_at` (the partition key).
 */
@Injectable()
export class DeliveryHealthRepository {
  private readonly replica: PrismaClient;

  constructor(prisma: PrismaService, @Optional() replica?: ReadReplica) {
    this.replica = replica?.client ?? prisma;
  }

  /** The state of each delivery whose event arrived at or after `since`, newest first, at most `limit`. */
  async statesSince(instanceId: string, since: Date, limit: number): Promise<DeliveryStateRow[]> {
    const rows = await this.replica.webhookDelivery.findMany({
      where: { instanceId, receivedAt: { gte: since } },
      select: { eventId: true, receivedAt: true, state: true },
      orderBy: { receivedAt: 'desc' },
      take: limit,
    });
    return rows.map((row) => ({ eventId: row.eventId, receivedAt: row.receivedAt, state: row.state }));
  }

  /** How many deliveries of events received in each hour since `since` are in each state. */
  async hourlyCounts(instanceId: string, since: Date): Promise<HourlyDeliveryCount[]> {
    const rows = await this.replica.$queryRaw<{ hour: Date; state: DeliveryState; count: number }[]>`
      SELECT date_trunc('hour', received_at) AS hour, state::text AS state, count(*)::int AS count
      FROM webhook_deliveries
      WHERE instance_id = ${instanceId} AND received_at >= ${since}
      GROUP BY 1, 2`;
    return rows;
  }
}
