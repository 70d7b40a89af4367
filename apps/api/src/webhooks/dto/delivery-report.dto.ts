import { ApiProperty } from '@nestjs/swagger';

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
