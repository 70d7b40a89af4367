import { Inject, Injectable } from '@nestjs/common';
import { APP_CONFIG, type AppConfig } from '@app/config';
import { CustomerRepository, type CustomerLimitOverrides } from '@app/database';

export interface EffectiveLimits {
  maxInstances: number;
  maxStreamsPerInstance: number;
}

/** The abuse limits that apply to a customer: the operator's override where set, else the server-wide setting. */
@Injectable()
export class TenantLimits {
  constructor(
    @Inject(APP_CONFIG) private readonly config: AppConfig,
    private readonly customers: CustomerRepository,
  ) {}

  get defaults(): EffectiveLimits {
    const { maxInstancesPerCustomer, maxStreamsPerInstance } = this.config.tenantLimits;
    return { maxInstances: maxInstancesPerCustomer, maxStreamsPerInstance };
  }

  /** The overrides and what applies, or null when there is no such customer. */
  async forCustomer(customerId: string): Promise<{ overrides: CustomerLimitOverrides; effective: EffectiveLimits } | null> {
    const overrides = await this.customers.limitOverrides(customerId);
    if (!overrides) return null;
    return {
      overrides,
      effective: {
        maxInstances: overrides.maxInstances ?? this.defaults.maxInstances,
        maxStreamsPerInstance: overrides.maxStreamsPerInstance ?? this.defaults.maxStreamsPerInstance,
      },
    };
  }

  async maxStreamsPerInstance(customerId: string): Promise<number> {
    return (await this.forCustomer(customerId))?.effective.maxStreamsPerInstance ?? this.defaults.maxStreamsPerInstance;
  }
}
