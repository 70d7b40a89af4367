import { Body, Controller, Post } from '@nestjs/common';
import { ApiCreatedResponse, ApiTags } from '@nestjs/swagger';
import { AppError, type InstanceScope } from '@app/contracts';
import { InstanceRepository } from '@app/database';
import { CommandClient } from '@app/redis';
import { InstanceAuth } from '../auth/auth.decorators';
import { CurrentScope } from '../auth/scope';
import { ApiErrors } from '../common/api-errors.decorator';
import { CreatedIdDto } from '../common/created-id.dto';
import { SandboxUserDto } from './dto/sandbox-user.dto';

/** Test mode: people on the simulated network beyond the instance's contacts, groups and correspondents. */
@ApiTags('Sandbox')
@InstanceAuth()
@ApiErrors(404, 503)
@Controller('sandbox')
export class SandboxUsersController {
  constructor(
    private readonly instances: InstanceRepository,
    private readonly commands: CommandClient,
  ) {}

  /**
   * Registers a number on the simulated network (or updates its profile and privacy). The id is the user's JID.
   * Numbers the instance's world does not know (registered here, contacts, group members, senders) are not on it.
   */
  @Post('users')
  @ApiCreatedResponse({ type: CreatedIdDto })
  async register(@CurrentScope() scope: InstanceScope, @Body() dto: SandboxUserDto): Promise<CreatedIdDto> {
    const instance = await this.instances.find(scope, scope.instanceId);
    if (!instance?.sandbox) throw new AppError('not_found');
    return this.commands.request(scope.instanceId, 'sandbox.user', dto);
  }
}
