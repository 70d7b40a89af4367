import { ApiExtraModels, ApiProperty, getSchemaPath } from '@nestjs/swagger';
import { EVENT_TYPES, INSTANCE_STATUSES, type InstanceStatus } from '@app/contracts';
import { PROXY_FAILURE_REASONS } from '@app/security';
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
  /**
   * The outbound proxy, password masked (`http://alice:…@proxy.example:3128`); empty when none is set. Sending the
   * masked value back keeps it.
   * @example "socks5://alice:…@proxy.example:1080"
   */
  proxyUrl!: string;
  /** The message broker that receives the events as well (password masked); null when none. */
  @ApiProperty({ allOf: [{ $ref: getSchemaPath(EventSinkSettingsDto) }], nullable: true })
  eventSink!: EventSinkSettingsDto | null;
}

/**
 * `GET /instance/settings`: the instance's settings and its name. Clients of the same contract family (the family's
 * official SDKs) read and write the name with the settings; `PUT /instance/settings` accepts it back.
 */
export class InstanceOwnSettingsDto extends InstanceSettingsDto {
  /** The instance's name, as in the instance detail. */
  name!: string;
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
  /**
   * Why the instance is in its status when its proxy put it there: `proxy_unreachable` (no answer, connection refused),
   * `proxy_auth_failed` (credentials refused) or `proxy_refused` (the proxy would not open the tunnel); empty otherwise.
   * The `instance_connection` event reports the same.
   */
  @ApiProperty({ enum: ['', ...PROXY_FAILURE_REASONS] })
  statusReason!: string;
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
