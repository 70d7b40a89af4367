import { ApiProperty } from '@nestjs/swagger';
import { IsDefined, IsISO8601 } from 'class-validator';

/** At most this many delivery states in one answer, newest first. */
export const MAX_DELIVERY_STATES = 1000;
/** The hourly chart covers this many hours, the current one last. */
export const DELIVERY_HEALTH_HOURS = 24;

export const DELIVERY_STATES = ['pending', 'delivered', 'failed', 'stopped'] as const;

export class DeliveryStatesQueryDto {
  /** ISO 8601 date-time; deliveries of events received at or after it are listed. */
  @ApiProperty({ format: 'date-time', example: '2026-11-24T00:00:00Z' })
  @IsDefined({ message: 'is required' })
  @IsISO8601({ strict: true }, { message: 'must be an ISO 8601 date-time' })
  since!: string;
}

export class DeliveryStateDto {
  /** The event delivered. */
  eventId!: string;

  /** When the gateway received the event. */
  @ApiProperty({ format: 'date-time' })
  receivedAt!: string;

  /**
   * `pending`: waiting for an attempt; `delivered`; `failed`: retries ran out; `stopped`: never delivered because the
   * receiver answered 410 Gone, or webhooks were turned off (pull mode, no URL) before it went out.
   */
  @ApiProperty({ enum: DELIVERY_STATES })
  state!: (typeof DELIVERY_STATES)[number];
}

export class DeliveryStatesDto {
  /** Newest event first; events never meant for a webhook have no delivery and are not listed. */
  @ApiProperty({ type: DeliveryStateDto, isArray: true })
  items!: DeliveryStateDto[];

  /** More deliveries than the `MAX_DELIVERY_STATES` (1000) listed happened since `since`; ask again with a later `since`. */
  truncated!: boolean;
}

export class HourlyDeliveriesDto {
  /** The start of the hour (UTC). */
  @ApiProperty({ format: 'date-time', example: '2026-11-24T13:00:00.000Z' })
  hour!: string;

  /** Deliveries of events received in this hour that reached the webhook. */
  delivered!: number;

  /** Deliveries of events received in this hour that did not reach the webhook: retries ran out, or stopped (410 Gone, webhooks off). */
  failed!: number;

  /** Deliveries of events received in this hour still waiting for an attempt. */
  pending!: number;
}

export class DeliveryHealthDto {
  /** One entry per hour, oldest first: the last 24 hours, the current (partial) hour last; hours without events count 0. */
  @ApiProperty({ type: HourlyDeliveriesDto, isArray: true })
  hours!: HourlyDeliveriesDto[];
}
