import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { IsBoolean, IsDefined, IsOptional, IsString } from 'class-validator';
import { IsBase64Data, IsNotBlank, MaxChars } from '../../messages/dto/message.validators';
import { REQUIRED } from '../../common/validators';

export const MAX_CHANNEL_NAME_CHARS = 100;
export const MAX_CHANNEL_DESCRIPTION_CHARS = 2048;

/** A channel as the network shows it to this account. */
export class NewsletterDto {
  @ApiProperty({ description: 'channel JID', example: '120363012345678901@newsletter' })
  id!: string;

  @ApiProperty()
  name!: string;

  @ApiProperty({ description: 'empty when the channel has none' })
  description!: string;

  @ApiProperty({ description: 'followers, not counting the owner' })
  subscriberCount!: number;

  @ApiProperty({ enum: ['VERIFIED', 'UNVERIFIED'] })
  verificationState!: string;

  @ApiPropertyOptional({ description: 'omitted when the channel has no picture' })
  pictureUrl?: string;

  @ApiPropertyOptional({
    description: 'what follows https://whatsapp.com/channel/ in the channel link',
    example: '0029VaZJ3D6I7BeB9vJ6yS0a',
  })
  inviteCode?: string;

  @ApiPropertyOptional({
    enum: ['OWNER', 'ADMIN', 'SUBSCRIBER'],
    description: "this account's role; omitted when it does not follow the channel",
  })
  role?: string;

  @ApiPropertyOptional({ enum: ['MUTED', 'UNMUTED'], description: 'omitted when the account does not follow the channel' })
  mute?: string;

  @ApiProperty({ enum: ['ACTIVE', 'SUSPENDED'] })
  state!: string;

  @ApiProperty({ format: 'date-time' })
  createdAt!: string;
}

/** `POST /newsletters`: a new channel owned by this account. */
export class CreateNewsletterDto {
  /** @example "Release notes" */
  @IsDefined(REQUIRED)
  @IsString()
  @IsNotBlank()
  @MaxChars(MAX_CHANNEL_NAME_CHARS)
  name!: string;

  /** @example "What changed, every week" */
  @IsOptional()
  @IsString()
  @MaxChars(MAX_CHANNEL_DESCRIPTION_CHARS)
  description?: string;

  /** The channel picture, base64-encoded (standard alphabet, no `data:` prefix). */
  @IsOptional()
  @IsString()
  @IsBase64Data()
  picture?: string;
}

export class NewsletterSubscriptionDto {
  @ApiProperty({ description: 'true follows the channel, false unfollows it' })
  @IsDefined(REQUIRED)
  @IsBoolean()
  subscribed!: boolean;
}

export class NewsletterMuteDto {
  @ApiProperty({ description: 'true mutes the channel, false unmutes it' })
  @IsDefined(REQUIRED)
  @IsBoolean()
  mute!: boolean;
}
