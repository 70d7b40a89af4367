import { ApiProperty, ApiPropertyOptional, PickType } from '@nestjs/swagger';
import { Transform } from 'class-transformer';
import { IsDefined, IsEmail, IsString, MaxLength, MinLength } from 'class-validator';
import { MAX_PASSWORD_LENGTH } from '../passwords';

const REQUIRED = { message: 'is required' };
const lowerCased = ({ value }: { value: unknown }) => (typeof value === 'string' ? value.trim().toLowerCase() : value);

export class SignInDto {
  @IsDefined(REQUIRED)
  @Transform(lowerCased)
  @IsString()
  @MaxLength(254, { message: 'must be at most 254 characters' })
  @IsEmail({}, { message: 'must be an email address' })
  email!: string;

  @IsDefined(REQUIRED)
  @IsString()
  @MinLength(1, { message: 'must not be empty' })
  @MaxLength(MAX_PASSWORD_LENGTH, { message: `must be at most ${MAX_PASSWORD_LENGTH} characters` })
  password!: string;
}

export class AcceptLinkDto {
  /** At least 12 characters and not one of the most common passwords. Stored only as an argon2id hash. */
  @IsDefined(REQUIRED)
  @IsString()
  @MaxLength(MAX_PASSWORD_LENGTH, { message: `must be at most ${MAX_PASSWORD_LENGTH} characters` })
  password!: string;
}

/** The same email rules as signing in. */
export class InviteUserDto extends PickType(SignInDto, ['email'] as const) {}

/** Who is signed in. */
export class DashboardUserDto {
  id!: string;
  /** Lower-cased. */
  email!: string;
  customerId!: string;
  customerName!: string;
}

export class SignedInDto {
  user!: DashboardUserDto;
  /** Send it as `X-CSRF-Token` on every POST, PUT, PATCH and DELETE made with the session cookie. */
  csrfToken!: string;
}

export const LINK_PURPOSES = ['invite', 'password_reset'] as const;

export class LinkInfoDto {
  /** The user the link is for. */
  email!: string;
  customerName!: string;
  @ApiProperty({ format: 'date-time' })
  expiresAt!: string;
  @ApiProperty({ enum: LINK_PURPOSES })
  purpose!: (typeof LINK_PURPOSES)[number];
}

export const TEAM_MEMBER_STATUSES = ['active', 'invited'] as const;

export class TeamMemberDto {
  id!: string;
  email!: string;
  /** `invited` until the person set a password through their link. */
  @ApiProperty({ enum: TEAM_MEMBER_STATUSES })
  status!: (typeof TEAM_MEMBER_STATUSES)[number];
  @ApiProperty({ format: 'date-time' })
  createdAt!: string;
  @ApiPropertyOptional({ format: 'date-time' })
  lastSignInAt?: string;
}

export class InvitedUserDto {
  user!: TeamMemberDto;
  /** The one-time link that lets the person set a password. Shown only in this response. */
  inviteUrl!: string;
  @ApiProperty({ format: 'date-time' })
  inviteExpiresAt!: string;
}

export class OneTimeLinkDto {
  /** Shown only in this response; works once, until `expiresAt`. */
  inviteUrl!: string;
  @ApiProperty({ format: 'date-time' })
  expiresAt!: string;
}
