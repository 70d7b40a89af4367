import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import {
  ArrayMaxSize,
  IsArray,
  IsBoolean,
  IsDefined,
  IsIn,
  IsInt,
  IsOptional,
  IsString,
  Max,
  MaxLength,
  Min,
  MinLength,
} from 'class-validator';
import { Follows, NormalisedBy, REQUIRED, USER_ID } from '../../common/validators';
import { IsNotBlank, MaxChars } from '../../messages/dto/message.validators';
import { oneOf } from '../sandbox.validators';

const NEWSLETTER_ROLES = ['SUBSCRIBER', 'ADMIN', 'OWNER'] as const;

export class SandboxNewsletterDto {
  @IsDefined(REQUIRED)
  @IsString()
  @MinLength(1, { message: 'must be 1-100 characters' })
  @MaxLength(100, { message: 'must be 1-100 characters' })
  name!: string;

  /** This account's role in the channel; SUBSCRIBER when left out. */
  @ApiProperty({ enum: NEWSLETTER_ROLES, required: false })
  @IsOptional()
  @IsIn(NEWSLETTER_ROLES, oneOf(NEWSLETTER_ROLES))
  role?: (typeof NEWSLETTER_ROLES)[number];
}

export class SandboxNewsletterMuteDto {
  @IsDefined(REQUIRED)
  @IsBoolean()
  muted!: boolean;
}

export class SandboxChannelDto {
  @IsDefined(REQUIRED)
  @IsString()
  @IsNotBlank()
  @MaxChars(100)
  name!: string;

  @IsOptional()
  @IsString()
  @MaxChars(2048)
  description?: string;

  @ApiPropertyOptional({ minimum: 0, maximum: 1_000_000_000 })
  @IsOptional()
  @IsInt()
  @Min(0)
  @Max(1_000_000_000)
  subscriberCount?: number;

  @IsOptional()
  @IsBoolean()
  verified?: boolean;
}

export class SandboxChannelCreatedDto {
  @ApiProperty({ description: 'channel JID' })
  id!: string;

  @ApiProperty({ description: 'the code of the channel link' })
  inviteCode!: string;
}

export class SandboxStatusPrivacyDto {
  @ApiProperty({ enum: ['contacts', 'blacklist', 'whitelist'] })
  @IsDefined(REQUIRED)
  @IsIn(['contacts', 'blacklist', 'whitelist'])
  type!: 'contacts' | 'blacklist' | 'whitelist';

  @ApiPropertyOptional({ type: [String], description: 'user JIDs or numbers; empty for contacts' })
  @IsOptional()
  @IsArray()
  @ArrayMaxSize(1000)
  @IsString({ each: true })
  @NormalisedBy(USER_ID)
  @Follows(USER_ID)
  list?: string[];
}
