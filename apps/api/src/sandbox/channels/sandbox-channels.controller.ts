import { Body, HttpCode, Param, Post, Put } from '@nestjs/common';
import { ApiCreatedResponse, ApiNoContentResponse } from '@nestjs/swagger';
import type { InstanceScope } from '@app/contracts';
import { CurrentScope } from '../../auth/scope';
import { CreatedIdDto } from '../../common/created-id.dto';
import { SandboxControlService } from '../sandbox-control.service';
import { SandboxRoutes } from '../sandbox-routes.decorator';
import {
  SandboxChannelCreatedDto,
  SandboxChannelDto,
  SandboxNewsletterDto,
  SandboxNewsletterMuteDto,
  SandboxStatusPrivacyDto,
} from './sandbox-channels.dto';

/** Test mode: channels the phone follows and channels others own, and the phone's status privacy. Real instances answer 404. */
@SandboxRoutes()
export class SandboxChannelsController {
  constructor(private readonly sandbox: SandboxControlService) {}

  /** The phone follows a channel (`newsletter`, action join). */
  @Post('newsletters')
  @ApiCreatedResponse({ type: CreatedIdDto })
  joinNewsletter(@CurrentScope() scope: InstanceScope, @Body() dto: SandboxNewsletterDto): Promise<CreatedIdDto> {
    return this.sandbox.command(scope, 'sandbox.newsletterJoin', { name: dto.name, role: dto.role ?? 'SUBSCRIBER' });
  }

  /** The phone stops following a channel (`newsletter`, action leave). */
  @Post('newsletters/:id/leave')
  @HttpCode(204)
  @ApiNoContentResponse({ description: 'channel left' })
  async leaveNewsletter(@CurrentScope() scope: InstanceScope, @Param('id') id: string): Promise<void> {
    await this.sandbox.command(scope, 'sandbox.newsletterLeave', { id });
  }

  /** The phone mutes or unmutes a channel (`newsletter`, action mute). */
  @Post('newsletters/:id/mute')
  @HttpCode(204)
  @ApiNoContentResponse({ description: 'channel muted or unmuted' })
  async muteNewsletter(
    @CurrentScope() scope: InstanceScope,
    @Param('id') id: string,
    @Body() dto: SandboxNewsletterMuteDto,
  ): Promise<void> {
    await this.sandbox.command(scope, 'sandbox.newsletterMute', { id, muted: dto.muted });
  }

  /** A channel someone else owns appears on the network; the account does not follow it. */
  @Post('channels')
  @ApiCreatedResponse({ type: SandboxChannelCreatedDto })
  publishChannel(@CurrentScope() scope: InstanceScope, @Body() dto: SandboxChannelDto): Promise<SandboxChannelCreatedDto> {
    return this.sandbox.command(scope, 'sandbox.channel', dto);
  }

  /** The phone changes who may see the account's status posts. */
  @Put('status-privacy')
  @HttpCode(204)
  @ApiNoContentResponse({ description: 'status privacy changed' })
  async statusPrivacy(@CurrentScope() scope: InstanceScope, @Body() dto: SandboxStatusPrivacyDto): Promise<void> {
    await this.sandbox.command(scope, 'sandbox.statusPrivacy', { type: dto.type, list: dto.list ?? [] });
  }
}
