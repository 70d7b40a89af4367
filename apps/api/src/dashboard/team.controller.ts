import { Body, Controller, Delete, Get, HttpCode, Param, Post, Req } from '@nestjs/common';
import { ApiCreatedResponse, ApiNoContentResponse, ApiOkResponse, ApiTags } from '@nestjs/swagger';
import type { Request } from 'express';
import type { CustomerScope } from '@app/contracts';
import { CustomerAuth } from '../auth/auth.decorators';
import { CurrentScope } from '../auth/scope';
import { ApiErrors } from '../common/api-errors.decorator';
import { InvitedUserDto, InviteUserDto, TeamMemberDto } from './dto/dashboard.dto';
import { TeamService } from './team.service';

/** The customer's dashboard users (customer key or a dashboard session). */
@ApiTags('Dashboard')
@CustomerAuth()
@Controller('account/users')
export class TeamController {
  constructor(private readonly team: TeamService) {}

  /** Everyone who can (or is invited to) sign in to this customer's dashboard, oldest first. */
  @Get()
  @ApiOkResponse({ type: TeamMemberDto, isArray: true })
  list(@CurrentScope() scope: CustomerScope): Promise<TeamMemberDto[]> {
    return this.team.list(scope);
  }

  /** Invites a teammate: the one-time link is in this response only (no mail is sent). */
  @Post()
  @ApiCreatedResponse({ type: InvitedUserDto })
  @ApiErrors(400, 409)
  invite(@CurrentScope() scope: CustomerScope, @Body() dto: InviteUserDto, @Req() request: Request): Promise<InvitedUserDto> {
    return this.team.invite(scope, dto, request);
  }

  /** Removes a user and ends their sessions at once. The last user who can sign in cannot be removed (409). */
  @Delete(':userId')
  @HttpCode(204)
  @ApiNoContentResponse({ description: 'removed' })
  @ApiErrors(404, 409)
  remove(@CurrentScope() scope: CustomerScope, @Param('userId') userId: string): Promise<void> {
    return this.team.remove(scope, userId);
  }
}
