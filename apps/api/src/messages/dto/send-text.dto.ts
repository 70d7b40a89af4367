import { IsDefined, IsOptional, IsString, ValidateIf } from 'class-validator';
import { MAX_TEXT_CHARS } from '@app/contracts';
import { ChatField } from './jid.validators';
import { ExclusiveWith, IsNotBlank, MaxChars } from './message.validators';
import { SendOptionsDto } from './send-options.dto';

export { MAX_TEXT_CHARS };

/** `POST /messages/text`. Exactly one of `message` and `text` carries the body; the service reads `message ?? text`. */
export class SendTextDto extends SendOptionsDto {
  /**
   * Recipient: a user JID, group JID, LID or international number (normalised to a JID).
   * @example "14155550123@s.whatsapp.net"
   */
  @ChatField()
  to!: string;

  /**
   * Message body (the contract's name for it). Send either `message` or `text`, not both.
   * @example "Hello!"
   */
  @ValidateIf((body: SendTextDto) => body.message != null || body.text == null)
  @IsDefined({ message: 'or text is required' })
  @IsString()
  @IsNotBlank()
  @MaxChars(MAX_TEXT_CHARS)
  @ExclusiveWith('text')
  message?: string;

  /** Alias of `message`, as clients of the contract family send it. */
  @IsOptional()
  @IsString()
  @IsNotBlank()
  @MaxChars(MAX_TEXT_CHARS)
  text?: string;
}
