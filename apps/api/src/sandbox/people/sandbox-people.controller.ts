import { Body, HttpCode, Post } from '@nestjs/common';
import { ApiCreatedResponse, ApiNoContentResponse } from '@nestjs/swagger';
import type { InstanceScope } from '@app/contracts';
import { CurrentScope } from '../../auth/scope';
import { CreatedIdDto } from '../../common/created-id.dto';
import { SandboxControlService } from '../sandbox-control.service';
import { SandboxRoutes } from '../sandbox-routes.decorator';
import {
  SandboxBusinessProfileDto,
  SandboxContactDto,
  SandboxPictureSetDto,
  SandboxPresenceDto,
  SandboxProfileDto,
  SandboxProfilePictureDto,
  SandboxUserDto,
} from './sandbox-people.dto';

/** Test mode: the people on the simulated network, their contacts entries, presence and profiles. Real instances answer 404. */
@SandboxRoutes()
export class SandboxPeopleController {
  constructor(private readonly sandbox: SandboxControlService) {}

  /** Adds or updates a contact in the simulated address book (`contact`). */
  @Post('contacts')
  @ApiCreatedResponse({ type: CreatedIdDto })
  contact(@CurrentScope() scope: InstanceScope, @Body() dto: SandboxContactDto): Promise<CreatedIdDto> {
    return this.sandbox.command(scope, 'sandbox.contact', dto);
  }

  /** A contact comes online or goes offline (`user_presence`), or types, records or pauses in a chat (`chat_presence`). */
  @Post('presence')
  @HttpCode(204)
  @ApiNoContentResponse({ description: 'presence announced' })
  async presence(@CurrentScope() scope: InstanceScope, @Body() dto: SandboxPresenceDto): Promise<void> {
    await this.sandbox.command(scope, 'sandbox.presence', dto);
  }

  /** A contact changes their push name, about text or picture (`chat_push_name`, `chat_status`, `chat_picture`). */
  @Post('profile')
  @HttpCode(204)
  @ApiNoContentResponse({ description: 'profile changed' })
  async profile(@CurrentScope() scope: InstanceScope, @Body() dto: SandboxProfileDto): Promise<void> {
    await this.sandbox.command(scope, 'sandbox.profile', dto);
  }

  /**
   * Registers a number on the simulated network (or updates its profile and privacy). The id is the user's JID.
   * Numbers the instance's world does not know (registered here, contacts, group members, senders) are not on it.
   */
  @Post('users')
  @ApiCreatedResponse({ type: CreatedIdDto })
  register(@CurrentScope() scope: InstanceScope, @Body() dto: SandboxUserDto): Promise<CreatedIdDto> {
    return this.sandbox.command(scope, 'sandbox.user', dto);
  }

  /** A contact becomes a business with this public profile; their messages carry the business name from now on. */
  @Post('business-profiles')
  @ApiCreatedResponse({ type: CreatedIdDto })
  businessProfile(@CurrentScope() scope: InstanceScope, @Body() dto: SandboxBusinessProfileDto): Promise<CreatedIdDto> {
    return this.sandbox.command(scope, 'sandbox.businessProfile', dto);
  }

  /** A contact sets a new profile picture (`chat_picture`, unless they hide it from this account). */
  @Post('profile-pictures')
  @ApiCreatedResponse({ type: SandboxPictureSetDto })
  profilePicture(@CurrentScope() scope: InstanceScope, @Body() dto: SandboxProfilePictureDto): Promise<SandboxPictureSetDto> {
    return this.sandbox.command(scope, 'sandbox.profilePicture', { id: dto.id, hidden: dto.hidden ?? false });
  }
}
