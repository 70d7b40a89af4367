import { ApiProperty } from '@nestjs/swagger';
import { IsDefined, IsIn, IsISO8601 } from 'class-validator';

export class DeliveryAttemptDto {
  /** 1 for the first attempt; redeliveries continue the count. */
  number!: number;
  /** The URL this attempt was sent to. */
  url!: string;
  @ApiProperty({ format: 'date-time' })
  startedAt!: string;
  durationMs!: number;
  /** The receiver's HTTP status; null when no answer came (timeout, refused, DNS). */
  @ApiProperty({ type: Number, nullable: true })
  statusCode!: number | null;
  @ApiProperty({ enum: ['delivered', 'failed', 'gone', 'skipped'] })
  outcome!: 'delivered' | 'failed' | 'gone' | 'skipped';
  @ApiProperty({ type: String, nullable: true })
  error!: string | null;
}

export class DeliveryReportDto {
  eventId!: string;
  /** `none`: the event was never meant for a webhook (pull mode, no URL, or filtered settings at the time). */
  @ApiProperty({ enum: ['pending', 'delivered', 'failed', 'stopped', 'none'] })
  state!: 'pending' | 'delivered' | 'failed' | 'stopped' | 'none';
  /** When the next attempt is due, while the delivery is pending. */
  @ApiProperty({ type: String, format: 'date-time', nullable: true })
  nextAttemptAt!: string | null;
  @ApiProperty({ type: [DeliveryAttemptDto] })
  attempts!: DeliveryAttemptDto[];
}

export class RedeliveryDto {
  eventId!: string;
  @ApiProperty({ enum: ['pending'] })
  state!: 'pending';
}

export const REDELIVERABLE_STATES = ['failed', 'pending'] as const;

/** Which deliveries to send again: every one in `state` whose event arrived at or after `since`. */
export class BulkRedeliveryRequestDto {
  /** ISO 8601 date-time; events received at or after it count. */
  @ApiProperty({ format: 'date-time', example: '2026-11-24T00:00:00Z' })
  @IsDefined({ message: 'is required' })
  @IsISO8601({ strict: true }, { message: 'must be an ISO 8601 date-time' })
  since!: string;

  /** `failed`: deliveries whose retries ran out; `pending`: deliveries still waiting for their next attempt. */
  @ApiProperty({ enum: REDELIVERABLE_STATES })
  @IsDefined({ message: 'is required' })
  @IsIn(REDELIVERABLE_STATES, { message: 'must be failed or pending' })
  state!: 'failed' | 'pending';
}

export class BulkRedeliveryDto {
  /** How many deliveries start again (their retry schedule from the top, the same `webhook-id`). */
  count!: number;
}
