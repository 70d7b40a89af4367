import { ApiProperty } from '@nestjs/swagger';
import { Type } from 'class-transformer';
import {
  ArrayMaxSize,
  ArrayMinSize,
  IsArray,
  IsBoolean,
  IsDefined,
  IsIn,
  IsInt,
  IsISO8601,
  IsOptional,
  IsString,
  MaxLength,
  Min,
  MinLength,
  ValidateNested,
} from 'class-validator';
import {
  CHAT_PRESENCE_STATES,
  CHAT_SETTING_TYPES,
  MEDIA_TYPES,
  SANDBOX_INBOUND_TYPES,
  type ChatSettingType,
  type EphemeralTimer,
  type MediaType,
  type SandboxPresenceState,
} from '@app/contracts';

const REQUIRED = { message: 'is required' };
const oneOf = (values: readonly string[]) => ({ message: `must be one of ${values.join(', ')}` });
const PRESENCE_STATES = ['available', 'unavailable', ...CHAT_PRESENCE_STATES] as const;
const EPHEMERAL_TIMERS = ['off', '24h', '7d', '90d'] as const;
const PIN_TIMERS = ['24h', '7d', '30d'] as const;
const NEWSLETTER_ROLES = ['SUBSCRIBER', 'ADMIN', 'OWNER'] as const;

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

/** A contact saved on the phone (`contact` event); one with a `fullName` is in the phone's address book. */
export class SandboxContactDto {
  /** The contact's JID or international number. */
  @IsDefined(REQUIRED)
  @IsString()
  id!: string;

  @IsOptional()
  @IsString()
  @MaxLength(100, { message: 'must be at most 100 characters' })
  pushName?: string;

  @IsOptional()
  @IsString()
  @MaxLength(100, { message: 'must be at most 100 characters' })
  fullName?: string;

  @IsOptional()
  @IsString()
  @MaxLength(100, { message: 'must be at most 100 characters' })
  businessName?: string;

  /** The contact's `…@lid` identity. */
  @IsOptional()
  @IsString()
  lid?: string;
}

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

export class SandboxStarDto {
  @IsDefined(REQUIRED)
  @IsString()
  messageId!: string;

  @IsDefined(REQUIRED)
  @IsBoolean()
  starred!: boolean;
}

export class SandboxPresenceDto {
  /** The contact (JID or international number). */
  @IsDefined(REQUIRED)
  @IsString()
  from!: string;

  /** available / unavailable: `user_presence`; typing / recording / paused: `chat_presence`. */
  @ApiProperty({ enum: PRESENCE_STATES })
  @IsDefined(REQUIRED)
  @IsIn(PRESENCE_STATES, oneOf(PRESENCE_STATES))
  state!: SandboxPresenceState;

  /** The chat typed in (typing, recording, paused); the contact's own chat when left out. */
  @IsOptional()
  @IsString()
  chatId?: string;
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

export class SandboxProfileDto {
  /** The contact (JID or international number). */
  @IsDefined(REQUIRED)
  @IsString()
  id!: string;

  /** A new push name (`chat_push_name`). */
  @IsOptional()
  @IsString()
  @MinLength(1, { message: 'must be 1-100 characters' })
  @MaxLength(100, { message: 'must be 1-100 characters' })
  pushName?: string;

  /** A new about text (`chat_status`). */
  @IsOptional()
  @IsString()
  @MaxLength(139, { message: 'must be at most 139 characters' })
  about?: string;

  /** true: a new profile picture (`chat_picture`). */
  @IsOptional()
  @IsBoolean()
  picture?: boolean;
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

export class SandboxNewsletterDto {
  @IsDefined(REQUIRED)
  @IsString()
  @MinLength(1, { message: 'must be 1-100 characters' })
  @MaxLength(100, { message: 'must be 1-100 characters' })
  name!: string;

  /** This account's role in the channel; SUBSCRIBER when left out. */
  @ApiProperty({ enum: NEWSLETTER_ROLES, required: false })
  @IsOptional()
  @IsIn(NEWSLETTER_ROLES, oneOf(NEWSLETTER_ROLES))
  role?: (typeof NEWSLETTER_ROLES)[number];
}

export class SandboxNewsletterMuteDto {
  @IsDefined(REQUIRED)
  @IsBoolean()
  muted!: boolean;
}

export class SandboxCallDto {
  /** The caller (JID or international number). */
  @IsDefined(REQUIRED)
  @IsString()
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

export class OutboxEntryDto {
  /** The message id, as returned by the send. */
  id!: string;
  /** The chat it was sent to. */
  to!: string;
  type!: string;
  /** What the network received, as rendered for the recipient. */
  @ApiProperty({ type: 'object', additionalProperties: true })
  content!: Record<string, unknown>;
  receivedAt!: string;
}

export class InboxEntryDto {
  /** The message id. */
  id!: string;
  /** The contact who sent it. */
  from!: string;
  /** The chat it arrived in. */
  chatId!: string;
  type!: string;
  /** The message as this account's phone shows it now (reactions, deletes, stars, pins included). */
  @ApiProperty({ type: 'object', additionalProperties: true })
  content!: Record<string, unknown>;
  receivedAt!: string;
}

export class NetworkOperationDto {
  /** The operation, e.g. `chats.archive` or `groups.participants`. */
  name!: string;
  /** Its arguments as the network received them (JIDs normalised). */
  @ApiProperty({ type: 'object', additionalProperties: true })
  args!: Record<string, unknown>;
  at!: string;
}
