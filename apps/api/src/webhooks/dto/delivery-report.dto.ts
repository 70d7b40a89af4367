import { ApiExtraModels, ApiProperty, getSchemaPath } from '@nestjs/swagger';
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

export class SinkAttemptDto {
  /** 1 for the first attempt; redeliveries continue the count. */
  number!: number;
  /** The broker kind; `none` when the delivery was stopped because the instance no longer had a sink. */
  @ApiProperty({ enum: ['rabbitmq', 'nats', 'none'], example: 'rabbitmq' })
  sink!: 'rabbitmq' | 'nats' | 'none';
  /** Where it was published, without credentials. */
  @ApiProperty({ example: 'amqp://broker.example.com:5672 vhost / exchange amq.topic key {instanceId}.{eventType}' })
  target!: string;
  @ApiProperty({ format: 'date-time' })
  startedAt!: string;
  durationMs!: number;
  /** `delivered`: the broker confirmed it (publisher confirm, JetStream ack). */
  @ApiProperty({ enum: ['delivered', 'failed', 'skipped'] })
  outcome!: 'delivered' | 'failed' | 'skipped';
  @ApiProperty({ type: String, nullable: true, example: null })
  error!: string | null;
}

export class SinkDeliveryDto {
  /** `stopped`: the instance no longer had a sink when it was its turn. */
  @ApiProperty({ enum: ['pending', 'delivered', 'failed', 'stopped'] })
  state!: 'pending' | 'delivered' | 'failed' | 'stopped';
  @ApiProperty({ type: String, format: 'date-time', nullable: true })
  nextAttemptAt!: string | null;
  @ApiProperty({ type: [SinkAttemptDto] })
  attempts!: SinkAttemptDto[];
}

@ApiExtraModels(SinkDeliveryDto)
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
  /** The event's delivery to the instance's message broker (RabbitMQ, NATS JetStream); null when it never had one. */
  @ApiProperty({ allOf: [{ $ref: getSchemaPath(SinkDeliveryDto) }], nullable: true })
  sink!: SinkDeliveryDto | null;
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
