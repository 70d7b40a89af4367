import { IsDefined, IsString } from 'class-validator';
import { IsNotBlank, MaxChars, REQUIRED } from '../../messages/dto/message.validators';
import { MAX_TEXT_CHARS } from '../../messages/dto/send-text.dto';

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
