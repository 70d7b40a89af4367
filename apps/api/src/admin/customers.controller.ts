import { Body, Controller, Get, Param, Post, Put, Query, Req } from '@nestjs/common';
import { ApiCreatedResponse, ApiOkResponse, ApiTags } from '@nestjs/swagger';
import type { Request } from 'express';
import { AdminAuth } from '../auth/auth.decorators';
import { ApiErrors } from '../common/api-errors.decorator';
import { OneTimeLinkDto, TeamMemberDto } from '../dashboard/dto/dashboard.dto';
import { CustomersService } from './customers.service';
import {
  CreateCustomerDto,
  CreatedCustomerDto,
  CustomerPageDto,
  CustomerSummaryDto,
  ListCustomersQueryDto,
  OverviewDto,
  SetDisabledDto,
} from './dto/customer.dto';
import { OperatorService } from './operator.service';
import { CustomerLimitsDto, UpdateCustomerLimitsDto } from './dto/customer-limits.dto';

/** Operator endpoints (X-Admin-Key from the server configuration). */
@ApiTags('Admin')
@AdminAuth()
@Controller('admin')
export class CustomersController {
  constructor(
    private readonly customers: CustomersService,
    private readonly operator: OperatorService,
  ) {}

  /** Creates a customer and its API key (shown once); with `ownerEmail`, also its first dashboard user and their invite link. */
  @Post('customers')
  @ApiCreatedResponse({ type: CreatedCustomerDto })
  @ApiErrors(400, 409)
  create(@Body() dto: CreateCustomerDto, @Req() request: Request): Promise<CreatedCustomerDto> {
    return this.customers.create(dto, request);
  }

  /** Lists customers, oldest first. */
  @Get('customers')
  @ApiOkResponse({ type: CustomerPageDto })
  @ApiErrors(400)
  list(@Query() query: ListCustomersQueryDto): Promise<CustomerPageDto> {
    return this.customers.list(query);
  }

  /** The customer's dashboard users. */
  @Get('customers/:id/users')
  @ApiOkResponse({ type: TeamMemberDto, isArray: true })
  @ApiErrors(404)
  users(@Param('id') id: string): Promise<TeamMemberDto[]> {
    return this.operator.listUsers(id);
  }

  /** "Forgot password": a fresh one-time link for the user, shown only in this response. */
  @Post('customers/:id/users/:userId/password-reset')
  @ApiCreatedResponse({ type: OneTimeLinkDto })
  @ApiErrors(404)
  passwordReset(@Param('id') id: string, @Param('userId') userId: string, @Req() request: Request): Promise<OneTimeLinkDto> {
    return this.operator.passwordReset(id, userId, request);
  }

  /** Disables (or re-enables) a customer: its keys and dashboard sessions are refused with 403 while disabled. */
  @Put('customers/:id/disabled')
  @ApiOkResponse({ type: CustomerSummaryDto })
  @ApiErrors(400, 404)
  setDisabled(@Param('id') id: string, @Body() dto: SetDisabledDto): Promise<CustomerSummaryDto> {
    return this.operator.setDisabled(id, dto.disabled);
  }

  /** Workers, shard ownership and instance counts. */
  @Get('overview')
  @ApiOkResponse({ type: OverviewDto })
  overview(): Promise<OverviewDto> {
    return this.operator.overview();
  }

  /** The abuse limits that apply to the customer (instances, event streams per instance) and the operator's overrides. */
  @Get('customers/:id/limits')
  @ApiOkResponse({ type: CustomerLimitsDto })
  @ApiErrors(404)
  limits(@Param('id') id: string): Promise<CustomerLimitsDto> {
    return this.customers.limits(id);
  }

  /** Overrides the server-wide limits for one customer; `null` returns a field to the server default. */
  @Put('customers/:id/limits')
  @ApiOkResponse({ type: CustomerLimitsDto })
  @ApiErrors(400, 404)
  setLimits(@Param('id') id: string, @Body() dto: UpdateCustomerLimitsDto): Promise<CustomerLimitsDto> {
    return this.customers.setLimits(id, dto);
  }
}
