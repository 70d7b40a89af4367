import { Injectable } from '@nestjs/common';
import type { InstanceScope } from '@app/contracts';
import { DeliveryHealthRepository } from '@app/database';
import {
  DELIVERY_HEALTH_HOURS,
  MAX_DELIVERY_STATES,
  type DeliveryHealthDto,
  type DeliveryStatesDto,
  type DeliveryStatesQueryDto,
  type HourlyDeliveriesDto,
} from './dto/delivery-health.dto';

const HOUR_MS = 3_600_000;

@Injectable()
export class DeliveryHealthService {
  constructor(private readonly health: DeliveryHealthRepository) {}

  async states(scope: InstanceScope, query: DeliveryStatesQueryDto): Promise<DeliveryStatesDto> {
    // One more than shown tells whether the list was cut short.
    const rows = await this.health.statesSince(scope.instanceId, new Date(query.since), MAX_DELIVERY_STATES + 1);
    return {
      items: rows
        .slice(0, MAX_DELIVERY_STATES)
        .map((row) => ({ eventId: row.eventId, receivedAt: row.receivedAt.toISOString(), state: row.state })),
      truncated: rows.length > MAX_DELIVERY_STATES,
    };
  }

  async hourly(scope: InstanceScope, now = new Date()): Promise<DeliveryHealthDto> {
    const currentHour = Math.floor(now.getTime() / HOUR_MS) * HOUR_MS;
    const first = currentHour - (DELIVERY_HEALTH_HOURS - 1) * HOUR_MS;
    const hours: HourlyDeliveriesDto[] = Array.from({ length: DELIVERY_HEALTH_HOURS }, (_, at) => ({
      hour: new Date(first + at * HOUR_MS).toISOString(),
      delivered: 0,
      failed: 0,
      pending: 0,
    }));
    for (const row of await this.health.hourlyCounts(scope.instanceId, new Date(first))) {
      const bucket = hours[Math.round((row.hour.getTime() - first) / HOUR_MS)];
      if (!bucket) continue;
      if (row.state === 'delivered') bucket.delivered += row.count;
      else if (row.state === 'pending') bucket.pending += row.count;
      else bucket.failed += row.count;
    }
    return { hours };
  }
}
