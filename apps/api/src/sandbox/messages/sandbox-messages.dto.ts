import { ApiProperty } from '@nestjs/swagger';
import { Type } from 'class-transformer';
import {
  ArrayMaxSize,
  ArrayMinSize,
  IsArray,
  IsBoolean,
  IsDefined,
  IsISO8601,
  IsIn,
  IsInt,
  IsOptional,
  IsString,
  Max,
  MaxLength,
  Min,
  ValidateIf,
  ValidateNested,
} from 'class-validator';
import {
  CHAT_SETTING_TYPES,
  MEDIA_TYPES,
  REFUSAL_CODES,
  SANDBOX_INBOUND_TYPES,
  type ChatSettingType,
  type EphemeralTimer,
  type MediaType,
  type RefusalCode,
} from '@app/contracts';
import { CHAT_ID, Follows, NormalisedBy, REQUIRED, USER_ID } from '../../common/validators';
import { IsNotBlank, MaxChars } from '../../messages/dto/message.validators';
import { MAX_TEXT_CHARS } from '../../messages/dto/send-text.dto';
import { oneOf } from '../sandbox.validators';

const EPHEMERAL_TIMERS = ['off', '24h', '7d', '90d'] as const;
const PIN_TIMERS = ['24h', '7d', '30d'] as const;

/** The file a contact sends; the network gives it a download id. */
export class SandboxMediaDto {
  @ApiProperty({ enum: MEDIA_TYPES })
  @IsDefined(REQUIRED)
  @IsIn(MEDIA_TYPES, oneOf(MEDIA_TYPES))
  mediaType!: MediaType;

  /** Defaults to a usual type for the media type (image/jpeg, video/mp4, ...). */
  @IsOptional()
  @IsString()
  @MaxLength(100, { message: 'must be at most 100 characters' })
  mimeType?: string;

  @IsOptional()
  @IsString()
  @MaxLength(1024, { message: 'must be at most 1024 characters' })
  caption?: string;

  @IsOptional()
  @IsInt()
  @Min(0, { message: 'must not be negative' })
  fileLength?: number;

  /** The file's bytes, base64; `GET /media/download` answers exactly these. Stand-in bytes of `fileLength` when left out. */
  @IsOptional()
  @IsString()
  data?: string;

  @IsOptional()
  @IsInt()
  @Min(1, { message: 'must be at least 1' })
  width?: number;

  @IsOptional()
  @IsInt()
  @Min(1, { message: 'must be at least 1' })
  height?: number;

  /** Seconds (audio, voice, video). */
  @IsOptional()
  @IsInt()
  @Min(0, { message: 'must not be negative' })
  duration?: number;

  @IsOptional()
  @IsString()
  @MaxLength(255, { message: 'must be at most 255 characters' })
  filename?: string;

  @IsOptional()
  @IsInt()
  @Min(1, { message: 'must be at least 1' })
  pageCount?: number;

  @IsOptional()
  @IsBoolean()
  viewOnce?: boolean;
}

/** Something a contact sends: a message of any kind, or a tap on a reply button or list row. */
export class SandboxInboundDto {
  /** The sender's JID or international number. */
  @IsDefined(REQUIRED)
  @IsString()
  from!: string;

  /** The chat the message arrives in; the sender's own chat when left out (set a group JID for group messages). */
  @IsOptional()
  @IsString()
  chatId?: string;

  @ApiProperty({ enum: SANDBOX_INBOUND_TYPES })
  @IsDefined(REQUIRED)
  @IsIn(SANDBOX_INBOUND_TYPES, oneOf(SANDBOX_INBOUND_TYPES))
  type!: (typeof SANDBOX_INBOUND_TYPES)[number];

  /** The text of a text message. */
  @IsOptional()
  @IsString()
  @MaxLength(4096, { message: 'must be at most 4096 characters' })
  text?: string;

  /** The id of the message this one answers; required for taps. */
  @IsOptional()
  @IsString()
  replyTo?: string;

  /** The reply button tapped (button_reply). */
  @IsOptional()
  @IsString()
  buttonId?: string;

  /** The list row chosen (list_reply). */
  @IsOptional()
  @IsString()
  rowId?: string;

  /** The name the sender shows; a changed one is announced as `chat_push_name` first. */
  @IsOptional()
  @IsString()
  @MaxLength(100, { message: 'must be at most 100 characters' })
  pushName?: string;

  /** The file of a media message. */
  @IsOptional()
  @ValidateNested()
  @Type(() => SandboxMediaDto)
  media?: SandboxMediaDto;

  /** The message of the chat a reaction or pinInChat is about. */
  @IsOptional()
  @IsString()
  messageId?: string;

  /** The reaction; the empty string takes the sender's reaction back. */
  @IsOptional()
  @IsString()
  @MaxLength(16, { message: 'must be at most 16 characters' })
  emoji?: string;

  /** The vCards of a contact message (more than one makes a contactArray). */
  @IsOptional()
  @IsArray()
  @ArrayMinSize(1, { message: 'must have at least 1 item' })
  @ArrayMaxSize(100, { message: 'must have at most 100 items' })
  @IsString({ each: true })
  vcards?: string[];

  /** pinInChat: pin (default) or unpin. */
  @IsOptional()
  @IsBoolean()
  pinned?: boolean;

  /** pinInChat: how long the pin lasts (default 7d). */
  @ApiProperty({ enum: PIN_TIMERS, required: false })
  @IsOptional()
  @IsIn(PIN_TIMERS, oneOf(PIN_TIMERS))
  pinExpiration?: (typeof PIN_TIMERS)[number];

  @IsOptional()
  @IsBoolean()
  isForwarded?: boolean;

  /** People the message mentions (JIDs or international numbers). */
  @IsOptional()
  @IsArray()
  @ArrayMaxSize(1024, { message: 'must have at most 1024 items' })
  @IsString({ each: true })
  mentions?: string[];
}

/** Inbound messages delivered in one request, in order. */
export class SandboxInboundBatchDto {
  /** 1 to 1,000 messages, each as `POST /sandbox/inbound` takes it. */
  @ApiProperty({ type: () => [SandboxInboundDto] })
  @IsDefined(REQUIRED)
  @IsArray()
  @ArrayMinSize(1, { message: 'must have at least 1 item' })
  @ArrayMaxSize(1000, { message: 'must have at most 1000 items' })
  @ValidateNested({ each: true })
  @Type(() => SandboxInboundDto)
  messages!: SandboxInboundDto[];
}

export class CreatedIdsDto {
  /** The ids of the messages, in the order given. */
  ids!: string[];
}

export class SandboxReceiptDto {
  @IsDefined(REQUIRED)
  @IsString()
  messageId!: string;

  @ApiProperty({ enum: ['delivered', 'read', 'played'] })
  @IsDefined(REQUIRED)
  @IsIn(['delivered', 'read', 'played'], { message: 'must be delivered, read or played' })
  status!: 'delivered' | 'read' | 'played';

  /** Who reports it: required in a group (the member), the chat's contact otherwise. */
  @IsOptional()
  @IsString()
  from?: string;
}

export class SandboxDeleteDto {
  /** A message of this instance's chats (sent or received). */
  @IsDefined(REQUIRED)
  @IsString()
  messageId!: string;

  /** true: its author deletes it for everyone; false: the phone deletes it for this account only. */
  @IsDefined(REQUIRED)
  @IsBoolean()
  forEveryone!: boolean;
}

/** A contact edits the text of a message it sent to this instance. */
export class SandboxEditDto {
  /** A text message a contact sent to this instance. */
  @IsDefined(REQUIRED)
  @IsString()
  messageId!: string;

  /**
   * The new text.
   * @example "See you at 10 instead"
   */
  @IsDefined(REQUIRED)
  @IsString()
  @IsNotBlank()
  @MaxChars(MAX_TEXT_CHARS)
  text!: string;
}

export class SandboxStarDto {
  @IsDefined(REQUIRED)
  @IsString()
  messageId!: string;

  @IsDefined(REQUIRED)
  @IsBoolean()
  starred!: boolean;
}

export class SandboxChatSettingDto {
  /** The chat (JID or international number). */
  @IsDefined(REQUIRED)
  @IsString()
  chatId!: string;

  @ApiProperty({ enum: CHAT_SETTING_TYPES })
  @IsDefined(REQUIRED)
  @IsIn(CHAT_SETTING_TYPES, oneOf(CHAT_SETTING_TYPES))
  settingType!: ChatSettingType;

  /** Required for mute, pin, read and archive: muted, pinned, read, archived. */
  @IsOptional()
  @IsBoolean()
  enabled?: boolean;

  /** When a mute ends; a mute without one lasts until unmuted. */
  @IsOptional()
  @IsISO8601({ strict: true }, { message: 'must be an ISO 8601 date-time' })
  muteEndTime?: string;

  /** Required for ephemeral: the disappearing-message timer. */
  @ApiProperty({ enum: EPHEMERAL_TIMERS, required: false })
  @IsOptional()
  @IsIn(EPHEMERAL_TIMERS, oneOf(EPHEMERAL_TIMERS))
  expiration?: EphemeralTimer;

  /** ephemeral only: the contact who changed the timer; this account when left out. */
  @IsOptional()
  @IsString()
  from?: string;
}

/** A contact's message this device could not decrypt and never got again (`message_undecryptable`). */
export class SandboxUndecryptableDto {
  /** The contact who sent it (JID or international number). */
  @IsDefined(REQUIRED)
  @IsString()
  @NormalisedBy(USER_ID)
  @Follows(USER_ID)
  from!: string;

  /** The decryption error, as the real network's events carry it; `Bad MAC` when left out. */
  @IsOptional()
  @IsString()
  @IsNotBlank()
  @MaxLength(200, { message: 'must be at most 200 characters' })
  reason?: string;

  /** How many copies failed (1 to 6: the first and one per retry request); 1 when left out. */
  @IsOptional()
  @IsInt({ message: 'must be an integer' })
  @Min(1, { message: 'must be at least 1' })
  @Max(6, { message: 'must be at most 6' })
  attempts?: number;
}

export class SandboxLinkDropDto {
  /** The chat whose next messages lose their acknowledgement: a contact (JID or international number) or a group. */
  @IsDefined(REQUIRED)
  @IsString()
  @NormalisedBy(CHAT_ID)
  @Follows(CHAT_ID)
  chatId!: string;

  /** How many of the chat's next messages the link drops after (1-1000; 1 when left out); 0 stops. */
  @IsOptional()
  @IsInt()
  @Min(0)
  @Max(1000)
  times?: number;
}

export class SandboxRefusalDto {
  /** The chat whose messages the network refuses: a contact (JID or international number) or a group. */
  @IsDefined(REQUIRED)
  @IsString()
  @NormalisedBy(CHAT_ID)
  @Follows(CHAT_ID)
  chatId!: string;

  /**
   * The error-ack code the network answers each message with: 463 (account restricted from reaching out), 479
   * (invalid stanza), 421 (rate limited). null stops refusing.
   */
  @ApiProperty({ enum: REFUSAL_CODES, nullable: true })
  @ValidateIf((dto: SandboxRefusalDto) => dto.code !== null)
  @IsDefined(REQUIRED)
  @IsIn(REFUSAL_CODES, { message: 'must be 421, 463, 479 or null' })
  code!: RefusalCode | null;

  /** Refuse only this many messages (1-1000), then take them again; left out: every message until stopped. */
  @IsOptional()
  @IsInt()
  @Min(1)
  @Max(1000)
  times?: number;
}
