import { Body, Controller, Get, HttpCode, Param, Post, Put } from '@nestjs/common';
import { ApiCreatedResponse, ApiNoContentResponse, ApiOkResponse, ApiTags } from '@nestjs/swagger';
import type { InstanceScope } from '@app/contracts';
import { InstanceAuth } from '../auth/auth.decorators';
import { CurrentScope } from '../auth/scope';
import { ApiErrors } from '../common/api-errors.decorator';
import { CreatedIdDto } from '../common/created-id.dto';
import { RequiresConnection } from '../instance-state/connected-instance.guard';
import { CreateNewsletterDto, NewsletterDto, NewsletterMuteDto, NewsletterSubscriptionDto } from './dto/newsletter.dto';
import { inviteCodeParam, newsletterIdParam } from './newsletter-param.pipe';
import { NewslettersService } from './newsletters.service';

/** Channels (newsletters): the ones the account follows, creating its own, looking up, following and muting others. */
@ApiTags('Newsletters')
@InstanceAuth()
@Controller('newsletters')
export class NewslettersController {
  constructor(private readonly newsletters: NewslettersService) {}

  /** Every channel the account follows or owns, in the order it followed them. */
  @Get()
  @RequiresConnection()
  @ApiOkResponse({ type: NewsletterDto, isArray: true })
  followed(@CurrentScope() scope: InstanceScope): Promise<NewsletterDto[]> {
    return this.newsletters.followed(scope);
  }

  /** Creates a channel this account owns; a `newsletter` join event with role OWNER follows. */
  @Post()
  @RequiresConnection()
  @ApiCreatedResponse({ type: CreatedIdDto, description: 'the new channel JID' })
  create(@CurrentScope() scope: InstanceScope, @Body() dto: CreateNewsletterDto): Promise<CreatedIdDto> {
    return this.newsletters.create(scope, dto);
  }

  /** A channel found by the code of its link (`https://whatsapp.com/channel/<code>`). */
  @Get('invite/:code')
  @RequiresConnection()
  @ApiOkResponse({ type: NewsletterDto })
  @ApiErrors(404)
  byInviteCode(@CurrentScope() scope: InstanceScope, @Param('code', inviteCodeParam()) code: string): Promise<NewsletterDto> {
    return this.newsletters.byInviteCode(scope, code);
  }

  /** One channel, followed or not. */
  @Get(':id')
  @RequiresConnection()
  @ApiOkResponse({ type: NewsletterDto })
  @ApiErrors(404)
  byId(@CurrentScope() scope: InstanceScope, @Param('id', newsletterIdParam()) id: string): Promise<NewsletterDto> {
    return this.newsletters.byId(scope, id);
  }

  /**
   * Follows or unfollows the channel (`newsletter` join or leave event); asking for the current state changes
   * nothing. The owner cannot unfollow their own channel (403).
   */
  @Put(':id/subscription')
  @HttpCode(204)
  @RequiresConnection()
  @ApiNoContentResponse({ description: 'subscription updated' })
  @ApiErrors(404)
  subscription(
    @CurrentScope() scope: InstanceScope,
    @Param('id', newsletterIdParam()) id: string,
    @Body() dto: NewsletterSubscriptionDto,
  ): Promise<void> {
    return this.newsletters.subscription(scope, id, dto);
  }

  /** Mutes or unmutes a followed channel (`newsletter` mute event); 404 for a channel the account does not follow. */
  @Put(':id/mute')
  @HttpCode(204)
  @RequiresConnection()
  @ApiNoContentResponse({ description: 'mute updated' })
  @ApiErrors(404)
  mute(@CurrentScope() scope: InstanceScope, @Param('id', newsletterIdParam()) id: string, @Body() dto: NewsletterMuteDto): Promise<void> {
    return this.newsletters.mute(scope, id, dto);
  }
}
