import { IsDefined, IsOptional, IsString } from 'class-validator';
import { ChatField } from './jid.validators';
import { IsBase64Data, IsHttpUrl, MAX_URL_CHARS, MaxChars, REQUIRED, RequiredText, OptionalText } from './message.validators';
import { SendOptionsDto } from './send-options.dto';
import { MAX_TEXT_CHARS } from './send-text.dto';

export const MAX_LINK_TITLE_CHARS = 256;
export const MAX_LINK_DESCRIPTION_CHARS = 1024;

/** `POST /messages/link`: text with a link preview. */
export class SendLinkDto extends SendOptionsDto {
  /**
   * Recipient: a user JID, group JID, LID or international number (normalised to a JID).
   * @example "14155550123@s.whatsapp.net"
   */
  @ChatField()
  to!: string;

  /**
   * Message text sent with the link.
   * @example "Worth a read"
   */
  @RequiredText(MAX_TEXT_CHARS)
  text!: string;

  /**
   * The previewed http(s) URL.
   * @example "https://example.com/article"
   */
  @IsDefined(REQUIRED)
  @IsString()
  @MaxChars(MAX_URL_CHARS)
  @IsHttpUrl()
  url!: string;

  /** Preview title. */
  @OptionalText(MAX_LINK_TITLE_CHARS)
  title?: string;

  /** Preview description. */
  @OptionalText(MAX_LINK_DESCRIPTION_CHARS)
  description?: string;

  /** Preview image: a JPEG, base64-encoded. */
  @IsOptional()
  @IsString()
  @IsBase64Data()
  jpegThumbnail?: string;
}
