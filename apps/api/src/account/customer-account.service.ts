import { Injectable } from '@nestjs/common';
import type { CustomerScope } from '@app/contracts';
import { CustomerRepository } from '@app/database';
import { issueApiKey, newId } from '@app/security';
import { KeyResolver } from '../auth/key-resolver.service';
import type { CustomerDefaultsDto } from './dto/customer-defaults.dto';
import { WebhookTargets } from './webhook-targets';

@Injectable()
export class CustomerAccountService {
  constructor(
    private readonly customers: CustomerRepository,
    private readonly keys: KeyResolver,
    private readonly webhooks: WebhookTargets,
  ) {}

  async getDefaults(scope: CustomerScope): Promise<CustomerDefaultsDto> {
    const defaults = await this.customers.getDefaults(scope);
    return { ...defaults, defaultWebhookUrl: defaults.defaultWebhookUrl ?? '', defaultSigningSecret: defaults.defaultSigningSecret ?? '' };
  }

  async updateDefaults(scope: CustomerScope, dto: CustomerDefaultsDto): Promise<void> {
    await this.webhooks.assertAllowed('defaultWebhookUrl', dto.defaultWebhookUrl);
    await this.customers.updateDefaults(scope, {
      defaultWebhookUrl: dto.defaultWebhookUrl || null,
      defaultSigningSecret: dto.defaultSigningSecret || null,
      defaultEventFilters: [...new Set(dto.defaultEventFilters)],
      defaultHistorySync: dto.defaultHistorySync,
      defaultPullMode: dto.defaultPullMode,
    });
    await this.webhooks.changed({ customerId: scope.customerId });
  }

  /** The dashboard's "rotate" action: the old key is invalid on every replica before this returns. */
  async rotateKey(scope: CustomerScope): Promise<string> {
    const key = issueApiKey('customer');
    const revoked = await this.customers.replaceKey(scope, { id: newId('key'), hash: key.hash, prefix: key.prefix });
    await this.keys.revokeKeyHashes(revoked);
    return key.key;
  }
}
