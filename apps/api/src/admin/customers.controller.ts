import { Body, Controller, Get, Param, Post, Put, Query } from '@nestjs/common';
import { ApiCreatedResponse, ApiOkResponse, ApiTags } from '@nestjs/swagger';
import { AdminAuth } from '../auth/auth.decorators';
import { ApiErrors } from '../common/api-errors.decorator';
import { CustomersService } from './customers.service';
import { CreateCustomerDto, CreatedCustomerDto, CustomerPageDto, ListCustomersQueryDto } from './dto/customer.dto';
import { CustomerLimitsDto, UpdateCustomerLimitsDto } from './dto/customer-limits.dto';

/** Operator endpoints (X-Admin-Key from the server configuration). */
@ApiTags('Admin')
@AdminAuth()
@Controller('admin/customers')
export class CustomersController {
  constructor(private readonly customers: CustomersService) {}

  /** Creates a customer and its API key (shown once). */
  @Post()
  @ApiCreatedResponse({ type: CreatedCustomerDto })
  @ApiErrors(400)
  create(@Body() dto: CreateCustomerDto): Promise<CreatedCustomerDto> {
    return this.customers.create(dto);
  }

  /** Lists customers, oldest first. */
  @Get()
  @ApiOkResponse({ type: CustomerPageDto })
  @ApiErrors(400)
  list(@Query() query: ListCustomersQueryDto): Promise<CustomerPageDto> {
    return this.customers.list(query);
  }

  /** The abuse limits that apply to the customer (instances, event streams per instance) and the operator's overrides. */
  @Get(':id/limits')
  @ApiOkResponse({ type: CustomerLimitsDto })
  @ApiErrors(404)
  limits(@Param('id') id: string): Promise<CustomerLimitsDto> {
    return this.customers.limits(id);
  }

  /** Overrides the server-wide limits for one customer; `null` returns a field to the server default. */
  @Put(':id/limits')
  @ApiOkResponse({ type: CustomerLimitsDto })
  @ApiErrors(400, 404)
  setLimits(@Param('id') id: string, @Body() dto: UpdateCustomerLimitsDto): Promise<CustomerLimitsDto> {
    return this.customers.setLimits(id, dto);
  }
}
