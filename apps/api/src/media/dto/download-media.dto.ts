import { ApiProperty } from '@nestjs/swagger';
import { IsDefined, IsString, Matches } from 'class-validator';
import { REQUIRED } from '../../common/validators';

export class DownloadMediaQueryDto {
  @ApiProperty({ description: 'the `media.id` of a received `message` event' })
  @IsDefined(REQUIRED)
  @IsString()
  @Matches(/^[A-Za-z0-9_\-+/=.]{1,512}$/, { message: 'must be the media.id of a received message' })
  id!: string;
}
