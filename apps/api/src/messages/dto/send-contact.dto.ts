import { IsDefined, IsOptional, IsString, ValidateBy, ValidateIf, buildMessage, type ValidationOptions } from 'class-validator';
import { ChatField } from './jid.validators';
import { IsNotBlank, MaxChars } from './message.validators';
import { SendOptionsDto } from './send-options.dto';

export const MAX_DISPLAY_NAME_CHARS = 256;
export const MAX_VCARD_CHARS = 65_536;

/** A single vCard: `BEGIN:VCARD` first and `END:VCARD` last (any version, CRLF or LF line ends). */
export function IsVCard(options?: ValidationOptions): PropertyDecorator {
  return ValidateBy(
    {
      name: 'isVCard',
      validator: {
        validate: (value: unknown) => typeof value === 'string' && /^BEGIN:VCARD\r?\n[\s\S]*\r?\nEND:VCARD\s*$/i.test(value.trimStart()),
        defaultMessage: buildMessage(() => 'must be a vCard (BEGIN:VCARD ... END:VCARD)', options),
      },
    },
    options,
  );
}

/** `POST /messages/contact`: a contact card from a display name (the gateway writes the vCard) or a raw vCard, or both. */
export class SendContactDto extends SendOptionsDto {
  /**
   * Recipient: a user JID, group JID, LID or international number (normalised to a JID).
   * @example "14155550123@s.whatsapp.net"
   */
  @ChatField()
  to!: string;

  /**
   * Name shown on the card; with `vcard` it only labels the card. One of `displayName` and `vcard` is required.
   * @example "Jane Doe"
   */
  @ValidateIf((body: SendContactDto) => body.displayName != null || body.vcard == null)
  @IsDefined({ message: 'or vcard is required' })
  @IsString()
  @IsNotBlank()
  @MaxChars(MAX_DISPLAY_NAME_CHARS)
  displayName?: string;

  /** A complete vCard (`BEGIN:VCARD` ... `END:VCARD`). */
  @IsOptional()
  @IsString()
  @MaxChars(MAX_VCARD_CHARS)
  @IsVCard()
  vcard?: string;
}
