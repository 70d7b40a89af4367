import { ApiExtraModels, ApiProperty, getSchemaPath } from '@nestjs/swagger';
import { EVENT_TYPES, INSTANCE_STATUSES, type InstanceStatus } from '@app/contracts';
import { EventSinkSettingsDto } from './event-sink.dto';

@ApiExtraModels(EventSinkSettingsDto)
export class InstanceSettingsDto {
  /** true: the instance follows the customer-level defaults; false: its own settings below apply. */
  useCustomDefaults!: boolean;
  /** Events are collected for `GET /events` / `GET /events/stream` instead of being sent to the webhook. */
  pullMode!: boolean;
  /** Where events are POSTed; empty when none is set. */
  webhookUrl!: string;
  /**
   * The webhook signing secret, masked: its `whsec_` prefix, `…` and its last four characters (e.g. `whsec_…a1b2`);
   * empty when none is set. The full secret is shown nowhere: set it (or rotate it) by sending a new one in
   * `PUT /account/instances/{id}/settings` or `PUT /instance/settings`. Sending the masked value back keeps the secret.
   */
  eventSigningSecret!: string;
  /** Whether message history is synchronised after pairing. */
  historySync!: boolean;
  /** Event types delivered (allow-list); empty means all. */
  @ApiProperty({ enum: EVENT_TYPES, isArray: true })
  eventFilters!: string[];
  /** The message broker that receives the events as well (password masked); null when none. */
  @ApiProperty({ allOf: [{ $ref: getSchemaPath(EventSinkSettingsDto) }], nullable: true })
  eventSink!: EventSinkSettingsDto | null;
}

export class InstanceDetailDto {
  /** Instance id, used as `X-Instance-Id`. */
  id!: string;
  name!: string;
  /** Whether the instance has its own API key. */
  hasApiKey!: boolean;
  /** The instance lives on the simulated network (test mode): the `/sandbox` routes play its phone and contacts. */
  sandbox!: boolean;
  settings!: InstanceSettingsDto;
  @ApiProperty({ enum: INSTANCE_STATUSES })
  status!: InstanceStatus;
  /** The paired device, e.g. `15551234567:12@s.whatsapp.net`; empty while unpaired. */
  deviceId!: string;
  /** When the instance was created (ISO 8601, UTC). */
  created!: string;
}

export class CreatedInstanceDto extends InstanceDetailDto {
  /** The instance's own API key. Shown only in this response: store it now. */
  apiKey!: string;
}

export class InstancePageDto {
  items!: InstanceDetailDto[];
  /** Instances matching the filter, over all pages. */
  totalCount!: number;
  pageNumber!: number;
  pageSize!: number;
}
