import { Injectable } from '@nestjs/common';
import type { InstanceScope } from '@app/contracts';
import { CommandClient } from '@app/redis';
import { distinctPeople, inviteLink } from '../groups/group-body';
import type {
  CommunityDescriptionDto,
  CommunityLockedDto,
  CommunityNameDto,
  CommunityParticipantsDto,
  CommunityPictureDto,
  CreateCommunityDto,
  CreateCommunityGroupDto,
  LinkGroupDto,
} from './dto/community-requests.dto';
import type {
  CommunityGroupCreatedDto,
  CreatedCommunityDto,
  CommunityIdentityDto,
  CommunityInfoDto,
  CommunityPictureSetDto,
  CommunitySubGroupDto,
  InviteLinkDto,
} from './dto/community-responses.dto';

/**
 * Communities live on the network: every read and change goes through the instance's session. Requests arrive
 * validated and normalised (JIDs, pictures) by their DTOs and path pipes.
 */
@Injectable()
export class CommunitiesService {
  constructor(private readonly commands: CommandClient) {}

  async create(scope: InstanceScope, dto: CreateCommunityDto): Promise<CreatedCommunityDto> {
    const community = await this.commands.perform(scope.instanceId, 'communities.create', {
      name: dto.name,
      participants: distinctPeople(dto.participants ?? []),
      approvalMode: dto.approvalMode ?? 'off',
    });
    return { id: community.communityId, ...community };
  }

  list(scope: InstanceScope): Promise<CommunityInfoDto[]> {
    return this.commands.perform(scope.instanceId, 'communities.list', {});
  }

  info(scope: InstanceScope, communityId: string): Promise<CommunityInfoDto> {
    return this.commands.perform(scope.instanceId, 'communities.info', { communityId });
  }

  async participants(scope: InstanceScope, communityId: string): Promise<CommunityIdentityDto[]> {
    const info = await this.info(scope, communityId);
    return info.participants.map(({ id, lid, phone }) => ({ id, ...(lid ? { lid } : {}), ...(phone ? { phone } : {}) }));
  }

  async leave(scope: InstanceScope, communityId: string): Promise<void> {
    await this.commands.perform(scope.instanceId, 'communities.leave', { communityId });
  }

  async setName(scope: InstanceScope, communityId: string, dto: CommunityNameDto): Promise<void> {
    await this.commands.perform(scope.instanceId, 'communities.name', { communityId, name: dto.name });
  }

  async setDescription(scope: InstanceScope, communityId: string, dto: CommunityDescriptionDto): Promise<void> {
    await this.commands.perform(scope.instanceId, 'communities.description', { communityId, description: dto.description });
  }

  setPicture(scope: InstanceScope, communityId: string, dto: CommunityPictureDto): Promise<CommunityPictureSetDto> {
    return this.commands.perform(scope.instanceId, 'communities.picture', { communityId, image: dto.data });
  }

  async setLocked(scope: InstanceScope, communityId: string, dto: CommunityLockedDto): Promise<void> {
    await this.commands.perform(scope.instanceId, 'communities.locked', { communityId, locked: dto.enabled });
  }

  async updateParticipants(scope: InstanceScope, communityId: string, dto: CommunityParticipantsDto): Promise<void> {
    const participants = distinctPeople(dto.participants);
    await this.commands.perform(scope.instanceId, 'communities.participants', { communityId, participants, action: dto.action });
  }

  async inviteLink(scope: InstanceScope, communityId: string): Promise<InviteLinkDto> {
    const { code } = await this.commands.perform(scope.instanceId, 'communities.inviteCode', { communityId });
    return { link: inviteLink(code) };
  }

  async resetInviteLink(scope: InstanceScope, communityId: string): Promise<InviteLinkDto> {
    const { code } = await this.commands.perform(scope.instanceId, 'communities.revokeInvite', { communityId });
    return { link: inviteLink(code) };
  }

  subGroups(scope: InstanceScope, communityId: string): Promise<CommunitySubGroupDto[]> {
    return this.commands.perform(scope.instanceId, 'communities.subGroups', { communityId });
  }

  createGroup(scope: InstanceScope, communityId: string, dto: CreateCommunityGroupDto): Promise<CommunityGroupCreatedDto> {
    return this.commands.perform(scope.instanceId, 'communities.createGroup', {
      communityId,
      name: dto.name,
      participants: distinctPeople(dto.participants ?? []),
    });
  }

  async linkGroup(scope: InstanceScope, communityId: string, dto: LinkGroupDto): Promise<void> {
    await this.commands.perform(scope.instanceId, 'communities.linkGroup', { communityId, groupId: dto.groupId });
  }

  async unlinkGroup(scope: InstanceScope, communityId: string, groupId: string): Promise<void> {
    await this.commands.perform(scope.instanceId, 'communities.unlinkGroup', { communityId, groupId });
  }
}
