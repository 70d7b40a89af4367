import { Body, Controller, Delete, Get, HttpCode, Param, Post, Put } from '@nestjs/common';
import { ApiCreatedResponse, ApiNoContentResponse, ApiOkResponse, ApiTags } from '@nestjs/swagger';
import type { InstanceScope } from '@app/contracts';
import { InstanceAuth } from '../auth/auth.decorators';
import { CurrentScope } from '../auth/scope';
import { ApiErrors } from '../common/api-errors.decorator';
import { groupIdParam } from '../common/rule-param.pipe';
import { RequiresConnection } from '../instance-state/connected-instance.guard';
import { CommunitiesService } from './communities.service';
import {
  CommunityDescriptionDto,
  CommunityLockedDto,
  CommunityNameDto,
  CommunityParticipantsDto,
  CommunityPictureDto,
  CreateCommunityDto,
  CreateCommunityGroupDto,
  LinkGroupDto,
} from './dto/community-requests.dto';
import {
  CommunityGroupCreatedDto,
  CreatedCommunityDto,
  CommunityIdentityDto,
  CommunityInfoDto,
  CommunityPictureSetDto,
  CommunitySubGroupDto,
  InviteLinkDto,
} from './dto/community-responses.dto';

/**
 * Communities: an announcement group for everyone plus linked groups. Admin-only changes answer 403
 * `forbidden: not a community admin`; communities this account is not in answer 404.
 */
@ApiTags('Communities')
@InstanceAuth()
@Controller('communities')
export class CommunitiesController {
  constructor(private readonly communities: CommunitiesService) {}

  /** Every community this account is a member of. */
  @Get()
  @RequiresConnection()
  @ApiOkResponse({ type: CommunityInfoDto, isArray: true })
  list(@CurrentScope() scope: InstanceScope): Promise<CommunityInfoDto[]> {
    return this.communities.list(scope);
  }

  /** Creates a community owned by this account, with its announcement group and a default "General" group. */
  @Post()
  @RequiresConnection()
  @ApiCreatedResponse({ type: CreatedCommunityDto })
  create(@CurrentScope() scope: InstanceScope, @Body() dto: CreateCommunityDto): Promise<CreatedCommunityDto> {
    return this.communities.create(scope, dto);
  }

  @Get(':id')
  @RequiresConnection()
  @ApiOkResponse({ type: CommunityInfoDto })
  @ApiErrors(404)
  info(@CurrentScope() scope: InstanceScope, @Param('id', groupIdParam()) id: string): Promise<CommunityInfoDto> {
    return this.communities.info(scope, id);
  }

  /** Leaves the community and every group of it. */
  @Post(':id/leave')
  @HttpCode(204)
  @RequiresConnection()
  @ApiNoContentResponse({ description: 'left the community' })
  @ApiErrors(404)
  leave(@CurrentScope() scope: InstanceScope, @Param('id', groupIdParam()) id: string): Promise<void> {
    return this.communities.leave(scope, id);
  }

  /** Renames the community; while it is locked only admins may. */
  @Put(':id/name')
  @HttpCode(204)
  @RequiresConnection()
  @ApiNoContentResponse({ description: 'name updated' })
  @ApiErrors(404)
  setName(@CurrentScope() scope: InstanceScope, @Param('id', groupIdParam()) id: string, @Body() dto: CommunityNameDto): Promise<void> {
    return this.communities.setName(scope, id, dto);
  }

  /** Sets or clears the description; while the community is locked only admins may. */
  @Put(':id/description')
  @HttpCode(204)
  @RequiresConnection()
  @ApiNoContentResponse({ description: 'description updated' })
  @ApiErrors(404)
  setDescription(
    @CurrentScope() scope: InstanceScope,
    @Param('id', groupIdParam()) id: string,
    @Body() dto: CommunityDescriptionDto,
  ): Promise<void> {
    return this.communities.setDescription(scope, id, dto);
  }

  /** Sets the picture; while the community is locked only admins may. */
  @Post(':id/picture')
  @HttpCode(200)
  @RequiresConnection()
  @ApiOkResponse({ type: CommunityPictureSetDto })
  @ApiErrors(404)
  setPicture(
    @CurrentScope() scope: InstanceScope,
    @Param('id', groupIdParam()) id: string,
    @Body() dto: CommunityPictureDto,
  ): Promise<CommunityPictureSetDto> {
    return this.communities.setPicture(scope, id, dto);
  }

  /** Locks or unlocks the community info (admins only); a `group` event with `locked` follows. */
  @Put(':id/settings/locked')
  @HttpCode(204)
  @RequiresConnection()
  @ApiNoContentResponse({ description: 'setting updated' })
  @ApiErrors(404)
  setLocked(@CurrentScope() scope: InstanceScope, @Param('id', groupIdParam()) id: string, @Body() dto: CommunityLockedDto): Promise<void> {
    return this.communities.setLocked(scope, id, dto);
  }

  /** Every member of the community. */
  @Get(':id/participants')
  @RequiresConnection()
  @ApiOkResponse({ type: CommunityIdentityDto, isArray: true })
  @ApiErrors(404)
  participants(@CurrentScope() scope: InstanceScope, @Param('id', groupIdParam()) id: string): Promise<CommunityIdentityDto[]> {
    return this.communities.participants(scope, id);
  }

  /**
   * Promotes members to community admins or demotes them (admins only). Members join and leave through the
   * community's groups: `PUT /groups/{subGroupId}/participants`.
   */
  @Put(':id/participants')
  @HttpCode(204)
  @RequiresConnection()
  @ApiNoContentResponse({ description: 'participants updated' })
  @ApiErrors(404)
  updateParticipants(
    @CurrentScope() scope: InstanceScope,
    @Param('id', groupIdParam()) id: string,
    @Body() dto: CommunityParticipantsDto,
  ): Promise<void> {
    return this.communities.updateParticipants(scope, id, dto);
  }

  /** The community's invite link (admins only). */
  @Get(':id/invite-link')
  @RequiresConnection()
  @ApiOkResponse({ type: InviteLinkDto })
  @ApiErrors(404)
  inviteLink(@CurrentScope() scope: InstanceScope, @Param('id', groupIdParam()) id: string): Promise<InviteLinkDto> {
    return this.communities.inviteLink(scope, id);
  }

  /** Replaces the invite link (admins only); the previous one stops working. */
  @Post(':id/invite-link/reset')
  @HttpCode(200)
  @RequiresConnection()
  @ApiOkResponse({ type: InviteLinkDto })
  @ApiErrors(404)
  resetInviteLink(@CurrentScope() scope: InstanceScope, @Param('id', groupIdParam()) id: string): Promise<InviteLinkDto> {
    return this.communities.resetInviteLink(scope, id);
  }

  /** The community's groups, the announcement group first. */
  @Get(':id/groups')
  @RequiresConnection()
  @ApiOkResponse({ type: CommunitySubGroupDto, isArray: true })
  @ApiErrors(404)
  subGroups(@CurrentScope() scope: InstanceScope, @Param('id', groupIdParam()) id: string): Promise<CommunitySubGroupDto[]> {
    return this.communities.subGroups(scope, id);
  }

  /** Creates a group inside the community (admins only); its members become community members. */
  @Post(':id/groups')
  @RequiresConnection()
  @ApiCreatedResponse({ type: CommunityGroupCreatedDto })
  @ApiErrors(404)
  createGroup(
    @CurrentScope() scope: InstanceScope,
    @Param('id', groupIdParam()) id: string,
    @Body() dto: CreateCommunityGroupDto,
  ): Promise<CommunityGroupCreatedDto> {
    return this.communities.createGroup(scope, id, dto);
  }

  // Declared before the link route so the served document lists `/groups/link` after `/groups/{groupId}`: response
  // checkers that match templated paths take the last match.
  /** Unlinks a group (admins only); the group stays, and people in no other group of the community leave it. */
  @Delete(':id/groups/:groupId')
  @HttpCode(204)
  @RequiresConnection()
  @ApiNoContentResponse({ description: 'group unlinked' })
  @ApiErrors(404)
  unlinkGroup(
    @CurrentScope() scope: InstanceScope,
    @Param('id', groupIdParam()) id: string,
    @Param('groupId', groupIdParam('groupId')) groupId: string,
  ): Promise<void> {
    return this.communities.unlinkGroup(scope, id, groupId);
  }

  /** Links an existing group (admin of both needed); its members become community members. */
  @Post(':id/groups/link')
  @HttpCode(204)
  @RequiresConnection()
  @ApiNoContentResponse({ description: 'group linked' })
  @ApiErrors(404)
  linkGroup(@CurrentScope() scope: InstanceScope, @Param('id', groupIdParam()) id: string, @Body() dto: LinkGroupDto): Promise<void> {
    return this.communities.linkGroup(scope, id, dto);
  }
}
