import { IsBoolean, IsOptional, IsString, ValidateBy, buildMessage, type ValidationOptions } from 'class-validator';
import { ChatField } from './jid.validators';
import { MediaDataField, MediaUrlField, OptionalText, RequiredText } from './message.validators';
import { SendOptionsDto } from './send-options.dto';

export const MAX_CAPTION_CHARS = 1024;
export const MAX_FILENAME_CHARS = 255;
const MAX_MIME_TYPE_CHARS = 255;

const MIME_TYPE = /^([A-Za-z0-9][A-Za-z0-9!#$&^_.+-]{0,126})\/[A-Za-z0-9][A-Za-z0-9!#$&^_.+-]{0,126}(\s*;.*)?$/;

/** `type/subtype[; parameters]`; with `family`, the type must be that one (`image/png` for images). */
export function IsMimeType(family?: 'image' | 'video' | 'audio', options?: ValidationOptions): PropertyDecorator {
  const rule = family
    ? `must be ${family === 'image' || family === 'audio' ? 'an' : 'a'} ${family}/* MIME type`
    : 'must be a MIME type such as application/pdf';
  return ValidateBy(
    {
      name: 'isMimeType',
      constraints: [family],
      validator: {
        validate: (value: unknown) => {
          if (typeof value !== 'string' || value.length > MAX_MIME_TYPE_CHARS) return false;
          const match = MIME_TYPE.exec(value);
          return match !== null && (family === undefined || match[1].toLowerCase() === family);
        },
        defaultMessage: buildMessage(() => rule, options),
      },
    },
    options,
  );
}

/** Where the media comes from: exactly one of `url` (fetched by the gateway) and `data` (base64). */
export class MediaSendDto extends SendOptionsDto {
  /**
   * Recipient: a user JID, group JID, LID or international number (normalised to a JID).
   * @example "14155550123@s.whatsapp.net"
   */
  @ChatField()
  to!: string;

  /**
   * http(s) URL the gateway downloads the file from (public addresses only, at most 50 MB). Not with `data`.
   * @example "https://example.com/file.jpg"
   */
  @MediaUrlField()
  url?: string;

  /** The file itself, base64-encoded (standard alphabet, no `data:` prefix, no line breaks). Not with `url`. */
  @MediaDataField()
  data?: string;
}

/** `POST /messages/image`. */
export class SendImageDto extends MediaSendDto {
  /** MIME type (`image/*`); detected from the file when omitted. */
  @IsOptional()
  @IsString()
  @IsMimeType('image')
  mimeType?: string;

  /** Text shown under the image. */
  @OptionalText(MAX_CAPTION_CHARS)
  caption?: string;

  /** Let the recipient open it once only. */
  @IsOptional()
  @IsBoolean()
  viewOnce?: boolean;
}

/** `POST /messages/video`. */
export class SendVideoDto extends MediaSendDto {
  /** MIME type (`video/*`); detected from the file when omitted. */
  @IsOptional()
  @IsString()
  @IsMimeType('video')
  mimeType?: string;

  /** Text shown under the video. */
  @OptionalText(MAX_CAPTION_CHARS)
  caption?: string;

  /** Let the recipient open it once only. */
  @IsOptional()
  @IsBoolean()
  viewOnce?: boolean;
}

/** `POST /messages/audio`: an audio file. Audio messages carry no caption on the network, so none is accepted. */
export class SendAudioDto extends MediaSendDto {
  /** MIME type (`audio/*`); detected from the file when omitted. */
  @IsOptional()
  @IsString()
  @IsMimeType('audio')
  mimeType?: string;

  /** Let the recipient play it once only. */
  @IsOptional()
  @IsBoolean()
  viewOnce?: boolean;
}

/** `POST /messages/voice`: a push-to-talk voice note (Ogg/Opus plays best). No caption, as for audio. */
export class SendVoiceDto extends MediaSendDto {
  /** MIME type (`audio/*`, e.g. `audio/ogg; codecs=opus`); detected from the file when omitted. */
  @IsOptional()
  @IsString()
  @IsMimeType('audio')
  mimeType?: string;

  /** Let the recipient play it once only. */
  @IsOptional()
  @IsBoolean()
  viewOnce?: boolean;
}

/** `POST /messages/document`. Documents cannot be view-once on the network, so `viewOnce` is not accepted. */
export class SendDocumentDto extends MediaSendDto {
  /**
   * File name shown to the recipient.
   * @example "report.pdf"
   */
  @RequiredText(MAX_FILENAME_CHARS)
  filename!: string;

  /** MIME type; detected from the file when omitted. */
  @IsOptional()
  @IsString()
  @IsMimeType()
  mimeType?: string;

  /** Text shown under the document. */
  @OptionalText(MAX_CAPTION_CHARS)
  caption?: string;
}

/** `POST /messages/sticker`: a WebP sticker. */
export class SendStickerDto extends MediaSendDto {
  /** The WebP is animated. */
  @IsOptional()
  @IsBoolean()
  isAnimated?: boolean;
}
