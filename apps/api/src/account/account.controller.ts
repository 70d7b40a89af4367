import { Body, Controller, Delete, Get, HttpCode, Param, Post, Put, Query } from '@nestjs/common';
import { ApiCreatedResponse, ApiNoContentResponse, ApiOkResponse, ApiTags } from '@nestjs/swagger';
import type { CustomerScope } from '@app/contracts';
import { CustomerAuth } from '../auth/auth.decorators';
import { CurrentScope } from '../auth/scope';
import { ApiErrors } from '../common/api-errors.decorator';
import { JsonStringResponse } from '../common/json-string.decorator';
import { CustomerAccountService } from './customer-account.service';
import { CustomerDefaultsDto } from './dto/customer-defaults.dto';
import { PacingDto } from './dto/pacing.dto';
import { CreatedInstanceDto, InstanceDetailDto, InstancePageDto } from './dto/instance-detail.dto';
import { CreateInstanceDto, ListInstancesQueryDto, RenameInstanceDto, UpdateInstanceSettingsDto } from './dto/instance-requests.dto';
import { InstancesService } from './instances.service';

/** Self-service account plane: the customer key only, no X-Instance-Id. */
@ApiTags('Account')
@CustomerAuth()
@Controller('account')
export class AccountController {
  constructor(
    private readonly instances: InstancesService,
    private readonly account: CustomerAccountService,
  ) {}

  /**
   * Creates an instance. Its own API key is in this response only. 403 once the account has its limit of instances
   * (`MAX_INSTANCES_PER_CUSTOMER`, or the operator's override for this customer).
   */
  @Post('instances')
  @ApiCreatedResponse({ type: CreatedInstanceDto })
  @ApiErrors(400, 403)
  create(@CurrentScope() scope: CustomerScope, @Body() dto: CreateInstanceDto): Promise<CreatedInstanceDto> {
    return this.instances.create(scope, dto);
  }

  /** Lists the customer's instances, oldest first. */
  @Get('instances')
  @ApiOkResponse({ type: InstancePageDto })
  @ApiErrors(400)
  list(@CurrentScope() scope: CustomerScope, @Query() query: ListInstancesQueryDto): Promise<InstancePageDto> {
    return this.instances.list(scope, query);
  }

  /** The customer-level defaults. */
  @Get('instances/defaults')
  @ApiOkResponse({ type: CustomerDefaultsDto })
  getDefaults(@CurrentScope() scope: CustomerScope): Promise<CustomerDefaultsDto> {
    return this.account.getDefaults(scope);
  }

  /** Replaces the customer-level defaults (all five fields). */
  @Put('instances/defaults')
  @HttpCode(204)
  @ApiNoContentResponse({ description: 'defaults updated' })
  @ApiErrors(400)
  updateDefaults(@CurrentScope() scope: CustomerScope, @Body() dto: CustomerDefaultsDto): Promise<void> {
    return this.account.updateDefaults(scope, dto);
  }

  /** Full instance information including settings. */
  @Get('instances/:id')
  @ApiOkResponse({ type: InstanceDetailDto })
  @ApiErrors(404)
  get(@CurrentScope() scope: CustomerScope, @Param('id') id: string): Promise<InstanceDetailDto> {
    return this.instances.get(scope, id);
  }

  /** Issues a new instance API key; the previous one is invalid immediately. */
  @Put('instances/:id/apikey')
  @JsonStringResponse('the new instance API key')
  @ApiErrors(400, 404)
  regenerateKey(@CurrentScope() scope: CustomerScope, @Param('id') id: string): Promise<string> {
    return this.instances.regenerateKey(scope, id);
  }

  @Put('instances/:id/name')
  @HttpCode(204)
  @ApiNoContentResponse({ description: 'renamed' })
  @ApiErrors(400, 404)
  rename(@CurrentScope() scope: CustomerScope, @Param('id') id: string, @Body() dto: RenameInstanceDto): Promise<void> {
    return this.instances.rename(scope, id, dto);
  }

  /** Changes the instance's own settings; fields left out keep their value. */
  @Put('instances/:id/settings')
  @HttpCode(204)
  @ApiNoContentResponse({ description: 'settings updated' })
  @ApiErrors(400, 404)
  updateSettings(@CurrentScope() scope: CustomerScope, @Param('id') id: string, @Body() dto: UpdateInstanceSettingsDto): Promise<void> {
    return this.instances.updateSettings(scope, id, dto);
  }

  /** The instance's anti-ban pacing. */
  @Get('instances/:id/pacing')
  @ApiOkResponse({ type: PacingDto })
  @ApiErrors(404)
  pacing(@CurrentScope() scope: CustomerScope, @Param('id') id: string): Promise<PacingDto> {
    return this.instances.pacing(scope, id);
  }

  /** Sets the least time between two sends of the instance (anti-ban pacing); 0 turns it off. */
  @Put('instances/:id/pacing')
  @HttpCode(204)
  @ApiNoContentResponse({ description: 'pacing updated' })
  @ApiErrors(400, 404)
  setPacing(@CurrentScope() scope: CustomerScope, @Param('id') id: string, @Body() dto: PacingDto): Promise<void> {
    return this.instances.setPacing(scope, id, dto);
  }

  /** Restarts the instance's network session. */
  @Put('instances/:id/restart')
  @HttpCode(204)
  @ApiNoContentResponse({ description: 'restarted' })
  @ApiErrors(404, 503)
  restart(@CurrentScope() scope: CustomerScope, @Param('id') id: string): Promise<void> {
    return this.instances.restart(scope, id);
  }

  /** Deletes the instance and its key; a paired device is logged out first. */
  @Delete('instances/:id')
  @HttpCode(204)
  @ApiNoContentResponse({ description: 'deleted' })
  @ApiErrors(404, 503)
  delete(@CurrentScope() scope: CustomerScope, @Param('id') id: string): Promise<void> {
    return this.instances.delete(scope, id);
  }

  /** Rotates the customer key: the old key stops working at once on every replica. */
  @Post('apikey/rotate')
  @HttpCode(200)
  @JsonStringResponse('the new customer API key')
  rotateKey(@CurrentScope() scope: CustomerScope): Promise<string> {
    return this.account.rotateKey(scope);
  }
}
