import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';

export class CommunityIdentityDto {
  @ApiProperty({ description: 'phone-number JID, or the LID when the number is unknown', example: '447700900123@s.whatsapp.net' })
  id!: string;

  @ApiPropertyOptional({ description: 'LID-based JID; omitted when unknown', example: '222424242@lid' })
  lid?: string;

  @ApiPropertyOptional({ description: 'phone number without "+"; omitted when unknown', example: '447700900123' })
  phone?: string;
}

export class CommunityParticipantDto extends CommunityIdentityDto {
  @ApiProperty({ description: 'a community admin (admin of its announcement group)' })
  isAdmin!: boolean;

  @ApiProperty({ description: 'the community owner' })
  isSuperAdmin!: boolean;
}

export class CommunityInfoDto {
  @ApiProperty({ description: 'community JID', example: '120363012345678901@g.us' })
  communityId!: string;

  @ApiPropertyOptional({ type: CommunityIdentityDto, description: 'who owns the community; omitted once the owner has left' })
  owner?: CommunityIdentityDto;

  @ApiProperty()
  name!: string;

  @ApiProperty({ format: 'date-time' })
  created!: string;

  @ApiPropertyOptional({ description: 'omitted when the community has none' })
  description?: string;

  @ApiProperty({ description: 'only admins may change name, description and picture' })
  isLocked!: boolean;

  @ApiProperty({ enum: ['on', 'off'], description: 'whether admins approve people who ask to join' })
  communityApprovalMode!: string;

  @ApiProperty({ type: [CommunityParticipantDto], description: 'every member of the community' })
  participants!: CommunityParticipantDto[];
}

export class CommunitySubGroupDto {
  @ApiProperty({ description: 'group JID' })
  groupId!: string;

  @ApiProperty()
  name!: string;

  @ApiProperty({ format: 'date-time', description: 'when the group got its name' })
  nameSetAt!: string;

  @ApiProperty({ description: "true for the community's announcement group" })
  isAnnouncementGroup!: boolean;
}

/**
 * A new community: its info, plus `id` (the same JID as `communityId`) as the family's clients read it
 * (docs/decisions.md, Family compatibility).
 */
export class CreatedCommunityDto extends CommunityInfoDto {
  @ApiProperty({ description: "the new community's JID, the same as `communityId`", example: '120363012345678901@g.us' })
  id!: string;
}

export class CommunityGroupCreatedDto {
  @ApiProperty({ description: 'JID of the new group' })
  id!: string;
}

export class InviteLinkDto {
  @ApiProperty({ example: 'https://chat.whatsapp.com/AbCdEfGhIjKlMnOpQrStUv' })
  link!: string;
}

export class CommunityPictureSetDto {
  @ApiProperty({ description: 'id of the new picture' })
  pictureId!: string;
}
