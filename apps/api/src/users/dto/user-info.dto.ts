import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';

/** The account's own profile. */
export class UserMeInfoDto {
  @ApiProperty({ description: 'the account (user JID)', example: '447700900123@s.whatsapp.net' })
  id!: string;

  @ApiProperty({ description: 'phone number, digits only', example: '447700900123' })
  phone!: string;

  @ApiPropertyOptional({ description: 'device number of this instance; omitted if 0', example: 12 })
  deviceId?: number;

  @ApiPropertyOptional({ description: 'display name; omitted when none is set' })
  pushName?: string;

  @ApiPropertyOptional({ description: 'omitted when not a business account' })
  businessName?: string;

  @ApiPropertyOptional({ description: 'about text; omitted when none is set' })
  status?: string;

  @ApiPropertyOptional({ description: 'id of the current profile picture; omitted when there is none' })
  pictureId?: string;
}

/** Another user, as far as their privacy settings let this account see them. */
export class UserInfoDto {
  @ApiProperty({ description: 'user JID', example: '447700900123@s.whatsapp.net' })
  id!: string;

  @ApiPropertyOptional({ description: 'LID-based JID; omitted when unknown', example: '222424242@lid' })
  lid?: string;

  @ApiProperty({ description: 'phone number, digits only', example: '447700900123' })
  phone!: string;

  @ApiProperty({ description: 'always true: numbers not on the network answer 404' })
  isInWhatsApp!: boolean;

  @ApiPropertyOptional({ description: 'the name the user set on their profile; omitted when unknown' })
  pushName?: string;

  @ApiPropertyOptional({ description: 'about text; omitted when none or hidden from this account' })
  status?: string;

  @ApiPropertyOptional({ description: 'id of the profile picture; omitted when none or hidden from this account' })
  pictureId?: string;

  @ApiPropertyOptional({ description: 'where to fetch the picture; omitted when the network gives no address' })
  pictureUrl?: string;

  @ApiPropertyOptional({ description: 'omitted when not a business account' })
  businessName?: string;

  @ApiProperty({ description: 'whether the network vouches for the business name' })
  isVerified!: boolean;
}

export class UserCheckDto {
  @ApiProperty()
  isInWhatsApp!: boolean;
}

export class BulkCheckResultDto {
  @ApiProperty({ description: 'the number as asked' })
  query!: string;

  @ApiProperty()
  isInWhatsApp!: boolean;

  @ApiPropertyOptional({ description: 'user JID; only for numbers on the network', example: '447700900123@s.whatsapp.net' })
  jid?: string;
}

/** Who may see or do what; each value is one of those the setting allows. */
export class PrivacySettingsDto {
  @ApiProperty({ description: 'who can add the account to groups: all, contacts, contact_blacklist' })
  groupAdd!: string;

  @ApiProperty({ description: 'who sees last seen: all, contacts, contact_blacklist, none' })
  lastSeen!: string;

  @ApiProperty({ description: 'who sees status updates and the about text: all, contacts, contact_blacklist, none' })
  status!: string;

  @ApiProperty({ description: 'who sees the profile picture: all, contacts, contact_blacklist, none' })
  profile!: string;

  @ApiProperty({ description: 'whether read receipts are sent: all, none' })
  readReceipts!: string;

  @ApiProperty({ description: 'who sees when the account is online: all, match_last_seen' })
  online!: string;

  @ApiProperty({ description: 'who can call: all, known' })
  callAdd!: string;
}
