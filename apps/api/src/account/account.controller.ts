import type { ServerResponse } from 'node:http';
import { Body, Controller, Delete, Get, HttpCode, Param, Post, Put, Query, Res } from '@nestjs/common';
import { ApiCreatedResponse, ApiNoContentResponse, ApiOkResponse, ApiOperation, ApiTags } from '@nestjs/swagger';
import type { CustomerScope } from '@app/contracts';
import { CustomerAuth } from '../auth/auth.decorators';
import { CurrentScope } from '../auth/scope';
import { ApiErrors } from '../common/api-errors.decorator';
import { EncodedJsonResponse, JsonStringResponse } from '../common/json-string.decorator';
import { CustomerAccountService } from './customer-account.service';
import { CustomerDefaultsDto } from './dto/customer-defaults.dto';
import { PacingDto } from './dto/pacing.dto';
import { CreatedInstanceDto, InstanceDetailDto, InstancePageDto } from './dto/instance-detail.dto';
import { CreateInstanceDto, ListInstancesQueryDto, RenameInstanceDto, UpdateInstanceSettingsDto } from './dto/instance-requests.dto';
import { InstanceStatusStreams } from './instance-status-streams';
import { InstancesService } from './instances.service';
import { WebhookTestResultDto } from './dto/webhook-test.dto';
import { WebhookTestService } from './webhook-test.service';

const STATUS_STREAM_EXAMPLE =
  'data: {"instanceId":"ins_…","status":"pairing","deviceId":"","updatedAt":"2026-01-01T00:00:00.000Z"}\n\n' +
  'data: {"instanceId":"ins_…","status":"connected","deviceId":"15551234567:12@s.whatsapp.net","updatedAt":"…"}\n\n: keep-alive\n\n';

/** Self-service account plane: the customer key only, no X-Instance-Id. */
@ApiTags('Account')
@CustomerAuth()
@Controller('account')
export class AccountController {
  constructor(
    private readonly instances: InstancesService,
    private readonly account: CustomerAccountService,
    private readonly statusStreams: InstanceStatusStreams,
    private readonly webhookTests: WebhookTestService,
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
  @EncodedJsonResponse(InstancePageDto)
  @ApiErrors(400)
  list(@CurrentScope() scope: CustomerScope, @Query() query: ListInstancesQueryDto): Promise<string> {
    return this.instances.listJson(scope, query);
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

  @Get('instances/stream')
  @ApiOperation({
    summary: "Streams the live status of the customer's instances (Server-Sent Events)",
    description:
      'A `text/event-stream` that stays open: first one message per instance with its current status, then one ' +
      'message whenever an instance changes status or device (pushed by the worker through Redis, so a change arrives ' +
      'within moments). Each message is `data: {"instanceId","status","deviceId","updatedAt"}` and a blank line; a ' +
      '`: keep-alive` comment comes every 15 seconds.',
  })
  @ApiOkResponse({
    description: 'The status stream',
    content: { 'text/event-stream': { schema: { type: 'string' }, example: STATUS_STREAM_EXAMPLE } },
  })
  statusStream(@CurrentScope() scope: CustomerScope, @Res() response: ServerResponse): Promise<void> {
    return this.statusStreams.open(scope, response);
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

  /**
   * Sends a signed `test` event now to the instance's effective webhook URL (its own, or the customer default it
   * follows) and reports the receiver's answer. Nothing is stored or retried.
   */
  @Post('instances/:id/webhook/test')
  @HttpCode(200)
  @ApiOkResponse({ type: WebhookTestResultDto })
  @ApiErrors(400, 404)
  testWebhook(@CurrentScope() scope: CustomerScope, @Param('id') id: string): Promise<WebhookTestResultDto> {
    return this.webhookTests.send(scope, id);
  }

  /** Rotates the customer key: the old key stops working at once on every replica. */
  @Post('apikey/rotate')
  @HttpCode(200)
  @JsonStringResponse('the new customer API key')
  rotateKey(@CurrentScope() scope: CustomerScope): Promise<string> {
    return this.account.rotateKey(scope);
  }
}
