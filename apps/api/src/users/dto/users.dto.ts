import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import {
  ArrayMaxSize,
  ArrayMinSize,
  IsArray,
  IsDefined,
  IsIn,
  IsOptional,
  IsString,
  Length,
  MaxLength,
  ValidateBy,
  type ValidationArguments,
} from 'class-validator';
import { PRESENCES, PRIVACY_SETTINGS, PRIVACY_VALUES, type Presence } from '@app/contracts';
import { BASE64_JPEG, Follows, PHONE, REQUIRED } from '../../common/validators';
import { ACCEPTED_PRIVACY_SETTING_NAMES, PRIVACY_RESPONSE_NAMES, privacySettingNamed } from '../privacy-names';

const oneOf = (values: readonly string[]) => ({ message: `must be one of ${values.join(', ')}` });
const ALL_PRIVACY_VALUES = [...new Set(Object.values(PRIVACY_VALUES).flat())];
export const MAX_PHONES_PER_CHECK = 50;

export class UpdateProfileDto {
  @ApiPropertyOptional({ description: 'display (push) name shown to people who do not have the number saved', maxLength: 25 })
  @IsOptional()
  @IsString()
  @Length(1, 25, { message: 'must be 1-25 characters' })
  name?: string;

  @ApiPropertyOptional({ description: 'about text; the empty string clears it', maxLength: 139 })
  @IsOptional()
  @IsString()
  @MaxLength(139, { message: 'must be at most 139 characters' })
  status?: string;

  @ApiPropertyOptional({ description: 'new profile picture: a JPEG image, base64-encoded' })
  @IsOptional()
  @IsString()
  @Follows(BASE64_JPEG)
  picture?: string;
}

const allowedFor = (args: ValidationArguments) => {
  const setting = privacySettingNamed(String((args.object as SetPrivacyDto).setting));
  return setting && PRIVACY_VALUES[setting];
};

/** A value the named setting allows; when the setting itself is unknown, only `setting` is reported. */
function IsAllowedForSetting(): PropertyDecorator {
  return ValidateBy({
    name: 'isAllowedForSetting',
    validator: {
      validate: (value: unknown, args) => {
        const allowed = allowedFor(args!);
        return !allowed || (typeof value === 'string' && allowed.includes(value));
      },
      defaultMessage: (args) =>
        `value for ${String((args!.object as SetPrivacyDto).setting)} must be one of ${(allowedFor(args!) || []).join(', ')}`,
    },
  });
}

export class SetPresenceDto {
  @ApiProperty({ enum: PRESENCES, description: 'whether the account shows as online to people allowed to see it' })
  @IsDefined(REQUIRED)
  @IsIn(PRESENCES, oneOf(PRESENCES))
  presence!: Presence;
}

export class SetPrivacyDto {
  @ApiProperty({
    enum: ACCEPTED_PRIVACY_SETTING_NAMES,
    description:
      'which setting to change, by its network name or as `GET /users/me/privacy` spells it: ' +
      PRIVACY_SETTINGS.map((setting) =>
        PRIVACY_RESPONSE_NAMES[setting] === setting ? setting : `${setting} or ${PRIVACY_RESPONSE_NAMES[setting]}`,
      ).join(', '),
  })
  @IsDefined(REQUIRED)
  @IsIn(ACCEPTED_PRIVACY_SETTING_NAMES, oneOf(ACCEPTED_PRIVACY_SETTING_NAMES))
  setting!: string;

  @ApiProperty({
    enum: ALL_PRIVACY_VALUES,
    description:
      'the new value; allowed per setting: ' +
      PRIVACY_SETTINGS.map((setting) => `${setting}: ${PRIVACY_VALUES[setting].join('|')}`).join('; '),
  })
  @IsDefined(REQUIRED)
  @IsString()
  @IsAllowedForSetting()
  value!: string;
}

export class BulkCheckDto {
  @ApiProperty({ type: [String], description: `international numbers, 1-${MAX_PHONES_PER_CHECK}`, example: ['447700900123'] })
  @IsDefined(REQUIRED)
  @IsArray()
  @IsString({ each: true })
  @ArrayMinSize(1, { message: 'must contain at least one number' })
  @ArrayMaxSize(MAX_PHONES_PER_CHECK, { message: `must contain at most ${MAX_PHONES_PER_CHECK} numbers` })
  @Follows(PHONE)
  phones!: string[];
}
