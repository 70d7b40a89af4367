import { ApiProperty } from '@nestjs/swagger';
import { ArrayMaxSize, IsArray, IsBoolean, IsDefined, IsOptional, IsString, MaxLength, MinLength } from 'class-validator';
import { REQUIRED } from '../../common/validators';

export class SandboxGroupDto {
  @IsDefined(REQUIRED)
  @IsString()
  @MinLength(1, { message: 'must be 1-100 characters' })
  @MaxLength(100, { message: 'must be 1-100 characters' })
  name!: string;

  /** Members besides this instance (JIDs or numbers). */
  @IsDefined(REQUIRED)
  @IsArray()
  @ArrayMaxSize(1024, { message: 'must have at most 1024 items' })
  @IsString({ each: true })
  participants!: string[];

  /** Which participants are admins. */
  @IsDefined(REQUIRED)
  @IsArray()
  @IsString({ each: true })
  admins!: string[];

  /** Whether this instance is an admin of the group. */
  @IsDefined(REQUIRED)
  @IsBoolean()
  selfIsAdmin!: boolean;

  /** Create a community (with its announcement group and a default sub-group holding the participants). */
  @IsOptional()
  @IsBoolean()
  community?: boolean;
}

/** Exactly one change per request, as the network announces them. */
export class SandboxGroupChangeDto {
  /** The member making the change; this account when left out. */
  @IsOptional()
  @IsString()
  by?: string;

  /** Members added (admins only). */
  @IsOptional()
  @IsArray()
  @ArrayMaxSize(1024, { message: 'must have at most 1024 items' })
  @IsString({ each: true })
  join?: string[];

  /** Members who leave, or are removed by an admin. */
  @IsOptional()
  @IsArray()
  @ArrayMaxSize(1024, { message: 'must have at most 1024 items' })
  @IsString({ each: true })
  leave?: string[];

  @IsOptional()
  @IsArray()
  @ArrayMaxSize(1024, { message: 'must have at most 1024 items' })
  @IsString({ each: true })
  promote?: string[];

  @IsOptional()
  @IsArray()
  @ArrayMaxSize(1024, { message: 'must have at most 1024 items' })
  @IsString({ each: true })
  demote?: string[];

  @IsOptional()
  @IsString()
  @MinLength(1, { message: 'must be 1-100 characters' })
  @MaxLength(100, { message: 'must be 1-100 characters' })
  name?: string;

  @IsOptional()
  @IsString()
  @MaxLength(2048, { message: 'must be at most 2048 characters' })
  topic?: string;

  /** Only admins may edit the group's info. */
  @IsOptional()
  @IsBoolean()
  locked?: boolean;

  /** Only admins may send messages. */
  @IsOptional()
  @IsBoolean()
  announce?: boolean;

  /** true: a new group picture (`chat_picture`). */
  @IsOptional()
  @IsBoolean()
  picture?: boolean;
}

export class SandboxJoinRequestDto {
  @ApiProperty({ description: 'who asks to join (user JID or international number)' })
  @IsDefined(REQUIRED)
  @IsString()
  from!: string;
}
