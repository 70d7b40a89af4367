import type { InstanceRecord } from '@app/database';
import { maskProxyUrl, maskSecret } from '@app/security';
import type { InstanceDetailDto, InstanceOwnSettingsDto, InstanceSettingsDto } from './dto/instance-detail.dto';
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
    proxyUrl: maskProxyUrl(settings.proxyUrl),
    eventSink: toEventSinkView(settings.eventSink),
  };
}

export function toOwnSettingsDto(record: InstanceRecord): InstanceOwnSettingsDto {
  return { name: record.name, ...toSettingsDto(record) };
}

export function toInstanceDetail(record: InstanceRecord): InstanceDetailDto {
  return {
    id: record.id,
    name: record.name,
    hasApiKey: record.hasApiKey,
    sandbox: record.sandbox,
    settings: toSettingsDto(record),
    status: record.status,
    statusReason: record.statusReason ?? '',
    deviceId: record.deviceId ?? '',
    created: record.createdAt.toISOString(),
  };
}
