import { ApiExtraModels, ApiProperty, getSchemaPath } from '@nestjs/swagger';
import { Type } from 'class-transformer';
import {
  ArrayMaxSize,
  IsArray,
  IsBoolean,
  IsIn,
  IsOptional,
  IsString,
  Matches,
  MaxLength,
  MinLength,
  ValidateNested,
} from 'class-validator';
import { EVENT_TYPES, INSTANCE_STATUSES, type InstanceStatus } from '@app/contracts';
import { PageQueryDto } from '../../common/page-query.dto';
import { IsProxyUrl, IsSigningSecret, IsWebhookUrl } from '../../common/validators';
import { EventSinkDto } from './event-sink.dto';

const NAME_RULE = 'must be 1-100 characters, not only spaces';

export class CreateInstanceDto {
  /** A name for people; defaults to one derived from the id. */
  @IsOptional()
  @IsString()
  @MinLength(1, { message: NAME_RULE })
  @MaxLength(100, { message: NAME_RULE })
  @Matches(/\S/, { message: NAME_RULE })
  name?: string;

  /** Create the instance on the simulated network (test mode). */
  @IsOptional()
  @IsBoolean()
  sandbox?: boolean;
}

export class RenameInstanceDto {
  @IsString()
  @MinLength(1, { message: NAME_RULE })
  @MaxLength(100, { message: NAME_RULE })
  @Matches(/\S/, { message: NAME_RULE })
  name!: string;
}

/** Fields left out keep their value; empty strings clear `webhookUrl` and `eventSigningSecret`. */
@ApiExtraModels(EventSinkDto)
export class UpdateInstanceSettingsDto {
  /**
   * Renames the instance, as `PUT /account/instances/{id}/name` does. The settings read from `GET /instance/settings`
   * carry the name, so they can be sent back whole (the family SDKs do).
   */
  @IsOptional()
  @IsString()
  @MinLength(1, { message: NAME_RULE })
  @MaxLength(100, { message: NAME_RULE })
  @Matches(/\S/, { message: NAME_RULE })
  name?: string;

  @IsOptional()
  @IsBoolean()
  useCustomDefaults?: boolean;

  @IsOptional()
  @IsBoolean()
  pullMode?: boolean;

  /** http(s) URL that receives events; empty string removes it. */
  @IsOptional()
  @IsString()
  @IsWebhookUrl()
  webhookUrl?: string;

  /**
   * Signing secret (write-only: reads show it masked, e.g. `whsec_…a1b2`); empty string removes it. The masked value
   * read back is accepted and keeps the stored secret, so settings can be read, edited and sent back whole.
   */
  @IsOptional()
  @IsString()
  @IsSigningSecret()
  eventSigningSecret?: string;

  @IsOptional()
  @IsBoolean()
  historySync?: boolean;

  /** Event types to deliver; empty means all. Session events always pass. */
  @ApiProperty({ enum: EVENT_TYPES, isArray: true, required: false })
  @IsOptional()
  @IsArray()
  @ArrayMaxSize(EVENT_TYPES.length, { message: `must have at most ${EVENT_TYPES.length} items` })
  @IsIn(EVENT_TYPES, { each: true, message: `must contain only event types (${EVENT_TYPES.join(', ')})` })
  eventFilters?: string[];

  /**
   * Outbound proxy for everything the instance sends to the network (WebSocket, media upload and download):
   * `http://[user:password@]host:port` (HTTP CONNECT) or `socks5://[user:password@]host:port`. Empty string removes it
   * (the deployment's `OUTBOUND_PROXY_URL`, if any, then applies). Reads show the password masked
   * (`http://alice:…@proxy.example:3128`); sending that back keeps the stored URL. A change reconnects the instance.
   * @example "socks5://alice:s3cret@proxy.example:1080"
   */
  @IsOptional()
  @IsString()
  @IsProxyUrl()
  proxyUrl?: string;

  /**
   * A message broker that receives the instance's events as well as (or, with no `webhookUrl`, instead of) the webhook:
   * the same envelope, event ids and `eventFilters`. `null` removes it; left out, it is kept.
   */
  @ApiProperty({ allOf: [{ $ref: getSchemaPath(EventSinkDto) }], nullable: true, required: false })
  @IsOptional()
  @ValidateNested()
  @Type(() => EventSinkDto)
  eventSink?: EventSinkDto | null;
}

export class ListInstancesQueryDto extends PageQueryDto {
  /** Only instances in this status. */
  @ApiProperty({ enum: INSTANCE_STATUSES, required: false })
  @IsOptional()
  @IsIn(INSTANCE_STATUSES, { message: `must be one of ${INSTANCE_STATUSES.join(', ')}` })
  status?: InstanceStatus;
}
