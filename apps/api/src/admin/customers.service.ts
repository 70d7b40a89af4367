import { Injectable } from '@nestjs/common';
import { CustomerRepository } from '@app/database';
import { issueApiKey, newId } from '@app/security';
import { pageWindow } from '../common/page-query.dto';
import type { CreateCustomerDto, CreatedCustomerDto, CustomerPageDto, ListCustomersQueryDto } from './dto/customer.dto';

@Injectable()
export class CustomersService {
  constructor(private readonly customers: CustomerRepository) {}

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
}
