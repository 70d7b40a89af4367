import { ApiExtraModels, ApiProperty, getSchemaPath } from '@nestjs/swagger';
import { Type } from 'class-transformer';
import { ArrayMaxSize, IsArray, IsBoolean, IsDefined, IsIn, IsOptional, IsString, ValidateNested } from 'class-validator';
import { EVENT_TYPES } from '@app/contracts';
import { IsSigningSecret, IsWebhookUrl } from '../../common/validators';
import { EventSinkDto } from './event-sink.dto';

const REQUIRED = { message: 'is required' };

/**
 * Customer-level defaults, followed by every instance whose `useCustomDefaults` is true. The contract's five fields are
 * required; `defaultEventSink` is optional (left out, it is kept).
 */
@ApiExtraModels(EventSinkDto)
export class CustomerDefaultsDto {
  /** Webhook URL; empty string for none. */
  @IsDefined(REQUIRED)
  @IsString()
  @IsWebhookUrl()
  defaultWebhookUrl!: string;

  /**
   * Signing secret; empty string for none. Read back masked (`whsec_…a1b2`); sending the masked value back unchanged
   * keeps the stored secret, sending a full secret replaces it.
   */
  @IsDefined(REQUIRED)
  @IsString()
  @IsSigningSecret()
  defaultSigningSecret!: string;

  @ApiProperty({ enum: EVENT_TYPES, isArray: true })
  @IsDefined(REQUIRED)
  @IsArray()
  @ArrayMaxSize(EVENT_TYPES.length, { message: `must have at most ${EVENT_TYPES.length} items` })
  @IsIn(EVENT_TYPES, { each: true, message: `must contain only event types (${EVENT_TYPES.join(', ')})` })
  defaultEventFilters!: string[];

  @IsDefined(REQUIRED)
  @IsBoolean()
  defaultHistorySync!: boolean;

  @IsDefined(REQUIRED)
  @IsBoolean()
  defaultPullMode!: boolean;

  /**
   * The default message broker sink (see the instance setting `eventSink`); `null` removes it, left out it is kept. Read
   * back with the broker password masked.
   */
  @ApiProperty({ allOf: [{ $ref: getSchemaPath(EventSinkDto) }], nullable: true, required: false })
  @IsOptional()
  @ValidateNested()
  @Type(() => EventSinkDto)
  defaultEventSink?: EventSinkDto | null;
}
