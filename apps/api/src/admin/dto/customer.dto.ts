import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { Transform } from 'class-transformer';
import { IsBoolean, IsDefined, IsEmail, IsIn, IsOptional, IsString, Matches, MaxLength, MinLength } from 'class-validator';
import { PageQueryDto } from '../../common/page-query.dto';

const NAME_RULE = 'must be 1-200 characters, not only spaces';

export class CreateCustomerDto {
  @IsString()
  @MinLength(1, { message: NAME_RULE })
  @MaxLength(200, { message: NAME_RULE })
  @Matches(/\S/, { message: NAME_RULE })
  name!: string;

  /** The first dashboard user: the response carries their one-time invite link (no mail is sent). */
  @IsOptional()
  @Transform(({ value }: { value: unknown }) => (typeof value === 'string' ? value.trim().toLowerCase() : value))
  @IsString()
  @MaxLength(254, { message: 'must be at most 254 characters' })
  @IsEmail({}, { message: 'must be an email address' })
  ownerEmail?: string;
}

export class OwnerInviteDto {
  /** One-time link that lets the owner set a password. Shown only in this response. */
  url!: string;
  @ApiProperty({ format: 'date-time' })
  expiresAt!: string;
}

export class CreatedCustomerDto {
  id!: string;
  name!: string;
  /** The customer's API key. Shown only in this response. */
  apiKey!: string;
  /** Present when `ownerEmail` was given. */
  @ApiPropertyOptional({ type: OwnerInviteDto })
  ownerInvite?: OwnerInviteDto;
}

export class CustomerSummaryDto {
  id!: string;
  name!: string;
  /** ISO 8601, UTC. */
  created!: string;
  /** A disabled customer's keys and dashboard sessions are refused. */
  disabled!: boolean;
}

export class CustomerPageDto {
  items!: CustomerSummaryDto[];
  totalCount!: number;
  pageNumber!: number;
  pageSize!: number;
}

export class ListCustomersQueryDto extends PageQueryDto {
  /** `asc` (default): oldest first. `desc`: newest first, as an operator console shows them. */
  @IsOptional()
  @IsIn(['asc', 'desc'], { message: 'must be asc or desc' })
  order?: 'asc' | 'desc';
}

export class SetDisabledDto {
  @IsDefined({ message: 'is required' })
  @IsBoolean()
  disabled!: boolean;
}

/** Sessions a worker opens after it acquires shards, paced by `RESUME_RATE_PER_SECOND`. */
export class ResumeProgressDto {
  /** Sessions still waiting for their turn to open (their sends are accepted and wait in their queue). */
  pending!: number;
  /** Sessions opened so far. */
  resumed!: number;
  /** pending + resumed. */
  total!: number;
}

export class WorkerDto {
  /** `<host>-<pid>-<random>`, as the worker names itself. */
  id!: string;
  /** Shards whose lease this worker holds now. */
  @ApiProperty({ type: 'integer', isArray: true })
  shards!: number[];
  /** When its membership lapses unless renewed (it renews every few seconds while alive). */
  @ApiProperty({ format: 'date-time' })
  aliveUntil!: string;
  /** Its takeover in progress (or its last one), e.g. 420 of 2,000 opened; absent until the worker publishes it. */
  resume?: ResumeProgressDto;
}

export class ShardCountsDto {
  total!: number;
  owned!: number;
  /** Shards no worker holds: their instances have no network session until one takes them. */
  unowned!: number;
}

export class InstanceCountsDto {
  total!: number;
  /** Instances per status (as last recorded in PostgreSQL). */
  @ApiProperty({ type: 'object', additionalProperties: { type: 'integer' }, example: { connected: 3, unpaired: 1 } })
  byStatus!: Record<string, number>;
}

export class CustomerCountsDto {
  total!: number;
  disabled!: number;
}

export class OverviewDto {
  workers!: WorkerDto[];
  shards!: ShardCountsDto;
  instances!: InstanceCountsDto;
  customers!: CustomerCountsDto;
}
