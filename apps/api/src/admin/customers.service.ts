import { Injectable } from '@nestjs/common';
import { AppError } from '@app/contracts';
import { CustomerRepository } from '@app/database';
import { issueApiKey, newId } from '@app/security';
import { pageWindow } from '../common/page-query.dto';
import { TenantLimits } from '../limits/tenant-limits.service';
import type { CustomerLimitsDto, UpdateCustomerLimitsDto } from './dto/customer-limits.dto';
import type { CreateCustomerDto, CreatedCustomerDto, CustomerPageDto, ListCustomersQueryDto } from './dto/customer.dto';

@Injectable()
export class CustomersService {
  constructor(
    private readonly customers: CustomerRepository,
    private readonly tenantLimits: TenantLimits,
  ) {}

  async create(dto: CreateCustomerDto): Promise<CreatedCustomerDto> {
    const key = issueApiKey('customer');
    const customer = await this.customers.createWithKey(
      { id: newId('cus'), name: dto.name.trim() },
      { id: newId('key'), hash: key.hash, prefix: key.prefix },
    );
    return { id: customer.id, name: customer.name, apiKey: key.key };
  }

  async list(query: ListCustomersQueryDto): Promise<CustomerPageDto> {
    const { pageNumber, pageSize, skip } = pageWindow(query);
    const page = await this.customers.list(skip, pageSize);
    return {
      items: page.items.map((customer) => ({ id: customer.id, name: customer.name, created: customer.createdAt.toISOString() })),
      totalCount: page.totalCount,
      pageNumber,
      pageSize,
    };
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
