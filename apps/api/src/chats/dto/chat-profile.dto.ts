import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';

export class ChatPictureDto {
  @ApiProperty({ description: 'changes whenever the picture changes; matches chat_picture events', example: '1498720034' })
  pictureId!: string;

  @ApiProperty({ description: 'where the picture can be downloaded; the network expires such links after a while' })
  pictureUrl!: string;
}

export class BusinessCategoryDto {
  @ApiProperty()
  id!: string;

  @ApiProperty()
  name!: string;
}

export class BusinessHoursDto {
  @ApiProperty({ example: 'mon' })
  dayOfWeek!: string;

  @ApiProperty({ example: 'specific_hours', description: 'specific_hours, open_24h or appointment_only' })
  mode!: string;

  @ApiPropertyOptional({ example: '09:00' })
  openTime?: string;

  @ApiPropertyOptional({ example: '17:30' })
  closeTime?: string;
}

/** A business account's public profile; what the business did not fill in is left out. */
export class BusinessProfileDto {
  @ApiProperty({ description: 'the business account JID', example: '447700900123@s.whatsapp.net' })
  id!: string;

  @ApiPropertyOptional()
  description?: string;

  @ApiPropertyOptional()
  address?: string;

  @ApiPropertyOptional()
  email?: string;

  @ApiPropertyOptional()
  website?: string;

  @ApiPropertyOptional({ format: 'double' })
  latitude?: number;

  @ApiPropertyOptional({ format: 'double' })
  longitude?: number;

  @ApiPropertyOptional({ description: 'when the account became a business' })
  memberSince?: string;

  @ApiPropertyOptional({ type: BusinessCategoryDto, isArray: true })
  categories?: BusinessCategoryDto[];

  @ApiPropertyOptional({ type: BusinessHoursDto, isArray: true })
  businessHours?: BusinessHoursDto[];

  @ApiPropertyOptional({ example: 'Europe/London' })
  businessHoursTimeZone?: string;
}
