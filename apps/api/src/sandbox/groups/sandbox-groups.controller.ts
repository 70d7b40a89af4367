import { Body, HttpCode, Param, Post } from '@nestjs/common';
import { ApiCreatedResponse, ApiNoContentResponse } from '@nestjs/swagger';
import type { InstanceScope } from '@app/contracts';
import { CurrentScope } from '../../auth/scope';
import { ApiErrors } from '../../common/api-errors.decorator';
import { CreatedIdDto } from '../../common/created-id.dto';
import { SandboxControlService } from '../sandbox-control.service';
import { SandboxRoutes } from '../sandbox-routes.decorator';
import { SandboxGroupChangeDto, SandboxGroupDto, SandboxJoinRequestDto } from './sandbox-groups.dto';

/** Test mode: groups and communities the instance is in, changed by their members and joined by outsiders. Real instances answer 404. */
@SandboxRoutes()
export class SandboxGroupsController {
  constructor(private readonly sandbox: SandboxControlService) {}

  /** Creates a group or community the instance belongs to, with chosen admins (`group`, one per group created). */
  @Post('groups')
  @ApiCreatedResponse({ type: CreatedIdDto })
  @ApiErrors(403)
  group(@CurrentScope() scope: InstanceScope, @Body() dto: SandboxGroupDto): Promise<CreatedIdDto> {
    return this.sandbox.command(scope, 'sandbox.group', { ...dto, community: dto.community ?? false });
  }

  /**
   * A member changes a group: members join or leave, admins are promoted or demoted, name, topic, locked,
   * announce (`group`) or picture (`chat_picture`). Exactly one change per request.
   */
  @Post('groups/:id/changes')
  @HttpCode(204)
  @ApiNoContentResponse({ description: 'group changed' })
  async groupChange(@CurrentScope() scope: InstanceScope, @Param('id') id: string, @Body() dto: SandboxGroupChangeDto): Promise<void> {
    await this.sandbox.command(scope, 'sandbox.groupChange', { ...dto, groupId: id });
  }

  /** A contact opens the invite link of a group that requires approval and asks to join; admins see it in `/groups/{id}/requests`. */
  @Post('groups/:id/join-requests')
  @ApiCreatedResponse({ type: CreatedIdDto })
  joinRequest(@CurrentScope() scope: InstanceScope, @Param('id') id: string, @Body() dto: SandboxJoinRequestDto): Promise<CreatedIdDto> {
    return this.sandbox.command(scope, 'sandbox.groupJoinRequest', { groupId: id, from: dto.from });
  }
}
