import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';

export class GroupIdentityDto {
  @ApiProperty({ description: 'phone-number JID when known, else the LID', example: '447700900123@s.whatsapp.net' })
  id!: string;

  @ApiPropertyOptional({ description: 'LID-based JID; omitted when unknown', example: '222424242@lid' })
  lid?: string;
}

export class GroupParticipantDto extends GroupIdentityDto {
  @ApiProperty({ description: 'admin or creator of the group' })
  isAdmin!: boolean;

  @ApiProperty({ description: 'the group creator' })
  isSuperAdmin!: boolean;
}

export class GroupInfoDto {
  @ApiProperty({ example: '120363012345678901@g.us' })
  groupId!: string;

  @ApiPropertyOptional({ type: GroupIdentityDto, description: 'who created the group; omitted when unknown' })
  owner?: GroupIdentityDto;

  @ApiProperty()
  name!: string;

  @ApiPropertyOptional({ format: 'date-time' })
  createdAt?: string;

  @ApiPropertyOptional({ description: 'omitted when the group has none' })
  description?: string;

  @ApiProperty({ description: 'only admins may send messages' })
  isAnnounce!: boolean;

  @ApiProperty({ description: 'only admins may change name, description and picture' })
  isLocked!: boolean;

  @ApiProperty({ description: 'disappearing messages are on' })
  isEphemeral!: boolean;

  @ApiProperty({ description: 'disappearing-message timer in seconds (0 when off)', format: 'int64' })
  ephemeralExpiration!: number;

  @ApiProperty({ type: GroupParticipantDto, isArray: true })
  participants!: GroupParticipantDto[];

  @ApiPropertyOptional({ description: "the community of a community's group" })
  communityId?: string;

  @ApiProperty({ description: "the community's announcement group" })
  isAnnouncementGroup!: boolean;

  @ApiProperty({ description: 'is a community (the parent of its groups)' })
  isCommunity!: boolean;

  @ApiProperty({ description: 'new members need an admin to approve their request' })
  isJoinApprovalRequired!: boolean;

  @ApiProperty({ enum: ['admin_add', 'all_member_add'], description: 'who may add members' })
  memberAddMode!: string;
}

/**
 * A new group: its info, plus `id` (the same JID as `groupId`) as the family's clients read it (docs/decisions.md,
 * Family compatibility).
 */
export class CreatedGroupDto extends GroupInfoDto {
  @ApiProperty({ description: "the new group's JID, the same as `groupId`", example: '120363012345678901@g.us' })
  id!: string;
}

export class InviteLinkDto {
  @ApiProperty({ example: 'https://chat.whatsapp.com/AbCdEfGhIjKlMnOpQrStUv' })
  link!: string;
}

export class GroupPictureDto {
  @ApiProperty({ description: 'the id of the new picture' })
  pictureId!: string;
}

export class JoinRequestDto {
  @ApiProperty({ type: GroupIdentityDto })
  user!: GroupIdentityDto;

  @ApiProperty({ format: 'date-time' })
  requestedAt!: string;
}
