import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { Type } from 'class-transformer';
import {
  ArrayMaxSize,
  IsArray,
  IsBoolean,
  IsDefined,
  IsIn,
  IsNumber,
  IsObject,
  IsOptional,
  IsString,
  Length,
  Max,
  MaxLength,
  Min,
  MinLength,
  ValidateNested,
} from 'class-validator';
import { CHAT_PRESENCE_STATES, type SandboxPresenceState } from '@app/contracts';
import { Follows, NormalisedBy, REQUIRED, USER_ID } from '../../common/validators';
import { oneOf } from '../sandbox.validators';

const PRESENCE_STATES = ['available', 'unavailable', ...CHAT_PRESENCE_STATES] as const;
const AUDIENCES = ['all', 'contacts', 'contact_blacklist', 'none'] as const;
const TEXT_LIMIT = { message: 'must be at most 256 characters' };

/** A contact saved on the phone (`contact` event); one with a `fullName` is in the phone's address book. */
export class SandboxContactDto {
  /** The contact's JID or international number. */
  @IsDefined(REQUIRED)
  @IsString()
  id!: string;

  @IsOptional()
  @IsString()
  @MaxLength(100, { message: 'must be at most 100 characters' })
  pushName?: string;

  @IsOptional()
  @IsString()
  @MaxLength(100, { message: 'must be at most 100 characters' })
  fullName?: string;

  @IsOptional()
  @IsString()
  @MaxLength(100, { message: 'must be at most 100 characters' })
  businessName?: string;

  /** The contact's `…@lid` identity. */
  @IsOptional()
  @IsString()
  lid?: string;
}

export class SandboxPresenceDto {
  /** The contact (JID or international number). */
  @IsDefined(REQUIRED)
  @IsString()
  @NormalisedBy(USER_ID)
  @Follows(USER_ID)
  from!: string;

  /** available / unavailable: `user_presence`; typing / recording / paused: `chat_presence`. */
  @ApiProperty({ enum: PRESENCE_STATES })
  @IsDefined(REQUIRED)
  @IsIn(PRESENCE_STATES, oneOf(PRESENCE_STATES))
  state!: SandboxPresenceState;

  /** The chat typed in (typing, recording, paused); the contact's own chat when left out. */
  @IsOptional()
  @IsString()
  chatId?: string;
}

export class SandboxProfileDto {
  /** The contact (JID or international number). */
  @IsDefined(REQUIRED)
  @IsString()
  @NormalisedBy(USER_ID)
  @Follows(USER_ID)
  id!: string;

  /** A new push name (`chat_push_name`). */
  @IsOptional()
  @IsString()
  @MinLength(1, { message: 'must be 1-100 characters' })
  @MaxLength(100, { message: 'must be 1-100 characters' })
  pushName?: string;

  /** A new about text (`chat_status`). */
  @IsOptional()
  @IsString()
  @MaxLength(139, { message: 'must be at most 139 characters' })
  about?: string;

  /** true: a new profile picture (`chat_picture`). */
  @IsOptional()
  @IsBoolean()
  picture?: boolean;
}

/** Who may see a user's about text and picture. */
export class SandboxUserPrivacyDto {
  @ApiPropertyOptional({ enum: AUDIENCES, description: 'who sees the about text; all when left out' })
  @IsOptional()
  @IsIn(AUDIENCES, oneOf(AUDIENCES))
  status?: string;

  @ApiPropertyOptional({ enum: AUDIENCES, description: 'who sees the picture; all when left out' })
  @IsOptional()
  @IsIn(AUDIENCES, oneOf(AUDIENCES))
  profile?: string;
}

/** Someone who registers the number on the simulated network. */
export class SandboxUserDto {
  @ApiProperty({ description: 'international number', example: '447700900123' })
  @IsDefined(REQUIRED)
  @IsString()
  phone!: string;

  @ApiPropertyOptional({ example: '222424242@lid' })
  @IsOptional()
  @IsString()
  lid?: string;

  @ApiPropertyOptional()
  @IsOptional()
  @IsString()
  @Length(1, 25, { message: 'must be 1-25 characters' })
  pushName?: string;

  @ApiPropertyOptional({ description: 'about text' })
  @IsOptional()
  @IsString()
  @MaxLength(139, { message: 'must be at most 139 characters' })
  about?: string;

  @ApiPropertyOptional({ description: 'whether they set a profile picture' })
  @IsOptional()
  @IsBoolean()
  picture?: boolean;

  @ApiPropertyOptional({ description: 'a business account with this name' })
  @IsOptional()
  @IsString()
  @Length(1, 100, { message: 'must be 1-100 characters' })
  businessName?: string;

  @ApiPropertyOptional({ description: 'the network vouches for the business name' })
  @IsOptional()
  @IsBoolean()
  verified?: boolean;

  @ApiPropertyOptional({ description: "this account's number is in their address book (decides `contacts` privacy)" })
  @IsOptional()
  @IsBoolean()
  savedYou?: boolean;

  @ApiPropertyOptional({ type: SandboxUserPrivacyDto })
  @IsOptional()
  @IsObject()
  @ValidateNested()
  @Type(() => SandboxUserPrivacyDto)
  privacy?: SandboxUserPrivacyDto;
}

export class SandboxBusinessProfileDto {
  @ApiProperty({ description: "the business's user JID or international number" })
  @IsDefined(REQUIRED)
  @IsString()
  id!: string;

  @ApiProperty({ description: 'verified business name its messages carry' })
  @IsDefined(REQUIRED)
  @IsString()
  @MinLength(1, { message: 'must be 1-100 characters' })
  @MaxLength(100, { message: 'must be 1-100 characters' })
  name!: string;

  @ApiPropertyOptional()
  @IsOptional()
  @IsString()
  @MaxLength(256, TEXT_LIMIT)
  description?: string;

  @ApiPropertyOptional()
  @IsOptional()
  @IsString()
  @MaxLength(256, TEXT_LIMIT)
  address?: string;

  @ApiPropertyOptional()
  @IsOptional()
  @IsString()
  @MaxLength(256, TEXT_LIMIT)
  email?: string;

  @ApiPropertyOptional()
  @IsOptional()
  @IsString()
  @MaxLength(256, TEXT_LIMIT)
  website?: string;

  @ApiPropertyOptional()
  @IsOptional()
  @IsNumber()
  @Min(-90, { message: 'must be between -90 and 90' })
  @Max(90, { message: 'must be between -90 and 90' })
  latitude?: number;

  @ApiPropertyOptional()
  @IsOptional()
  @IsNumber()
  @Min(-180, { message: 'must be between -180 and 180' })
  @Max(180, { message: 'must be between -180 and 180' })
  longitude?: number;

  @ApiPropertyOptional({ type: String, isArray: true, description: 'category names' })
  @IsOptional()
  @IsArray()
  @ArrayMaxSize(3, { message: 'must name at most 3 categories' })
  @IsString({ each: true })
  categories?: string[];
}

export class SandboxProfilePictureDto {
  @ApiProperty({ description: "the contact's user JID or international number" })
  @IsDefined(REQUIRED)
  @IsString()
  id!: string;

  @ApiPropertyOptional({ description: "true: the contact's privacy settings hide the picture from this account" })
  @IsOptional()
  @IsBoolean()
  hidden?: boolean;
}

export class SandboxPictureSetDto {
  @ApiProperty()
  id!: string;

  @ApiProperty({ description: 'the new picture, as chat_picture events and GET /chats/{chatId}/picture name it' })
  pictureId!: string;
}
