import { Body, Controller, Get, HttpCode, Put } from '@nestjs/common';
import { ApiNoContentResponse, ApiOkResponse, ApiTags } from '@nestjs/swagger';
import type { InstanceScope } from '@app/contracts';
import { InstanceOwnSettingsDto } from '../account/dto/instance-detail.dto';
import { UpdateInstanceSettingsDto } from '../account/dto/instance-requests.dto';
import { InstancesService } from '../account/instances.service';
import { InstanceAuth } from '../auth/auth.decorators';
import { CurrentScope } from '../auth/scope';
import { ApiErrors } from '../common/api-errors.decorator';
import { JsonStringResponse } from '../common/json-string.decorator';

/** The instance-scoped view of the instance record (customer key or the instance's own key). */
@ApiTags('Instance')
@InstanceAuth()
@Controller('instance')
export class InstanceController {
  constructor(private readonly instances: InstancesService) {}

  /** The instance's own stored settings, and its name. */
  @Get('settings')
  @ApiOkResponse({ type: InstanceOwnSettingsDto })
  getSettings(@CurrentScope() scope: InstanceScope): Promise<InstanceOwnSettingsDto> {
    return this.instances.getSettings(scope);
  }

  /** Changes the instance's settings (and its name, when given); fields left out keep their value. */
  @Put('settings')
  @HttpCode(204)
  @ApiNoContentResponse({ description: 'settings updated' })
  @ApiErrors(400)
  updateSettings(@CurrentScope() scope: InstanceScope, @Body() dto: UpdateInstanceSettingsDto): Promise<void> {
    return this.instances.updateSettings(scope, scope.instanceId, dto);
  }

  /** Restarts the instance's network session. */
  @Put('restart')
  @HttpCode(204)
  @ApiNoContentResponse({ description: 'restarted' })
  @ApiErrors(503)
  restart(@CurrentScope() scope: InstanceScope): Promise<void> {
    return this.instances.restart(scope, scope.instanceId);
  }

  /** Issues a new instance key; the previous instance key stops working at once. */
  @Put('apikey')
  @JsonStringResponse('the new instance API key')
  regenerateKey(@CurrentScope() scope: InstanceScope): Promise<string> {
    return this.instances.regenerateKey(scope, scope.instanceId);
  }
}
