import { IsDefined, IsNumber, IsOptional, IsString, Max, Min } from 'class-validator';
import { ChatField } from './jid.validators';
import { IsHttpUrl, MAX_URL_CHARS, MaxChars, REQUIRED, OptionalText } from './message.validators';
import { EphemeralOptionDto } from './send-options.dto';

export const MAX_LOCATION_NAME_CHARS = 256;
export const MAX_LOCATION_ADDRESS_CHARS = 1024;

const LATITUDE_RULE = { message: 'must be from -90 to 90' };
const LONGITUDE_RULE = { message: 'must be from -180 to 180' };

/**
 * `POST /messages/location`. As in the contract family, the only send option it takes is `ephemeralExpiration`
 * (docs/decisions.md, Family compatibility).
 */
export class SendLocationDto extends EphemeralOptionDto {
  /**
   * Recipient: a user JID, group JID, LID or international number (normalised to a JID).
   * @example "14155550123@s.whatsapp.net"
   */
  @ChatField()
  to!: string;

  /**
   * Degrees north, -90 to 90.
   * @example 51.5034
   */
  @IsDefined(REQUIRED)
  @IsNumber({ allowNaN: false, allowInfinity: false })
  @Min(-90, LATITUDE_RULE)
  @Max(90, LATITUDE_RULE)
  latitude!: number;

  /**
   * Degrees east, -180 to 180.
   * @example -0.1276
   */
  @IsDefined(REQUIRED)
  @IsNumber({ allowNaN: false, allowInfinity: false })
  @Min(-180, LONGITUDE_RULE)
  @Max(180, LONGITUDE_RULE)
  longitude!: number;

  /** Name of the place. */
  @OptionalText(MAX_LOCATION_NAME_CHARS)
  name?: string;

  /** Address of the place. */
  @OptionalText(MAX_LOCATION_ADDRESS_CHARS)
  address?: string;

  /** http(s) link about the place. */
  @IsOptional()
  @IsString()
  @MaxChars(MAX_URL_CHARS)
  @IsHttpUrl()
  url?: string;
}
