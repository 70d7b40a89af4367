import { ApiProperty } from '@nestjs/swagger';
import { ArrayMaxSize, IsArray, IsBoolean, IsDefined, IsIn, IsOptional, IsString, MaxLength, MinLength } from 'class-validator';

const REQUIRED = { message: 'is required' };

export class SandboxPairDto {
  /** The phone number of the simulated phone; random when left out. */
  @IsOptional()
  @IsString()
  @MaxLength(20, { message: 'must be at most 20 characters' })
  phone?: string;
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

export class SandboxInboundDto {
  /** The sender's JID or international number. */
  @IsDefined(REQUIRED)
  @IsString()
  from!: string;

  /** The chat the message arrives in; the sender's own chat when left out (set a group JID for group messages). */
  @IsOptional()
  @IsString()
  chatId?: string;

  @ApiProperty({ enum: ['text', 'button_reply', 'list_reply'] })
  @IsDefined(REQUIRED)
  @IsIn(['text', 'button_reply', 'list_reply'], { message: 'must be text, button_reply or list_reply' })
  type!: 'text' | 'button_reply' | 'list_reply';

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

  @IsOptional()
  @IsString()
  @MaxLength(100, { message: 'must be at most 100 characters' })
  pushName?: string;
}

export class SandboxReceiptDto {
  @IsDefined(REQUIRED)
  @IsString()
  messageId!: string;

  @ApiProperty({ enum: ['delivered', 'read'] })
  @IsDefined(REQUIRED)
  @IsIn(['delivered', 'read'], { message: 'must be delivered or read' })
  status!: 'delivered' | 'read';
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
