import { Body, Controller, Get, HttpCode, Param, Post, Put } from '@nestjs/common';
import { ApiCreatedResponse, ApiNoContentResponse, ApiOkResponse, ApiTags } from '@nestjs/swagger';
import type { InstanceScope } from '@app/contracts';
import { InstanceAuth } from '../auth/auth.decorators';
import { CurrentScope } from '../auth/scope';
import { ApiErrors } from '../common/api-errors.decorator';
import { CreatedIdDto } from '../common/created-id.dto';
import { groupIdParam, groupInviteParam } from '../common/rule-param.pipe';
import { RequiresConnection } from '../instance-state/connected-instance.guard';
import {
  CreateGroupDto,
  JoinWithInviteDto,
  JoinWithLinkDto,
  SetGroupDescriptionDto,
  SetGroupFlagDto,
  SetGroupNameDto,
  SetGroupPictureDto,
  SetMemberAddModeDto,
  UpdateJoinRequestsDto,
  UpdateParticipantsDto,
} from './dto/group-requests.dto';
import { CreatedGroupDto, GroupInfoDto, GroupParticipantDto, GroupPictureDto, InviteLinkDto, JoinRequestDto } from './dto/group.dto';
import { GroupsService } from './groups.service';

/**
 * Groups this account is in, as the network knows them. `{id}` is a group JID; groups the account is not in are
 * `not found`. Changes the network reserves for admins answer 403 `forbidden: not a group admin` and change nothing.
 */
@ApiTags('Groups')
@InstanceAuth()
@Controller('groups')
export class GroupsController {
  constructor(private readonly groups: GroupsService) {}

  /** Every group (and community) this account is a member of. */
  @Get()
  @RequiresConnection()
  @ApiOkResponse({ type: GroupInfoDto, isArray: true })
  list(@CurrentScope() scope: InstanceScope): Promise<GroupInfoDto[]> {
    return this.groups.list(scope);
  }

  /** Creates a group with this account as its creator (superadmin) and the given people as members. */
  @Post()
  @RequiresConnection()
  @ApiCreatedResponse({ type: CreatedGroupDto })
  @ApiErrors(400)
  create(@CurrentScope() scope: InstanceScope, @Body() dto: CreateGroupDto): Promise<CreatedGroupDto> {
    return this.groups.create(scope, dto);
  }

  /** Joins the group an invite link leads to; where admins approve newcomers, asks to join instead. */
  @Post('join/link')
  @RequiresConnection()
  @ApiCreatedResponse({ type: CreatedIdDto, description: 'the group joined (or asked to join)' })
  @ApiErrors(400, 404)
  joinWithLink(@CurrentScope() scope: InstanceScope, @Body() dto: JoinWithLinkDto): Promise<CreatedIdDto> {
    return this.groups.joinWithLink(scope, dto);
  }

  /** Accepts an invite an admin of the group sent in a message. */
  @Post('join/invite')
  @HttpCode(204)
  @RequiresConnection()
  @ApiNoContentResponse({ description: 'joined the group' })
  @ApiErrors(400, 404)
  joinWithInvite(@CurrentScope() scope: InstanceScope, @Body() dto: JoinWithInviteDto): Promise<void> {
    return this.groups.joinWithInvite(scope, dto);
  }

  /** What an invite code leads to, without joining. */
  @Get('invite/:code')
  @RequiresConnection()
  @ApiOkResponse({ type: GroupInfoDto })
  @ApiErrors(400, 404)
  inviteInfo(@CurrentScope() scope: InstanceScope, @Param('code', groupInviteParam()) code: string): Promise<GroupInfoDto> {
    return this.groups.inviteInfo(scope, code);
  }

  /** The group as the network has it now: members, admins and settings. */
  @Get(':id')
  @RequiresConnection()
  @ApiOkResponse({ type: GroupInfoDto })
  @ApiErrors(400, 404)
  get(@CurrentScope() scope: InstanceScope, @Param('id', groupIdParam()) id: string): Promise<GroupInfoDto> {
    return this.groups.get(scope, id);
  }

  /** The group's members and their roles, as the network has them now (the `participants` of `GET /groups/{id}`). */
  @Get(':id/participants')
  @RequiresConnection()
  @ApiOkResponse({ type: GroupParticipantDto, isArray: true })
  @ApiErrors(400, 404)
  listParticipants(@CurrentScope() scope: InstanceScope, @Param('id', groupIdParam()) id: string): Promise<GroupParticipantDto[]> {
    return this.groups.listParticipants(scope, id);
  }

  /** Adds, removes, promotes or demotes members (admins only); a `group` event follows. */
  @Put(':id/participants')
  @HttpCode(204)
  @RequiresConnection()
  @ApiNoContentResponse({ description: 'participants updated' })
  @ApiErrors(400, 404)
  participants(
    @CurrentScope() scope: InstanceScope,
    @Param('id', groupIdParam()) id: string,
    @Body() dto: UpdateParticipantsDto,
  ): Promise<void> {
    return this.groups.participants(scope, id, dto);
  }

  /** The current invite link (admins only). */
  @Get(':id/invite-link')
  @RequiresConnection()
  @ApiOkResponse({ type: InviteLinkDto })
  @ApiErrors(400, 404)
  inviteLink(@CurrentScope() scope: InstanceScope, @Param('id', groupIdParam()) id: string): Promise<InviteLinkDto> {
    return this.groups.inviteLink(scope, id);
  }

  /** Replaces the invite link (admins only); the old one stops working at once. */
  @Post(':id/invite-link/reset')
  @HttpCode(200)
  @RequiresConnection()
  @ApiOkResponse({ type: InviteLinkDto })
  @ApiErrors(400, 404)
  resetInviteLink(@CurrentScope() scope: InstanceScope, @Param('id', groupIdParam()) id: string): Promise<InviteLinkDto> {
    return this.groups.resetInviteLink(scope, id);
  }

  /** Renames the group (any member; admins only while the group is locked). */
  @Put(':id/name')
  @HttpCode(204)
  @RequiresConnection()
  @ApiNoContentResponse({ description: 'name updated' })
  @ApiErrors(400, 404)
  setName(@CurrentScope() scope: InstanceScope, @Param('id', groupIdParam()) id: string, @Body() dto: SetGroupNameDto): Promise<void> {
    return this.groups.setName(scope, id, dto);
  }

  /** Sets or clears the description (any member; admins only while the group is locked). */
  @Put(':id/description')
  @HttpCode(204)
  @RequiresConnection()
  @ApiNoContentResponse({ description: 'description updated' })
  @ApiErrors(400, 404)
  setDescription(
    @CurrentScope() scope: InstanceScope,
    @Param('id', groupIdParam()) id: string,
    @Body() dto: SetGroupDescriptionDto,
  ): Promise<void> {
    return this.groups.setDescription(scope, id, dto);
  }

  /** Sets the group picture (any member; admins only while the group is locked); a `chat_picture` event follows. */
  @Post(':id/picture')
  @HttpCode(200)
  @RequiresConnection()
  @ApiOkResponse({ type: GroupPictureDto })
  @ApiErrors(400, 404)
  setPicture(
    @CurrentScope() scope: InstanceScope,
    @Param('id', groupIdParam()) id: string,
    @Body() dto: SetGroupPictureDto,
  ): Promise<GroupPictureDto> {
    return this.groups.setPicture(scope, id, dto);
  }

  /** Leaves the group; when the last admin leaves, the network makes another member admin. */
  @Post(':id/leave')
  @HttpCode(204)
  @RequiresConnection()
  @ApiNoContentResponse({ description: 'left the group' })
  @ApiErrors(400, 404)
  leave(@CurrentScope() scope: InstanceScope, @Param('id', groupIdParam()) id: string): Promise<void> {
    return this.groups.leave(scope, id);
  }

  /** Only admins may send messages while on (admins only). */
  @Put(':id/settings/announce')
  @HttpCode(204)
  @RequiresConnection()
  @ApiNoContentResponse({ description: 'setting updated' })
  @ApiErrors(400, 404)
  announce(@CurrentScope() scope: InstanceScope, @Param('id', groupIdParam()) id: string, @Body() dto: SetGroupFlagDto): Promise<void> {
    return this.groups.setting(scope, id, 'announce', dto.enabled);
  }

  /** Only admins may change name, description and picture while on (admins only). */
  @Put(':id/settings/locked')
  @HttpCode(204)
  @RequiresConnection()
  @ApiNoContentResponse({ description: 'setting updated' })
  @ApiErrors(400, 404)
  locked(@CurrentScope() scope: InstanceScope, @Param('id', groupIdParam()) id: string, @Body() dto: SetGroupFlagDto): Promise<void> {
    return this.groups.setting(scope, id, 'locked', dto.enabled);
  }

  /** Newcomers need an admin's approval while on (admins only). */
  @Put(':id/settings/join-approval')
  @HttpCode(204)
  @RequiresConnection()
  @ApiNoContentResponse({ description: 'setting updated' })
  @ApiErrors(400, 404)
  joinApproval(@CurrentScope() scope: InstanceScope, @Param('id', groupIdParam()) id: string, @Body() dto: SetGroupFlagDto): Promise<void> {
    return this.groups.joinApproval(scope, id, dto.enabled);
  }

  /** Whether only admins or every member may add people (admins only). */
  @Put(':id/settings/member-add-mode')
  @HttpCode(204)
  @RequiresConnection()
  @ApiNoContentResponse({ description: 'setting updated' })
  @ApiErrors(400, 404)
  memberAddMode(
    @CurrentScope() scope: InstanceScope,
    @Param('id', groupIdParam()) id: string,
    @Body() dto: SetMemberAddModeDto,
  ): Promise<void> {
    return this.groups.memberAddMode(scope, id, dto);
  }

  /** People waiting for approval to join (admins only). */
  @Get(':id/requests')
  @RequiresConnection()
  @ApiOkResponse({ type: JoinRequestDto, isArray: true })
  @ApiErrors(400, 404)
  requests(@CurrentScope() scope: InstanceScope, @Param('id', groupIdParam()) id: string): Promise<JoinRequestDto[]> {
    return this.groups.requests(scope, id);
  }

  /** Lets waiting people in, or turns them away (admins only); those let in arrive with a `group` join event. */
  @Put(':id/requests')
  @HttpCode(204)
  @RequiresConnection()
  @ApiNoContentResponse({ description: 'requests answered' })
  @ApiErrors(400, 404)
  updateRequests(
    @CurrentScope() scope: InstanceScope,
    @Param('id', groupIdParam()) id: string,
    @Body() dto: UpdateJoinRequestsDto,
  ): Promise<void> {
    return this.groups.updateRequests(scope, id, dto);
  }
}
