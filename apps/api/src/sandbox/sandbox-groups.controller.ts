import { Body, Controller, Param, Post } from '@nestjs/common';
import { ApiCreatedResponse, ApiProperty, ApiTags } from '@nestjs/swagger';
import { IsDefined, IsString } from 'class-validator';
import type { InstanceScope } from '@app/contracts';
import { CommandClient } from '@app/redis';
import { InstanceAuth } from '../auth/auth.decorators';
import { CurrentScope } from '../auth/scope';
import { ApiErrors } from '../common/api-errors.decorator';
import { CreatedIdDto } from '../common/created-id.dto';
import { REQUIRED } from '../common/validators';

export class SandboxJoinRequestDto {
  @ApiProperty({ description: 'who asks to join (user JID or international number)' })
  @IsDefined(REQUIRED)
  @IsString()
  from!: string;
}

/** Test mode: people outside a group act on it. Real instances answer 404 (the worker refuses sandbox commands for them). */
@ApiTags('Sandbox')
@InstanceAuth()
@ApiErrors(400, 404, 503)
@Controller('sandbox')
export class SandboxGroupsController {
  constructor(private readonly commands: CommandClient) {}

  /** A contact opens the invite link of a group that requires approval and asks to join; admins see it in `/groups/{id}/requests`. */
  @Post('groups/:id/join-requests')
  @ApiCreatedResponse({ type: CreatedIdDto })
  joinRequest(@CurrentScope() scope: InstanceScope, @Param('id') id: string, @Body() dto: SandboxJoinRequestDto): Promise<CreatedIdDto> {
    return this.commands.request(scope.instanceId, 'sandbox.groupJoinRequest', { groupId: id, from: dto.from });
  }
}
