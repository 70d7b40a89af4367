import { ApiProperty } from '@nestjs/swagger';
import { ArrayMaxSize, IsArray, IsBoolean, IsIn, IsOptional, IsString } from 'class-validator';
import { IsUserId, ToUserJid } from './jid.validators';
import { IsNotBlank, MaxChars, RequiresField } from './message.validators';

/**
 * Disappearing-message timers the network offers, as the contract family spells them (docs/decisions.md, Family
 * compatibility).
 */
export const EPHEMERAL_EXPIRATIONS = ['off', '24h', '7d', '90d'] as const;
export type EphemeralExpiration = (typeof EPHEMERAL_EXPIRATIONS)[number];

/** The timer in seconds, as the network's `ephemeralExpiration` field takes it. */
export const EPHEMERAL_SECONDS: Readonly<Record<EphemeralExpiration, number>> = {
  off: 0,
  '24h': 86_400,
  '7d': 604_800,
  '90d': 7_776_000,
};

export const MAX_MENTIONS = 1024;
export const MAX_MESSAGE_ID_CHARS = 128;

/** The disappearing-message option, on its own for sends that take no other option (location). */
export class EphemeralOptionDto {
  /** Disappearing-message timer for this message; the chat's own setting applies when omitted. */
  @ApiProperty({ enum: EPHEMERAL_EXPIRATIONS, required: false })
  @IsOptional()
  @IsString()
  @IsIn(EPHEMERAL_EXPIRATIONS, { message: `must be one of ${EPHEMERAL_EXPIRATIONS.join(', ')}` })
  ephemeralExpiration?: EphemeralExpiration;
}

/** Options shared by text, media, contact and link sends. Buttons and lists take none of them. */
export class SendOptionsDto extends EphemeralOptionDto {
  /**
   * People mentioned in the message (user JIDs, LIDs or international numbers, normalised to JIDs).
   * @example ["14155550123@s.whatsapp.net"]
   */
  @ApiProperty({ maxItems: MAX_MENTIONS })
  @IsOptional()
  @IsArray()
  @ArrayMaxSize(MAX_MENTIONS, { message: `must have at most ${MAX_MENTIONS} items` })
  @IsString({ each: true })
  @IsUserId({ each: true })
  @ToUserJid()
  mentions?: string[];

  /** Id of the message this one quotes. */
  @IsOptional()
  @IsString()
  @IsNotBlank()
  @MaxChars(MAX_MESSAGE_ID_CHARS)
  replyTo?: string;

  /** Sender of the quoted message, needed when quoting someone else's message in a group; only with `replyTo`. */
  @IsOptional()
  @IsString()
  @IsUserId()
  @RequiresField('replyTo')
  @ToUserJid()
  replyToSenderId?: string;

  /** Show the message as forwarded. */
  @IsOptional()
  @IsBoolean()
  isForwarded?: boolean;
}
