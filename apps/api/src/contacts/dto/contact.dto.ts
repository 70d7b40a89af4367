import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { IsDefined, IsNotEmpty, IsOptional, IsString, MaxLength } from 'class-validator';
import { Follows, NormalisedBy, PHONE_USER_ID, REQUIRED } from '../../common/validators';

const NAME_LIMIT = { message: 'must be at most 100 characters' };

/** A person as the instance knows them; what is unknown is left out. */
export class IdentityDto {
  @ApiProperty({ description: 'phone-number JID when known, else the LID', example: '447700900123@s.whatsapp.net' })
  id!: string;

  @ApiPropertyOptional({ description: 'LID-based JID; omitted when unknown', example: '222424242@lid' })
  lid?: string;

  @ApiPropertyOptional({ description: 'international number without +; omitted when unknown', example: '447700900123' })
  phone?: string;
}

export class ContactInfoDto extends IdentityDto {
  @ApiPropertyOptional({ description: "name in the phone's address book; omitted when not saved" })
  fullName?: string;

  @ApiPropertyOptional({ description: "first name in the phone's address book; omitted when not saved" })
  firstName?: string;

  @ApiPropertyOptional({ description: 'the name the person set on their own profile; omitted when unknown' })
  pushName?: string;

  @ApiPropertyOptional({ description: 'verified business name; omitted when not a business' })
  businessName?: string;

  @ApiProperty({ description: "whether the person is saved in the phone's address book" })
  inPhoneAddressBook!: boolean;
}

export class SaveContactDto {
  @ApiProperty({ description: 'user JID or international number', example: '447700900123' })
  @IsDefined(REQUIRED)
  @IsString()
  @NormalisedBy(PHONE_USER_ID)
  @Follows(PHONE_USER_ID)
  id!: string;

  @ApiProperty({ description: 'name to save in the address book', example: 'Ann Example' })
  @IsDefined(REQUIRED)
  @IsString()
  @IsNotEmpty({ message: 'must not be empty' })
  @MaxLength(100, NAME_LIMIT)
  fullName!: string;

  @ApiPropertyOptional({ example: 'Ann' })
  @IsOptional()
  @IsString()
  @IsNotEmpty({ message: 'must not be empty' })
  @MaxLength(100, NAME_LIMIT)
  firstName?: string;
}
