import { ApiProperty } from '@nestjs/swagger';
import { ArrayMaxSize, IsArray, IsBoolean, IsDefined, IsIn, IsString } from 'class-validator';
import { EVENT_TYPES } from '@app/contracts';
import { IsSigningSecret, IsWebhookUrl } from '../../common/validators';

const REQUIRED = { message: 'is required' };

/** Customer-level defaults, followed by every instance whose `useCustomDefaults` is true. All five fields are required. */
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
}
