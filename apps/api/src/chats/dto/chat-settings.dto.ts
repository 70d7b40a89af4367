import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { CHAT_PRESENCE_STATES, type ChatPresenceState, type EphemeralTimer } from '@app/contracts';
import { IsBoolean, IsDefined, IsIn, IsInt, IsOptional, IsString, Max, MaxLength, Min } from 'class-validator';
import { Follows, NormalisedBy, REQUIRED, USER_ID } from '../../common/validators';

const oneOf = (values: readonly string[]) => ({ message: `must be one of ${values.join(', ')}` });

export const EPHEMERAL_TIMERS = ['off', '24h', '7d', '90d'] as const;
export const MUTE_DURATIONS = ['8h', '1w', 'always', 'off'] as const;
export type MuteDuration = (typeof MUTE_DURATIONS)[number];
export const MAX_HISTORY_COUNT = 500;
export const DEFAULT_HISTORY_COUNT = 50;

export class ChatPresenceDto {
  @ApiProperty({ enum: CHAT_PRESENCE_STATES, description: 'what the other side sees this account doing in the chat' })
  @IsDefined(REQUIRED)
  @IsString()
  @IsIn(CHAT_PRESENCE_STATES, oneOf(CHAT_PRESENCE_STATES))
  state!: ChatPresenceState;
}

export class ChatEphemeralDto {
  @ApiProperty({ enum: EPHEMERAL_TIMERS, description: 'how long new messages stay in the chat; off keeps them' })
  @IsDefined(REQUIRED)
  @IsString()
  @IsIn(EPHEMERAL_TIMERS, oneOf(EPHEMERAL_TIMERS))
  expiration!: EphemeralTimer;
}

export class MuteChatDto {
  @ApiProperty({ enum: MUTE_DURATIONS, description: 'mute for 8 hours, a week, until unmuted (always), or unmute (off)' })
  @IsDefined(REQUIRED)
  @IsString()
  @IsIn(MUTE_DURATIONS, oneOf(MUTE_DURATIONS))
  duration!: MuteDuration;
}

export class PinChatDto {
  @ApiProperty({ description: 'true pins the chat (at most 3 at a time), false unpins it' })
  @IsDefined(REQUIRED)
  @IsBoolean()
  pinned!: boolean;
}

export class MarkChatReadDto {
  @ApiProperty({ description: 'true marks the chat read, false marks it unread' })
  @IsDefined(REQUIRED)
  @IsBoolean()
  read!: boolean;
}

export class RequestChatHistoryDto {
  @ApiProperty({ description: 'id of the oldest message the caller already has in this chat', example: '3EB0A0B0C1D2E3F4A5B6C7' })
  @IsDefined(REQUIRED)
  @IsString()
  @MaxLength(128, { message: 'must be at most 128 characters' })
  lastMessageId!: string;

  @ApiProperty({ description: 'who sent that message: a user JID or an international number', example: '447700900123' })
  @IsDefined(REQUIRED)
  @IsString()
  @NormalisedBy(USER_ID)
  @Follows(USER_ID)
  lastMessageSenderId!: string;

  @ApiPropertyOptional({
    minimum: 1,
    maximum: MAX_HISTORY_COUNT,
    default: DEFAULT_HISTORY_COUNT,
    description: 'how many older messages to fetch',
  })
  @IsOptional()
  @IsInt()
  @Min(1, { message: 'must be at least 1' })
  @Max(MAX_HISTORY_COUNT, { message: `must be at most ${MAX_HISTORY_COUNT}` })
  count?: number;
}

export class HistoryRequestedDto {
  @ApiProperty({ example: 'ok', description: 'the request reached the phone; messages follow as message_history_sync events' })
  status!: 'ok';
}
