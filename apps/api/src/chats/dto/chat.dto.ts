import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { IsBoolean, IsDefined } from 'class-validator';
import { REQUIRED } from '../../common/validators';

/** A chat as the instance knows it, with what it knows of the person (fields it does not know are left out). */
export class ChatDto {
  @ApiProperty({ description: 'chat JID (user or group)', example: '447700900123@s.whatsapp.net' })
  id!: string;

  @ApiPropertyOptional({ description: 'LID-based JID; omitted for groups or when unknown', example: '222424242@lid' })
  lid?: string;

  @ApiProperty()
  isGroup!: boolean;

  @ApiProperty()
  isArchived!: boolean;

  @ApiProperty()
  isPinned!: boolean;

  @ApiProperty()
  isMuted!: boolean;

  @ApiPropertyOptional({ format: 'date-time', description: 'when the mute expires; omitted when not muted or muted until unmuted' })
  muteEndTime?: string;

  @ApiPropertyOptional({ description: 'the name the person set on their own profile; omitted when unknown' })
  pushName?: string;

  @ApiPropertyOptional({ description: 'omitted when not a business' })
  businessName?: string;

  @ApiPropertyOptional({ description: "name in the account's address book; omitted when unknown" })
  fullName?: string;

  @ApiPropertyOptional({ format: 'date-time', description: 'last message in the chat; omitted when unknown' })
  lastActivity?: string;
}

export class ArchiveChatDto {
  @ApiProperty({ description: 'true archives the chat, false unarchives it' })
  @IsDefined(REQUIRED)
  @IsBoolean()
  archived!: boolean;
}
