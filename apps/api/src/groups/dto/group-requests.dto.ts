import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { IsBoolean, IsDefined, IsIn, IsInt, IsOptional, IsString, MaxLength, MinLength } from 'class-validator';
import { PARTICIPANT_ACTIONS, type ParticipantAction } from '../participant-actions';
import { PeopleList } from './people-list';
import {
  BASE64_JPEG,
  Follows,
  GROUP_ID,
  GROUP_INVITE,
  GROUP_INVITE_OR_LINK,
  NormalisedBy,
  REQUIRED,
  USER_ID,
} from '../../common/validators';

const PEOPLE = { description: 'user JIDs or international numbers', example: ['447700900123@s.whatsapp.net'] };

export class CreateGroupDto {
  @ApiProperty({ description: 'the group name (subject), 1-100 characters', example: 'Project team' })
  @IsDefined(REQUIRED)
  @IsString()
  @MinLength(1, { message: 'must be 1-100 characters' })
  @MaxLength(100, { message: 'must be 1-100 characters' })
  name!: string;

  @ApiProperty({ ...PEOPLE, minItems: 1 })
  @IsDefined(REQUIRED)
  @PeopleList({ atLeastOne: true })
  participants!: string[];
}

export class UpdateParticipantsDto {
  @ApiProperty({ ...PEOPLE, minItems: 1 })
  @IsDefined(REQUIRED)
  @PeopleList({ atLeastOne: true })
  participants!: string[];

  @ApiProperty({ enum: PARTICIPANT_ACTIONS })
  @IsDefined(REQUIRED)
  @IsIn(PARTICIPANT_ACTIONS, { message: `must be one of ${PARTICIPANT_ACTIONS.join(', ')}` })
  action!: ParticipantAction;
}

export class SetGroupNameDto {
  @ApiProperty({ description: '1-100 characters' })
  @IsDefined(REQUIRED)
  @IsString()
  @MinLength(1, { message: 'must be 1-100 characters' })
  @MaxLength(100, { message: 'must be 1-100 characters' })
  name!: string;
}

export class SetGroupDescriptionDto {
  @ApiProperty({ description: 'at most 2048 characters; the empty string removes the description' })
  @IsDefined(REQUIRED)
  @IsString()
  @MaxLength(2048, { message: 'must be at most 2048 characters' })
  description!: string;
}

export class SetGroupPictureDto {
  @ApiProperty({ description: 'the picture: a base64-encoded JPEG image' })
  @IsDefined(REQUIRED)
  @IsString()
  @Follows(BASE64_JPEG)
  data!: string;
}

export class SetGroupFlagDto {
  @ApiProperty({ description: 'true turns the setting on, false off' })
  @IsDefined(REQUIRED)
  @IsBoolean()
  enabled!: boolean;
}

export class SetMemberAddModeDto {
  @ApiProperty({ description: 'true: only admins add members; false: every member may' })
  @IsDefined(REQUIRED)
  @IsBoolean()
  onlyAdminAdd!: boolean;
}

export class JoinWithLinkDto {
  @ApiProperty({ description: 'the invite code (what follows https://chat.whatsapp.com/), or the whole link' })
  @IsDefined(REQUIRED)
  @IsString()
  @NormalisedBy(GROUP_INVITE_OR_LINK)
  @Follows(GROUP_INVITE_OR_LINK)
  code!: string;
}

export class JoinWithInviteDto {
  @ApiProperty({ description: 'the group JID the invite message names' })
  @IsDefined(REQUIRED)
  @IsString()
  @NormalisedBy(GROUP_ID)
  @Follows(GROUP_ID)
  groupId!: string;

  @ApiProperty({ description: 'the admin who sent the invite (user JID or international number)' })
  @IsDefined(REQUIRED)
  @IsString()
  @NormalisedBy(USER_ID)
  @Follows(USER_ID)
  inviterId!: string;

  @ApiProperty({ description: 'the invite code the message carries' })
  @IsDefined(REQUIRED)
  @IsString()
  @Follows(GROUP_INVITE)
  code!: string;

  @ApiPropertyOptional({ description: 'when the invite expires, in seconds since the epoch', format: 'int64' })
  @IsOptional()
  @IsInt()
  expiration?: number;
}

export const JOIN_REQUEST_ACTIONS = ['approve', 'reject'] as const;

export class UpdateJoinRequestsDto {
  @ApiProperty({ ...PEOPLE, minItems: 1 })
  @IsDefined(REQUIRED)
  @PeopleList({ atLeastOne: true })
  participants!: string[];

  @ApiProperty({ enum: JOIN_REQUEST_ACTIONS })
  @IsDefined(REQUIRED)
  @IsIn(JOIN_REQUEST_ACTIONS, { message: 'must be one of approve, reject' })
  action!: (typeof JOIN_REQUEST_ACTIONS)[number];
}
