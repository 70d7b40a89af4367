import { ApiProperty } from '@nestjs/swagger';
import { IsDefined, IsIn, IsOptional, IsString, MaxLength, MinLength } from 'class-validator';
import { REQUIRED } from '../../common/validators';

export class SandboxPairDto {
  /** The phone number of the simulated phone; random when left out. */
  @IsOptional()
  @IsString()
  @MaxLength(20, { message: 'must be at most 20 characters' })
  phone?: string;

  /** Makes the network refuse the device: the instance stays unpaired and `login_error` carries this error. */
  @IsOptional()
  @IsString()
  @MinLength(1, { message: 'must be 1-200 characters' })
  @MaxLength(200, { message: 'must be 1-200 characters' })
  error?: string;
}

export class SandboxPairedDto {
  deviceId!: string;
}

export class SandboxConnectionDto {
  /** Take the phone's link offline or bring it back. */
  @ApiProperty({ enum: ['offline', 'online'] })
  @IsDefined(REQUIRED)
  @IsIn(['offline', 'online'], { message: 'must be offline or online' })
  state!: 'offline' | 'online';
}
