import { ApiProperty } from '@nestjs/swagger';
import { IsIn, IsOptional, IsString } from 'class-validator';
import { MediaDataField, MediaUrlField, OptionalText, RequiredText } from '../../messages/dto/message.validators';
import { IsMimeType, MAX_CAPTION_CHARS } from '../../messages/dto/send-media.dto';

/** The network's limit on the text of a text status. */
export const MAX_STATUS_TEXT_CHARS = 700;

export class StatusPrivacyDto {
  @ApiProperty({ enum: ['contacts', 'blacklist', 'whitelist'], description: 'all contacts, all contacts but `list`, or only `list`' })
  type!: string;

  @ApiProperty({ type: [String], description: 'user JIDs the setting excludes (blacklist) or includes (whitelist)' })
  list!: string[];

  @ApiProperty({ description: 'true while the account never changed the setting' })
  isDefault!: boolean;
}

export const STATUS_PRIVACY_FORMATS = ['object', 'list'] as const;

/**
 * `GET /status/privacy`. The family SDKs read the audience in force as one object (the default); `format=list` answers
 * every list the network keeps, the in-force one first: the shape this route had before (and the family's published
 * OpenAPI document shows), for clients written against it.
 */
export class StatusPrivacyQueryDto {
  @ApiProperty({ enum: STATUS_PRIVACY_FORMATS, required: false, default: 'object' })
  @IsOptional()
  @IsIn(STATUS_PRIVACY_FORMATS, { message: `must be one of ${STATUS_PRIVACY_FORMATS.join(', ')}` })
  format?: (typeof STATUS_PRIVACY_FORMATS)[number];
}

/** `POST /status/text`. */
export class PostTextStatusDto {
  /** @example "Back on Monday" */
  @RequiredText(MAX_STATUS_TEXT_CHARS)
  text!: string;
}

/**
 * Where the file comes from: exactly one of `url` (downloaded through the SSRF-safe client) and `data` (base64). Exported
 * so that scripts/generate-openapi-metadata.mjs can name it: the build reads its properties from that file.
 */
export abstract class PostMediaStatusDto {
  /**
   * http(s) URL the file is downloaded from (public addresses only, at most 50 MB). Not with `data`.
   * @example "https://example.com/photo.jpg"
   */
  @MediaUrlField()
  url?: string;

  /** The file, base64-encoded (standard alphabet, no `data:` prefix, no line breaks). Not with `url`. */
  @MediaDataField()
  data?: string;

  /** Text shown under the post. */
  @OptionalText(MAX_CAPTION_CHARS)
  caption?: string;
}

/** `POST /status/image`. */
export class PostImageStatusDto extends PostMediaStatusDto {
  /** MIME type (`image/*`); when omitted, the downloaded file's type, else `image/jpeg`. */
  @IsOptional()
  @IsString()
  @IsMimeType('image')
  mimeType?: string;
}

/** `POST /status/video`. */
export class PostVideoStatusDto extends PostMediaStatusDto {
  /** MIME type (`video/*`); when omitted, the downloaded file's type, else `video/mp4`. */
  @IsOptional()
  @IsString()
  @IsMimeType('video')
  mimeType?: string;
}
