import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { Transform, type TransformFnParams } from 'class-transformer';
import { IsIn, IsOptional, ValidateBy } from 'class-validator';
import { EVENT_TYPES, type EventType } from '@app/contracts';

export const DEFAULT_EVENT_PAGE_LIMIT = 100;
export const MAX_EVENT_PAGE_LIMIT = 1000;

/** Query values arrive as strings: only plain digits become numbers, anything else stays as sent and fails below. */
function digitsToNumber({ value }: TransformFnParams): unknown {
  return typeof value === 'string' && /^\d{1,16}$/.test(value) ? Number(value) : value;
}

/** A whole number within bounds; a rule of its own so that `abc` reads as a validation error, not a malformed body. */
function IsWholeNumberIn(min: number, max: number, message: string): PropertyDecorator {
  return ValidateBy(
    {
      name: 'isWholeNumberIn',
      validator: { validate: (value: unknown) => Number.isSafeInteger(value) && (value as number) >= min && (value as number) <= max },
    },
    { message },
  );
}

export class EventStreamQueryDto {
  /**
   * Start after this sequence number: `0` replays everything still in the log. Ignored when the `Last-Event-ID`
   * header is sent. Without either, the stream starts with the next new event. If events after it were pruned (older
   * than the retention time), the stream opens with an `event: gap` message and continues from the oldest event kept.
   */
  @ApiPropertyOptional({ type: 'integer', minimum: 0 })
  @IsOptional()
  @Transform(digitsToNumber)
  @IsWholeNumberIn(0, Number.MAX_SAFE_INTEGER, 'must be a non-negative whole number')
  after?: number;
}

export class EventPageQueryDto {
  /**
   * Return events with a sequence number above this one; `0` (the default) starts at the oldest event still kept. A
   * cursor whose next events were already pruned (older than the retention time) is answered `410` naming the oldest
   * sequence still available.
   */
  @ApiPropertyOptional({ type: 'integer', minimum: 0, default: 0 })
  @IsOptional()
  @Transform(digitsToNumber)
  @IsWholeNumberIn(0, Number.MAX_SAFE_INTEGER, 'must be a non-negative whole number')
  after?: number;

  /** Return events with a sequence number below this one (with `order=desc`: the next older page). */
  @ApiPropertyOptional({ type: 'integer', minimum: 1 })
  @IsOptional()
  @Transform(digitsToNumber)
  @IsWholeNumberIn(1, Number.MAX_SAFE_INTEGER, 'must be a positive whole number')
  before?: number;

  /** `asc` (the default): oldest first; `desc`: newest first, e.g. the latest events of a log viewer. */
  @ApiPropertyOptional({ enum: ['asc', 'desc'], default: 'asc' })
  @IsOptional()
  @IsIn(['asc', 'desc'], { message: 'must be asc or desc' })
  order?: 'asc' | 'desc';

  /** At most this many events, 1-1000. */
  @ApiPropertyOptional({ type: 'integer', minimum: 1, maximum: MAX_EVENT_PAGE_LIMIT, default: DEFAULT_EVENT_PAGE_LIMIT })
  @IsOptional()
  @Transform(digitsToNumber)
  @IsWholeNumberIn(1, MAX_EVENT_PAGE_LIMIT, `must be a whole number from 1 to ${MAX_EVENT_PAGE_LIMIT}`)
  limit?: number;
}

/** What webhooks deliver and the pull stream sends, for every event. */
export class EventEnvelopeDto {
  /** `evt_<unix-ms>_<16 hex>`: unique, and the same for an event wherever it is delivered. */
  eventId!: string;

  /** The instance the event belongs to. */
  instanceId!: string;

  @ApiProperty({ enum: EVENT_TYPES })
  eventType!: EventType;

  /** When the gateway recorded the event (ISO 8601, UTC). */
  @ApiProperty({ format: 'date-time' })
  receivedAt!: string;

  /** The event's payload; its fields depend on `eventType` (e.g. a `message` carries `id`, `chatId`, `sender`, `type`, ...). */
  @ApiProperty({ type: 'object', additionalProperties: true })
  eventData!: Record<string, unknown>;
}

export class LoggedEventDto {
  /**
   * The event's position in this instance's log. It grows with every stored event, and is the `id:` of the event on
   * the stream; numbers of events past the retention time no longer appear.
   */
  @ApiProperty({ type: 'integer', minimum: 1 })
  seq!: number;

  event!: EventEnvelopeDto;
}

export class EventPageDto {
  /** Oldest first. */
  items!: LoggedEventDto[];

  /** Send this as `after` for the next page: the last `seq` returned, or the `after` sent when the page is empty. */
  @ApiProperty({ type: 'integer', minimum: 0 })
  nextAfter!: number;
}
