import type { InstanceRecord } from '@app/database';
import { maskSecret } from '@app/security';
import type { InstanceDetailDto, InstanceSettingsDto } from './dto/instance-detail.dto';
import { toEventSinkView } from './event-sink-settings';

export function toSettingsDto(record: InstanceRecord): InstanceSettingsDto {
  const { settings } = record;
  return {
    useCustomDefaults: settings.useCustomDefaults,
    pullMode: settings.pullMode,
    webhookUrl: settings.webhookUrl ?? '',
    eventSigningSecret: maskSecret(settings.eventSigningSecret),
    historySync: settings.historySync,
    eventFilters: settings.eventFilters,
    eventSink: toEventSinkView(settings.eventSink),
  };
}

export function toInstanceDetail(record: InstanceRecord): InstanceDetailDto {
  return {
    id: record.id,
    name: record.name,
    hasApiKey: record.hasApiKey,
    sandbox: record.sandbox,
    settings: toSettingsDto(record),
    status: record.status,
    deviceId: record.deviceId ?? '',
    created: record.createdAt.toISOString(),
  };
}
