import { Injectable } from '@nestjs/common';
import { AppError, jidKind, normaliseChatId, normaliseUserId, type InstanceScope } from '@app/contracts';
import { CommandClient } from '@app/redis';
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

const INVITE_BASE = 'https://chat.whatsapp.com/';
const BASE64 = /^[A-Za-z0-9+/]+={0,2}$/;

/** Communities live on the network: every read and change goes through the instance's session. */
@Injectable()
export class CommunitiesService {
  constructor(private readonly commands: CommandClient) {}

  async create(scope: InstanceScope, dto: CreateCommunityDto): Promise<CreatedCommunityDto> {
    const community = await this.commands.perform(scope.instanceId, 'communities.create', {
      name: dto.name,
      participants: users(dto.participants ?? [], 'participants'),
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
    return this.commands.perform(scope.instanceId, 'communities.picture', { communityId, image: jpeg(dto.data) });
  }

  async setLocked(scope: InstanceScope, communityId: string, dto: CommunityLockedDto): Promise<void> {
    await this.commands.perform(scope.instanceId, 'communities.locked', { communityId, locked: dto.enabled });
  }

  async updateParticipants(scope: InstanceScope, communityId: string, dto: CommunityParticipantsDto): Promise<void> {
    const participants = users(dto.participants, 'participants');
    await this.commands.perform(scope.instanceId, 'communities.participants', { communityId, participants, action: dto.action });
  }

  async inviteLink(scope: InstanceScope, communityId: string): Promise<InviteLinkDto> {
    const { code } = await this.commands.perform(scope.instanceId, 'communities.inviteCode', { communityId });
    return { link: `${INVITE_BASE}${code}` };
  }

  async resetInviteLink(scope: InstanceScope, communityId: string): Promise<InviteLinkDto> {
    const { code } = await this.commands.perform(scope.instanceId, 'communities.revokeInvite', { communityId });
    return { link: `${INVITE_BASE}${code}` };
  }

  subGroups(scope: InstanceScope, communityId: string): Promise<CommunitySubGroupDto[]> {
    return this.commands.perform(scope.instanceId, 'communities.subGroups', { communityId });
  }

  createGroup(scope: InstanceScope, communityId: string, dto: CreateCommunityGroupDto): Promise<CommunityGroupCreatedDto> {
    return this.commands.perform(scope.instanceId, 'communities.createGroup', {
      communityId,
      name: dto.name,
      participants: users(dto.participants ?? [], 'participants'),
    });
  }

  async linkGroup(scope: InstanceScope, communityId: string, dto: LinkGroupDto): Promise<void> {
    const groupId = normaliseChatId(dto.groupId);
    if (!groupId || jidKind(groupId) !== 'group') throw AppError.validation('groupId must be a group JID (<id>@g.us)');
    await this.commands.perform(scope.instanceId, 'communities.linkGroup', { communityId, groupId });
  }

  async unlinkGroup(scope: InstanceScope, communityId: string, groupId: string): Promise<void> {
    await this.commands.perform(scope.instanceId, 'communities.unlinkGroup', { communityId, groupId });
  }
}

/** People named in a body, as user JIDs without repeats; a bad entry is named by its index. */
function users(values: string[], field: string): string[] {
  const jids = values.map((value, index) => {
    const jid = normaliseUserId(value);
    if (!jid) throw AppError.validation(`${field}[${index}] must be a user JID or an international number`);
    return jid;
  });
  return [...new Set(jids)];
}

/** The picture must be a base64 JPEG, as the network accepts no other format for group pictures. */
function jpeg(data: string): string {
  const bytes = BASE64.test(data) ? Buffer.from(data, 'base64') : Buffer.alloc(0);
  if (bytes.length < 3 || bytes[0] !== 0xff || bytes[1] !== 0xd8 || bytes[2] !== 0xff)
    throw AppError.validation('data must be a base64-encoded JPEG image');
  return data;
}
