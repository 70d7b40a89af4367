import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { IsBoolean, IsDefined, IsIn, IsOptional, IsString, MaxLength, MinLength, ValidateBy } from 'class-validator';
import { Follows, GROUP_ID, NormalisedBy, REQUIRED } from '../../common/validators';
import { PeopleList } from '../../groups/dto/people-list';

export const COMMUNITY_ACTIONS = ['promote', 'demote'] as const;
export type CommunityAction = (typeof COMMUNITY_ACTIONS)[number];

const NAME_RULE = { message: 'must be 1-100 characters' };

/**
 * Members join or leave a community only through its groups, so `add` and `remove` get a detail that says where to
 * go instead of a bare "must be one of".
 */
function IsCommunityAction(): PropertyDecorator {
  return ValidateBy({
    name: 'isCommunityAction',
    validator: {
      validate: (value: unknown) => typeof value === 'string' && (COMMUNITY_ACTIONS as readonly string[]).includes(value),
      defaultMessage: (args) =>
        args?.value === 'add' || args?.value === 'remove'
          ? `${args.property} ${String(args.value)} is not supported on a community: add or remove members with PUT /groups/{subGroupId}/participants on one of its sub-groups`
          : `${args?.property ?? 'action'} must be promote or demote`,
    },
  });
}

export class CreateCommunityDto {
  @ApiProperty({ description: 'community name, 1-100 characters' })
  @IsDefined(REQUIRED)
  @IsString()
  @MinLength(1, NAME_RULE)
  @MaxLength(100, NAME_RULE)
  name!: string;

  @ApiPropertyOptional({ description: 'people to add (user JIDs or international numbers); they join the default group', type: [String] })
  @IsOptional()
  @PeopleList({ atLeastOne: false })
  participants?: string[];

  @ApiPropertyOptional({ enum: ['on', 'off'], description: 'whether admins must approve people who ask to join; off by default' })
  @IsOptional()
  @IsIn(['on', 'off'], { message: 'must be on or off' })
  approvalMode?: 'on' | 'off';
}

export class CreateCommunityGroupDto {
  @ApiProperty({ description: 'group name, 1-100 characters' })
  @IsDefined(REQUIRED)
  @IsString()
  @MinLength(1, NAME_RULE)
  @MaxLength(100, NAME_RULE)
  name!: string;

  @ApiPropertyOptional({ description: 'people to add besides this account (user JIDs or international numbers)', type: [String] })
  @IsOptional()
  @PeopleList({ atLeastOne: false })
  participants?: string[];
}

export class LinkGroupDto {
  @ApiProperty({ description: 'JID of the existing group to link (<id>@g.us)' })
  @IsDefined(REQUIRED)
  @IsString()
  @NormalisedBy(GROUP_ID)
  @Follows(GROUP_ID)
  groupId!: string;
}

export class CommunityParticipantsDto {
  @ApiProperty({ description: 'members of the community (user JIDs or international numbers)', type: [String] })
  @IsDefined(REQUIRED)
  @PeopleList({ atLeastOne: true })
  participants!: string[];

  @ApiProperty({ enum: COMMUNITY_ACTIONS, description: 'promote makes them community admins, demote makes them members again' })
  @IsDefined(REQUIRED)
  @IsCommunityAction()
  action!: CommunityAction;
}

export class CommunityLockedDto {
  @ApiProperty({ description: 'true lets only admins change the name, description and picture' })
  @IsDefined(REQUIRED)
  @IsBoolean()
  enabled!: boolean;
}

/** Name, description and picture follow the same rules for a community as for a group. */
export {
  SetGroupDescriptionDto as CommunityDescriptionDto,
  SetGroupNameDto as CommunityNameDto,
  SetGroupPictureDto as CommunityPictureDto,
} from '../../groups/dto/group-requests.dto';
