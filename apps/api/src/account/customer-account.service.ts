import { Injectable } from '@nestjs/common';
import { AppError, type CustomerScope } from '@app/contracts';
import { CustomerRepository } from '@app/database';
import { issueApiKey, maskProxyUrl, maskSecret, newId, secretWrite } from '@app/security';
import { KeyResolver } from '../auth/key-resolver';
import type { CustomerDefaultsDto } from './dto/customer-defaults.dto';
import { MASKED_SECRET_RULE } from './masked-secret-rule';
import { ProxySettings } from './proxy-settings';
import { WebhookTargets } from './webhook-targets';
import { EventSinkSettingsWriter, toEventSinkView } from './event-sink-settings';

@Injectable()
export class CustomerAccountService {
  constructor(
    private readonly customers: CustomerRepository,
    private readonly keys: KeyResolver,
    private readonly webhooks: WebhookTargets,
    private readonly proxies: ProxySettings,
    private readonly sinks: EventSinkSettingsWriter,
  ) {}

  async getDefaults(scope: CustomerScope): Promise<CustomerDefaultsDto> {
    const defaults = await this.customers.getDefaults(scope);
    return {
      ...defaults,
      defaultWebhookUrl: defaults.defaultWebhookUrl ?? '',
      defaultSigningSecret: maskSecret(defaults.defaultSigningSecret),
      defaultProxyUrl: maskProxyUrl(defaults.defaultProxyUrl),
      defaultEventSink: toEventSinkView(defaults.defaultEventSink),
    };
  }

  async updateDefaults(scope: CustomerScope, dto: CustomerDefaultsDto): Promise<void> {
    await this.webhooks.assertAllowed('defaultWebhookUrl', dto.defaultWebhookUrl);
    const current = await this.customers.getDefaults(scope);
    const stored = current.defaultSigningSecret;
    const sink = await this.sinks.toStored('defaultEventSink', dto.defaultEventSink, current.defaultEventSink);
    const secret = secretWrite(dto.defaultSigningSecret, stored);
    if (secret.kind === 'invalid') throw AppError.validation(MASKED_SECRET_RULE('defaultSigningSecret'));
    const proxyUrl = await this.proxies.toStored('defaultProxyUrl', dto.defaultProxyUrl, current.defaultProxyUrl);
    await this.customers.updateDefaults(scope, {
      defaultWebhookUrl: dto.defaultWebhookUrl || null,
      defaultSigningSecret: secret.kind === 'keep' ? stored : secret.value || null,
      defaultEventFilters: [...new Set(dto.defaultEventFilters)],
      defaultHistorySync: dto.defaultHistorySync,
      defaultPullMode: dto.defaultPullMode,
      defaultProxyUrl: proxyUrl === undefined ? current.defaultProxyUrl : proxyUrl,
      defaultEventSink: sink === undefined ? current.defaultEventSink : sink,
    });
    await this.webhooks.changed({ customerId: scope.customerId });
    if (proxyUrl !== undefined && proxyUrl !== current.defaultProxyUrl) await this.proxies.changed({ customerId: scope.customerId });
  }

  /** The dashboard's "rotate" action: the old key is invalid on every replica before this returns. */
  async rotateKey(scope: CustomerScope): Promise<string> {
    const key = issueApiKey('customer');
    const revoked = await this.customers.replaceKey(scope, { id: newId('key'), hash: key.hash, prefix: key.prefix });
    await this.keys.revokeKeyHashes(revoked);
    return key.key;
  }
}
