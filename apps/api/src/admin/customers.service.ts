import { Injectable } from '@nestjs/common';
import { AppError } from '@app/contracts';
import { CustomerRepository, type CustomerRecord } from '@app/database';
import { issueApiKey, newId } from '@app/security';
import { pageWindow } from '../common/page-query.dto';
import { LinkIssuer } from '../dashboard/link-issuer';
import { TenantLimits } from '../limits/tenant-limits';
import type { CustomerLimitsDto, UpdateCustomerLimitsDto } from './dto/customer-limits.dto';
import type { CreateCustomerDto, CreatedCustomerDto, CustomerPageDto, CustomerSummaryDto, ListCustomersQueryDto } from './dto/customer.dto';

export function toCustomerSummary(customer: CustomerRecord): CustomerSummaryDto {
  return { id: customer.id, name: customer.name, created: customer.createdAt.toISOString(), disabled: customer.disabledAt !== null };
}

@Injectable()
export class CustomersService {
  constructor(
    private readonly customers: CustomerRepository,
    private readonly links: LinkIssuer,
    private readonly tenantLimits: TenantLimits,
  ) {}

  /** With `ownerEmail`, the first dashboard user is created in the same commit and its invite link returned (once). */
  async create(dto: CreateCustomerDto, request?: Parameters<LinkIssuer['url']>[1]): Promise<CreatedCustomerDto> {
    const key = issueApiKey('customer');
    const invite = dto.ownerEmail ? this.links.issue('invite') : undefined;
    const customer = await this.customers.createWithKey(
      { id: newId('cus'), name: dto.name.trim() },
      { id: newId('key'), hash: key.hash, prefix: key.prefix },
      invite && dto.ownerEmail ? { user: { id: newId('usr'), email: dto.ownerEmail }, link: invite.record } : undefined,
    );
    if (customer === 'email_taken') throw new AppError('email_taken');
    return {
      id: customer.id,
      name: customer.name,
      apiKey: key.key,
      ...(invite ? { ownerInvite: { url: this.links.url(invite.token, request), expiresAt: invite.record.expiresAt.toISOString() } } : {}),
    };
  }

  async list(query: ListCustomersQueryDto): Promise<CustomerPageDto> {
    const { pageNumber, pageSize, skip } = pageWindow(query);
    const page = await this.customers.list(skip, pageSize, query.order ?? 'asc');
    return { items: page.items.map(toCustomerSummary), totalCount: page.totalCount, pageNumber, pageSize };
  }

  async limits(id: string): Promise<CustomerLimitsDto> {
    const limits = await this.tenantLimits.forCustomer(id);
    if (!limits) throw new AppError('not_found');
    return { ...limits.effective, overrides: limits.overrides };
  }

  async setLimits(id: string, dto: UpdateCustomerLimitsDto): Promise<CustomerLimitsDto> {
    const current = await this.tenantLimits.forCustomer(id);
    if (!current) throw new AppError('not_found');
    const overrides = {
      maxInstances: dto.maxInstances === undefined ? current.overrides.maxInstances : dto.maxInstances,
      maxStreamsPerInstance: dto.maxStreamsPerInstance === undefined ? current.overrides.maxStreamsPerInstance : dto.maxStreamsPerInstance,
    };
    if (!(await this.customers.setLimitOverrides(id, overrides))) throw new AppError('not_found');
    return this.limits(id);
  }
}
