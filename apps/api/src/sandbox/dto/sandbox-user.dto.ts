import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { Type } from 'class-transformer';
import { IsBoolean, IsDefined, IsIn, IsObject, IsOptional, IsString, Length, MaxLength, ValidateNested } from 'class-validator';
import { REQUIRED } from '../../common/validators';

const AUDIENCES = ['all', 'contacts', 'contact_blacklist', 'none'] as const;
const oneOf = (values: readonly string[]) => ({ message: `must be one of ${values.join(', ')}` });

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
