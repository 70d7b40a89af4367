import { ApiExtraModels, ApiProperty, getSchemaPath } from '@nestjs/swagger';
import { Type } from 'class-transformer';
import { ArrayMaxSize, IsArray, IsBoolean, IsDefined, IsIn, IsOptional, IsString, ValidateNested } from 'class-validator';
import { EVENT_TYPES } from '@app/contracts';
import { IsProxyUrl, IsSigningSecret, IsWebhookUrl } from '../../common/validators';
import { EventSinkDto } from './event-sink.dto';

const REQUIRED = { message: 'is required' };

/**
 * Customer-level defaults, followed by every instance whose `useCustomDefaults` is true. The contract's five fields are
 * required; `defaultProxyUrl` and `defaultEventSink` are optional (left out, each keeps its value).
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
   * Outbound proxy of the instances that follow the defaults (`http://...` or `socks5://...`); empty string for none.
   * Read back with the password masked; sending the masked value back keeps it. A change reconnects those instances.
   * @example "http://alice:s3cret@proxy.example:3128"
   */
  @IsOptional()
  @IsString()
  @IsProxyUrl()
  defaultProxyUrl?: string;

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
