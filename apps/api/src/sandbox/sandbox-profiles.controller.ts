import { Body, Controller, Post } from '@nestjs/common';
import { ApiCreatedResponse, ApiTags } from '@nestjs/swagger';
import type { InstanceScope } from '@app/contracts';
import { InstanceAuth } from '../auth/auth.decorators';
import { CurrentScope } from '../auth/scope';
import { ApiErrors } from '../common/api-errors.decorator';
import { CreatedIdDto } from '../common/created-id.dto';
import { SandboxBusinessProfileDto, SandboxPictureSetDto, SandboxProfilePictureDto } from './dto/sandbox-profiles.dto';
import { SandboxProfilesService } from './sandbox-profiles.service';

/** Test mode: contacts turn into businesses and change their profile pictures. Real instances answer 404. */
@ApiTags('Sandbox')
@InstanceAuth()
@ApiErrors(404, 503)
@Controller('sandbox')
export class SandboxProfilesController {
  constructor(private readonly profiles: SandboxProfilesService) {}

  /** A contact becomes a business with this public profile; their messages carry the business name from now on. */
  @Post('business-profiles')
  @ApiCreatedResponse({ type: CreatedIdDto })
  businessProfile(@CurrentScope() scope: InstanceScope, @Body() dto: SandboxBusinessProfileDto): Promise<CreatedIdDto> {
    return this.profiles.businessProfile(scope, dto);
  }

  /** A contact sets a new profile picture (`chat_picture`, unless they hide it from this account). */
  @Post('profile-pictures')
  @ApiCreatedResponse({ type: SandboxPictureSetDto })
  profilePicture(@CurrentScope() scope: InstanceScope, @Body() dto: SandboxProfilePictureDto): Promise<SandboxPictureSetDto> {
    return this.profiles.profilePicture(scope, dto);
  }
}
