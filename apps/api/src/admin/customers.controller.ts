import { Body, Controller, Get, Post, Query } from '@nestjs/common';
import { ApiCreatedResponse, ApiOkResponse, ApiTags } from '@nestjs/swagger';
import { AdminAuth } from '../auth/auth.decorators';
import { ApiErrors } from '../common/api-errors.decorator';
import { CustomersService } from './customers.service';
import { CreateCustomerDto, CreatedCustomerDto, CustomerPageDto, ListCustomersQueryDto } from './dto/customer.dto';

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
}
