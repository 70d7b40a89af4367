import { Injectable } from '@nestjs/common';
import type { GroupSetting, InstanceScope } from '@app/contracts';
import { CommandClient } from '@app/redis';
import { distinctPeople, groupBody, inviteLink, joinRequestBody } from './group-body';
import type {
  CreateGroupDto,
  JoinWithInviteDto,
  JoinWithLinkDto,
  SetGroupDescriptionDto,
  SetGroupNameDto,
  SetGroupPictureDto,
  SetMemberAddModeDto,
  UpdateJoinRequestsDto,
  UpdateParticipantsDto,
} from './dto/group-requests.dto';
import type { CreatedGroupDto, GroupInfoDto, GroupParticipantDto, GroupPictureDto, InviteLinkDto, JoinRequestDto } from './dto/group.dto';

/**
 * Groups: every read and change goes to the network through the instance's session; answers refresh the store.
 * Requests arrive validated and normalised (JIDs, invite codes, pictures) by their DTOs and path pipes.
 */
@Injectable()
export class GroupsService {
  constructor(private readonly commands: CommandClient) {}

  async list(scope: InstanceScope): Promise<GroupInfoDto[]> {
    return (await this.commands.perform(scope.instanceId, 'groups.list', {})).map(groupBody);
  }

  async create(scope: InstanceScope, dto: CreateGroupDto): Promise<CreatedGroupDto> {
    const participants = distinctPeople(dto.participants);
    const group = groupBody(await this.commands.perform(scope.instanceId, 'groups.create', { name: dto.name, participants }));
    return { id: group.groupId, ...group };
  }

  async get(scope: InstanceScope, groupId: string): Promise<GroupInfoDto> {
    return groupBody(await this.commands.perform(scope.instanceId, 'groups.info', { groupId }));
  }

  async listParticipants(scope: InstanceScope, groupId: string): Promise<GroupParticipantDto[]> {
    return (await this.get(scope, groupId)).participants;
  }

  async participants(scope: InstanceScope, groupId: string, dto: UpdateParticipantsDto): Promise<void> {
    await this.commands.perform(scope.instanceId, 'groups.participants', {
      groupId,
      participants: distinctPeople(dto.participants),
      action: dto.action,
    });
  }

  async inviteLink(scope: InstanceScope, groupId: string): Promise<InviteLinkDto> {
    const { code } = await this.commands.perform(scope.instanceId, 'groups.inviteCode', { groupId });
    return { link: inviteLink(code) };
  }

  async resetInviteLink(scope: InstanceScope, groupId: string): Promise<InviteLinkDto> {
    const { code } = await this.commands.perform(scope.instanceId, 'groups.revokeInvite', { groupId });
    return { link: inviteLink(code) };
  }

  async setName(scope: InstanceScope, groupId: string, dto: SetGroupNameDto): Promise<void> {
    await this.commands.perform(scope.instanceId, 'groups.setName', { groupId, name: dto.name });
  }

  async setDescription(scope: InstanceScope, groupId: string, dto: SetGroupDescriptionDto): Promise<void> {
    await this.commands.perform(scope.instanceId, 'groups.setDescription', { groupId, description: dto.description });
  }

  async setPicture(scope: InstanceScope, groupId: string, dto: SetGroupPictureDto): Promise<GroupPictureDto> {
    return this.commands.perform(scope.instanceId, 'groups.setPicture', { groupId, image: dto.data });
  }

  async setting(scope: InstanceScope, groupId: string, setting: GroupSetting, enabled: boolean): Promise<void> {
    await this.commands.perform(scope.instanceId, 'groups.setting', { groupId, setting, enabled });
  }

  async joinApproval(scope: InstanceScope, groupId: string, enabled: boolean): Promise<void> {
    await this.commands.perform(scope.instanceId, 'groups.joinApproval', { groupId, enabled });
  }

  async memberAddMode(scope: InstanceScope, groupId: string, dto: SetMemberAddModeDto): Promise<void> {
    await this.commands.perform(scope.instanceId, 'groups.memberAddMode', { groupId, onlyAdminAdd: dto.onlyAdminAdd });
  }

  async leave(scope: InstanceScope, groupId: string): Promise<void> {
    await this.commands.perform(scope.instanceId, 'groups.leave', { groupId });
  }

  /** 201 with the group's id whether joined at once or, where admins approve newcomers, asked to join. */
  async joinWithLink(scope: InstanceScope, dto: JoinWithLinkDto): Promise<{ id: string }> {
    const { groupId } = await this.commands.perform(scope.instanceId, 'groups.join', { code: dto.code });
    return { id: groupId };
  }

  async joinWithInvite(scope: InstanceScope, dto: JoinWithInviteDto): Promise<void> {
    await this.commands.perform(scope.instanceId, 'groups.joinInvite', {
      groupId: dto.groupId,
      inviterId: dto.inviterId,
      code: dto.code,
      ...(dto.expiration !== undefined ? { expiration: dto.expiration } : {}),
    });
  }

  async inviteInfo(scope: InstanceScope, code: string): Promise<GroupInfoDto> {
    return groupBody(await this.commands.perform(scope.instanceId, 'groups.inviteInfo', { code }));
  }

  async requests(scope: InstanceScope, groupId: string): Promise<JoinRequestDto[]> {
    return (await this.commands.perform(scope.instanceId, 'groups.requests', { groupId })).map(joinRequestBody);
  }

  async updateRequests(scope: InstanceScope, groupId: string, dto: UpdateJoinRequestsDto): Promise<void> {
    await this.commands.perform(scope.instanceId, 'groups.updateRequests', {
      groupId,
      participants: distinctPeople(dto.participants),
      action: dto.action,
    });
  }
}
