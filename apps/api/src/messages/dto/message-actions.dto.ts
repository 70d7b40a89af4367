import { ApiProperty, PickType } from '@nestjs/swagger';
import {
  IsBoolean,
  IsDefined,
  IsIn,
  IsOptional,
  IsString,
  ValidateBy,
  buildMessage,
  type ValidationArguments,
  type ValidationOptions,
} from 'class-validator';
import {
  PIN_EXPIRATIONS,
  SEND_RECEIPT_TYPES as RECEIPT_TYPES,
  type PinExpiration,
  type SendReceiptType as ReceiptType,
} from '@app/contracts';
import { IsUserId, ToUserJid, ChatField } from './jid.validators';
import { IsDateTime, REQUIRED, charCount, RequiredText } from './message.validators';
import { SendOptionsDto } from './send-options.dto';
import { MAX_TEXT_CHARS } from './send-text.dto';

/** The longest emoji sequences (ZWJ families with skin tones, tag flags) stay well under this many code points. */
const MAX_REACTION_CODE_POINTS = 16;
const graphemes = new Intl.Segmenter(undefined, { granularity: 'grapheme' });

/**
 * One emoji as people see it: a single grapheme cluster that is pictographic (with any skin tone, variation
 * selector or ZWJ parts), a flag (two regional indicators) or a keycap (`1️⃣`). Letters and digits are not reactions.
 */
export function isSingleEmoji(value: string): boolean {
  if (charCount(value) > MAX_REACTION_CODE_POINTS) return false;
  const clusters = [...graphemes.segment(value)];
  if (clusters.length !== 1) return false;
  return /\p{Extended_Pictographic}/u.test(value) || /^\p{Regional_Indicator}{2}$/u.test(value) || /^[0-9#*]\uFE0F?\u20E3$/u.test(value);
}

/** A single emoji, or the empty string (removes the caller's reaction). */
export function IsReaction(options?: ValidationOptions): PropertyDecorator {
  return ValidateBy(
    {
      name: 'isReaction',
      validator: {
        validate: (value: unknown) => typeof value === 'string' && (value === '' || isSingleEmoji(value)),
        defaultMessage: buildMessage(() => 'must be a single emoji, or empty to remove the reaction', options),
      },
    },
    options,
  );
}

/** `pinExpiration` makes sense only when pinning. */
export function IsOnlyWhenPinning(options?: ValidationOptions): PropertyDecorator {
  return ValidateBy(
    {
      name: 'isOnlyWhenPinning',
      validator: {
        validate: (_value: unknown, args?: ValidationArguments) => args === undefined || (args.object as PinMessageDto).pinned !== false,
        defaultMessage: buildMessage(() => 'must not be set when pinned is false', options),
      },
    },
    options,
  );
}

/** `POST /messages/{messageId}/edit`: new text for one of the caller's own messages. */
export class EditMessageDto extends PickType(SendOptionsDto, ['mentions', 'ephemeralExpiration'] as const) {
  /**
   * Chat of the message: a user JID, group JID, LID or international number (normalised to a JID).
   * @example "14155550123@s.whatsapp.net"
   */
  @ChatField()
  to!: string;

  /**
   * The new text.
   * @example "Updated message"
   */
  @RequiredText(MAX_TEXT_CHARS)
  text!: string;
}

/** Identifies a message by its chat and sender; the id is in the path. */
export class MessageRefDto {
  /**
   * Chat of the message: a user JID, group JID, LID or international number (normalised to a JID).
   * @example "14155550123@s.whatsapp.net"
   */
  @ChatField()
  chatId!: string;

  /**
   * Who sent the message: a user JID, LID or international number (normalised to a JID).
   * @example "14155550123@s.whatsapp.net"
   */
  @IsDefined(REQUIRED)
  @IsString()
  @IsUserId()
  @ToUserJid()
  senderId!: string;
}

/** `POST /messages/{messageId}/delete`: delete one of the caller's own messages for everyone. */
export class DeleteMessageDto extends MessageRefDto {}

/** `POST /messages/{messageId}/delete-for-me`: remove a message from the caller's own chat only. */
export class DeleteMessageForMeDto {
  /**
   * Chat of the message: a user JID, group JID, LID or international number (normalised to a JID).
   * @example "14155550123@s.whatsapp.net"
   */
  @ChatField()
  chatId!: string;

  /** Who sent the message: a user JID, LID or international number (normalised to a JID). */
  @IsOptional()
  @IsString()
  @IsUserId()
  @ToUserJid()
  senderId?: string;

  /** The caller sent the message. */
  @IsOptional()
  @IsBoolean()
  isFromMe?: boolean;

  /**
   * When the message was sent (ISO 8601 date-time).
   * @example "2025-05-19T00:51:44.816Z"
   */
  @IsOptional()
  @IsString()
  @IsDateTime()
  timestamp?: string;
}

/** `POST /messages/{messageId}/reaction`. */
export class SendReactionDto {
  /**
   * Chat of the message: a user JID, group JID, LID or international number (normalised to a JID).
   * @example "14155550123@s.whatsapp.net"
   */
  @ChatField()
  to!: string;

  /** Who sent the message reacted to (needed in groups): a user JID, LID or international number. */
  @IsOptional()
  @IsString()
  @IsUserId()
  @ToUserJid()
  senderId?: string;

  /**
   * One emoji; the empty string removes the caller's reaction.
   * @example "👍"
   */
  @IsDefined(REQUIRED)
  @IsString()
  @IsReaction()
  reaction!: string;
}

/** `POST /messages/{messageId}/read`. */
export class MarkAsReadDto extends MessageRefDto {
  /** Receipt to send: delivered, sender, read or played (voice notes, view-once media). */
  @ApiProperty({ enum: RECEIPT_TYPES })
  @IsDefined(REQUIRED)
  @IsString()
  @IsIn(RECEIPT_TYPES, { message: `must be one of ${RECEIPT_TYPES.join(', ')}` })
  receiptType!: ReceiptType;
}

/** `POST /messages/{messageId}/star`. */
export class StarMessageDto extends MessageRefDto {
  /** true stars the message, false unstars it. */
  @IsOptional()
  @IsBoolean()
  starred?: boolean = true;
}

/** `POST /messages/{messageId}/pin`. */
export class PinMessageDto extends MessageRefDto {
  /** true pins the message, false unpins it. */
  @IsOptional()
  @IsBoolean()
  pinned?: boolean = true;

  /** How long the pin lasts (24h, 7d or 30d); the network's default applies when omitted. Only when pinning. */
  @ApiProperty({ enum: PIN_EXPIRATIONS, required: false })
  @IsOptional()
  @IsString()
  @IsIn(PIN_EXPIRATIONS, { message: `must be one of ${PIN_EXPIRATIONS.join(', ')}` })
  @IsOnlyWhenPinning()
  pinExpiration?: PinExpiration;
}
