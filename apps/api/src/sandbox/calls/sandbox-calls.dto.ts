import { ApiProperty } from '@nestjs/swagger';
import { IsBoolean, IsDefined, IsIn, IsOptional, IsString } from 'class-validator';
import { Follows, NormalisedBy, REQUIRED, USER_ID } from '../../common/validators';

export class SandboxCallDto {
  /** The caller (JID or international number). */
  @IsDefined(REQUIRED)
  @IsString()
  @NormalisedBy(USER_ID)
  @Follows(USER_ID)
  from!: string;

  @IsOptional()
  @IsBoolean()
  video?: boolean;

  /** A group call: the group the caller calls from (the caller must be a member). */
  @IsOptional()
  @IsString()
  groupId?: string;
}

export class SandboxCallEndDto {
  /** ended: either side hung up; rejected: the phone declined while it rang. */
  @ApiProperty({ enum: ['ended', 'rejected'] })
  @IsDefined(REQUIRED)
  @IsIn(['ended', 'rejected'], { message: 'must be ended or rejected' })
  reason!: 'ended' | 'rejected';
}
