import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import {
  ArrayMaxSize,
  IsArray,
  IsBoolean,
  IsDefined,
  IsNumber,
  IsOptional,
  IsString,
  Max,
  MaxLength,
  Min,
  MinLength,
} from 'class-validator';
import { REQUIRED } from '../../common/validators';

const TEXT_LIMIT = { message: 'must be at most 256 characters' };

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
