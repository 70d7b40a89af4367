import { ApiProperty } from '@nestjs/swagger';
import { IsDefined, IsIn, IsOptional, IsString, ValidateBy, type ValidationArguments, type ValidationOptions } from 'class-validator';
import {
  EVENT_SINK_KINDS,
  brokerUrlProblem,
  exchangeProblem,
  isMaskedBrokerUrl,
  routingKeyProblem,
  subjectProblem,
  type EventSinkKind,
} from '@app/contracts';
import { REQUIRED } from '../../common/validators';

type SinkField = 'url' | 'exchange' | 'routingKey' | 'subject';

/** Which fields each kind takes; the others must be left out. */
const FIELDS_OF: Record<EventSinkKind, SinkField[]> = { rabbitmq: ['url', 'exchange', 'routingKey'], nats: ['url', 'subject'] };

function problemOf(field: SinkField, value: unknown, object: object): string | null {
  const kind = (object as { kind?: unknown }).kind as EventSinkKind;
  // A wrong or missing kind is reported on `kind`; nothing more to say about the other fields.
  if (!EVENT_SINK_KINDS.includes(kind)) return null;
  if (!FIELDS_OF[kind].includes(field)) return `must not be set when kind is ${kind}`;
  if (typeof value !== 'string') return null;
  switch (field) {
    case 'url':
      // The masked URL read back is accepted here; the service keeps the stored URL when it matches.
      return isMaskedBrokerUrl(value) && value.length <= 2048 ? null : brokerUrlProblem(kind, value);
    case 'exchange':
      return exchangeProblem(value);
    case 'routingKey':
      return routingKeyProblem(value);
    case 'subject':
      return subjectProblem(value);
  }
}

/** The field's rule for the sink's kind (`contracts/event-sinks.ts`), with the rule's own wording. */
function SinkRule(field: SinkField, options?: ValidationOptions): PropertyDecorator {
  return ValidateBy(
    {
      name: 'sinkRule',
      validator: {
        validate: (value: unknown, args?: ValidationArguments) => problemOf(field, value, args?.object ?? {}) === null,
        defaultMessage: (args?: ValidationArguments) => problemOf(field, args?.value, args?.object ?? {}) ?? 'is not valid',
      },
    },
    options,
  );
}

/**
 * A message broker that receives the instance's events as well (with the same envelope, event ids and filters as the
 * webhook). `rabbitmq`: AMQP 0-9-1 with publisher confirms, to `exchange` (it must exist) with `routingKey`.
 * `nats`: NATS JetStream, to `subject` (a stream must cover it), de-duplicated by the event id.
 */
export class EventSinkDto {
  @ApiProperty({ enum: EVENT_SINK_KINDS, example: 'rabbitmq' })
  @IsDefined(REQUIRED)
  @IsIn(EVENT_SINK_KINDS, { message: `must be one of ${EVENT_SINK_KINDS.join(', ')}` })
  kind!: EventSinkKind;

  /**
   * The broker: `amqp://user:password@host:5672/vhost` (or `amqps://`) for rabbitmq, `nats://user:password@host:4222`
   * (or `tls://`) for nats. Stored encrypted; read back with the password masked (`amqp://user:…@host:5672/vhost`), and
   * that masked value sent back unchanged keeps the stored URL.
   */
  @ApiProperty({ example: 'amqp://gateway:s3cret@broker.example.com:5672/events' })
  @IsDefined(REQUIRED)
  @IsString()
  @SinkRule('url')
  url!: string;

  /** rabbitmq: the exchange to publish to; it must exist. Default `amq.topic`; empty string for the default exchange. */
  @ApiProperty({ required: false, example: 'amq.topic' })
  @IsOptional()
  @IsString()
  @SinkRule('exchange')
  exchange?: string;

  /** rabbitmq: the routing key; `{instanceId}` and `{eventType}` are filled in. Default `{instanceId}.{eventType}`. */
  @ApiProperty({ required: false, example: 'gateway.{instanceId}.{eventType}' })
  @IsOptional()
  @IsString()
  @SinkRule('routingKey')
  routingKey?: string;

  /** nats: the subject; `{instanceId}` and `{eventType}` are filled in. Default `gateway.events.{instanceId}.{eventType}`. */
  @ApiProperty({ required: false, example: 'gateway.events.{instanceId}.{eventType}' })
  @IsOptional()
  @IsString()
  @SinkRule('subject')
  subject?: string;
}

/** The sink as stored, with the broker URL's password masked. */
export class EventSinkSettingsDto {
  @ApiProperty({ enum: EVENT_SINK_KINDS, example: 'rabbitmq' })
  kind!: EventSinkKind;
  /** The broker URL, its password shown as `…`. */
  @ApiProperty({ example: 'amqp://gateway:…@broker.example.com:5672/events' })
  url!: string;
  /** rabbitmq only. */
  @ApiProperty({ required: false, example: 'amq.topic' })
  exchange?: string;
  /** rabbitmq only. */
  @ApiProperty({ required: false, example: '{instanceId}.{eventType}' })
  routingKey?: string;
  /** nats only. */
  @ApiProperty({ required: false })
  subject?: string;
}
