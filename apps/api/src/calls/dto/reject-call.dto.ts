import { ApiProperty } from '@nestjs/swagger';
import { IsDefined, IsString } from 'class-validator';
import { CALLER_ID, Follows, NormalisedBy, REQUIRED } from '../../common/validators';

export class RejectCallDto {
  @ApiProperty({
    description: 'who is calling: the caller of the call_offer event, as a user JID, LID or international number',
    example: '447700900123@s.whatsapp.net',
  })
  @IsDefined(REQUIRED)
  @IsString()
  @NormalisedBy(CALLER_ID)
  @Follows(CALLER_ID)
  callerId!: string;
}
