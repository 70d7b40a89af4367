import { Inject, Injectable } from '@nestjs/common';
import { APP_CONFIG, type AppConfig } from '@app/config';
import { AppError, isMaskedBrokerUrl, isPaired, liveStatusKey, shardOf, type CustomerScope, type InstanceScope } from '@app/contracts';
import { InstanceRepository, type InstanceSettings } from '@app/database';
import { CommandClient, RedisService } from '@app/redis';
import { issueApiKey, isMaskedSecret, newId, secretWrite } from '@app/security';
import { KeyResolver } from '../auth/key-resolver';
import { pageWindow } from '../common/page-query.dto';
import { MASKED_SECRET_RULE } from './masked-secret-rule';
import type { CreatedInstanceDto, InstanceDetailDto, InstanceOwnSettingsDto, InstancePageDto } from './dto/instance-detail.dto';
import type { CreateInstanceDto, ListInstancesQueryDto, RenameInstanceDto, UpdateInstanceSettingsDto } from './dto/instance-requests.dto';
import type { PacingDto } from './dto/pacing.dto';
import { toInstanceDetail, toOwnSettingsDto } from './instance-detail.mapper';
import { InstanceListCache } from './instance-list-cache';
import { ProxySettings } from './proxy-settings';
import { WebhookTargets } from './webhook-targets';
import { EventSinkSettingsWriter } from './event-sink-settings';

/** Converts the API's empty-string "unset" into storage's null (the proxy URL and the sink are the caller's). */
export function toStoredSettings(dto: Omit<UpdateInstanceSettingsDto, 'name'>): Partial<InstanceSettings> {
  const { webhookUrl, eventSigningSecret, eventFilters, proxyUrl: _proxyUrl, eventSink: _sink, ...flags } = dto;
  return {
    ...flags,
    ...(webhookUrl !== undefined ? { webhookUrl: webhookUrl || null } : {}),
    ...(eventSigningSecret !== undefined ? { eventSigningSecret: eventSigningSecret || null } : {}),
    ...(eventFilters !== undefined ? { eventFilters: [...new Set(eventFilters)] } : {}),
  };
}

@Injectable()
export class InstancesService {
  constructor(
    @Inject(APP_CONFIG) private readonly config: AppConfig,
    private readonly instances: InstanceRepository,
    private readonly keys: KeyResolver,
    private readonly commands: CommandClient,
    private readonly redis: RedisService,
    private readonly webhooks: WebhookTargets,
    private readonly listCache: InstanceListCache,
    private readonly proxies: ProxySettings,
    private readonly sinks: EventSinkSettingsWriter,
  ) {}

  async create(scope: CustomerScope, dto: CreateInstanceDto): Promise<CreatedInstanceDto> {
    const sandbox = dto.sandbox ?? false;
    if (sandbox && !this.config.sandboxEnabled) throw AppError.validation('sandbox is disabled on this server');
    const id = newId('ins');
    const key = issueApiKey('instance');
    const name = dto.name?.trim() ?? `instance-${id.slice(4, 10)}`;
    const created = await this.instances.createWithinLimit(
      scope,
      { id, name, shard: shardOf(id, this.config.shardCount), sandbox, apiKey: key },
      this.config.tenantLimits.maxInstancesPerCustomer,
    );
    if ('limit' in created) {
      throw AppError.forbidden(
        `instance limit reached: this account may have at most ${created.limit} instances; delete one, or ask the operator to raise the limit`,
      );
    }
    return { ...toInstanceDetail(created), apiKey: key.key };
  }

  async get(scope: CustomerScope, id: string): Promise<InstanceDetailDto> {
    return toInstanceDetail(await this.require(scope, id));
  }

  async getSettings(scope: InstanceScope): Promise<InstanceOwnSettingsDto> {
    return toOwnSettingsDto(await this.require(scope, scope.instanceId));
  }

  /**
   * The page as JSON, already encoded: served from the list cache while the customer's instances are unchanged since it
   * was read (one single-row query), else read and cached anew.
   */
  async listJson(scope: CustomerScope, query: ListInstancesQueryDto): Promise<string> {
    const { pageNumber, pageSize, skip } = pageWindow(query);
    const key = InstanceListCache.keyOf({ customerId: scope.customerId, status: query.status, pageNumber, pageSize });
    const cached = this.listCache.peek(key);
    if (cached && cached.version === (await this.instances.listVersion(scope))) return cached.body;
    const page = await this.instances.list(scope, skip, pageSize, query.status);
    const body = JSON.stringify({
      items: page.items.map(toInstanceDetail),
      totalCount: page.totalCount,
      pageNumber,
      pageSize,
    } satisfies InstancePageDto);
    if (page.version !== null) this.listCache.store(key, page.version, body);
    return body;
  }

  async rename(scope: CustomerScope, id: string, dto: RenameInstanceDto): Promise<void> {
    if (!(await this.instances.rename(scope, id, dto.name.trim()))) throw new AppError('not_found');
  }

  async updateSettings(scope: CustomerScope, id: string, dto: UpdateInstanceSettingsDto): Promise<void> {
    await this.webhooks.assertAllowed('webhookUrl', dto.webhookUrl);
    const current = await this.require(scope, id);
    const proxyUrl = await this.proxies.toStored('proxyUrl', dto.proxyUrl, current.settings.proxyUrl);
    const eventSink = await this.sinks.toStored(
      'eventSink',
      dto.eventSink,
      dto.eventSink && isMaskedBrokerUrl(dto.eventSink.url) ? current.settings.eventSink : null,
    );
    const { name, ...rest } = await this.withoutEchoedSecret(scope, id, dto);
    const settings = { ...toStoredSettings(rest), eventSink };
    if (proxyUrl !== undefined) settings.proxyUrl = proxyUrl;
    if (!(await this.instances.updateSettings(scope, id, settings, name?.trim()))) throw new AppError('not_found');
    await this.webhooks.changed({ instanceId: id });
    const proxyChanged = proxyUrl !== undefined && proxyUrl !== current.settings.proxyUrl;
    const followingChanged = dto.useCustomDefaults !== undefined && dto.useCustomDefaults !== current.settings.useCustomDefaults;
    if (proxyChanged || followingChanged) await this.proxies.changed({ instanceId: id });
  }

  /** Issues a new instance key; the previous one stops working on every replica at once. */
  async regenerateKey(scope: CustomerScope, id: string): Promise<string> {
    const key = issueApiKey('instance');
    const previous = await this.instances.replaceApiKey(scope, id, key);
    if (previous === undefined) throw new AppError('not_found');
    if (previous) await this.keys.revokeKeyHashes([previous]);
    return key.key;
  }

  async pacing(scope: CustomerScope, id: string): Promise<PacingDto> {
    const minIntervalMs = await this.instances.sendInterval(scope, id);
    if (minIntervalMs === undefined) throw new AppError('not_found');
    return { minIntervalMs };
  }

  /** Takes effect from the instance's next batch of sends. */
  async setPacing(scope: CustomerScope, id: string, dto: PacingDto): Promise<void> {
    if (!(await this.instances.setSendInterval(scope, id, dto.minIntervalMs))) throw new AppError('not_found');
  }

  /** Closes and reopens the instance's network session on its owning worker. */
  async restart(scope: CustomerScope, id: string): Promise<void> {
    await this.require(scope, id);
    await this.commands.request(id, 'session.restart', {});
  }

  /** Unlinks a paired device first, so deleting never leaves a linked device behind on the phone. */
  async delete(scope: CustomerScope, id: string): Promise<void> {
    const record = await this.require(scope, id);
    if (isPaired(record.status)) await this.commands.request(id, 'session.logout', {});
    const keyHash = await this.instances.delete(scope, id);
    if (keyHash === undefined) throw new AppError('not_found');
    if (keyHash) await this.keys.revokeKeyHashes([keyHash]);
    await this.keys.forgetInstance(id);
    await this.redis.client.del(liveStatusKey(this.config.queuePrefix, id));
  }

  /** Settings read back and sent unchanged carry the masked secret: that keeps the stored one rather than replacing it. */
  private async withoutEchoedSecret(scope: CustomerScope, id: string, dto: UpdateInstanceSettingsDto): Promise<UpdateInstanceSettingsDto> {
    if (dto.eventSigningSecret === undefined || !isMaskedSecret(dto.eventSigningSecret)) return dto;
    const stored = (await this.require(scope, id)).settings.eventSigningSecret;
    if (secretWrite(dto.eventSigningSecret, stored).kind !== 'keep') throw AppError.validation(MASKED_SECRET_RULE('eventSigningSecret'));
    const { eventSigningSecret: _kept, ...rest } = dto;
    return rest;
  }

  private async require(scope: CustomerScope, id: string) {
    const record = await this.instances.find(scope, id);
    if (!record) throw new AppError('not_found');
    return record;
  }
}
