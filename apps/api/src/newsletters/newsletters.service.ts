import { Injectable } from '@nestjs/common';
import type { InstanceScope } from '@app/contracts';
import { CommandClient } from '@app/redis';
import type { CreatedIdDto } from '../common/created-id.dto';
import type { CreateNewsletterDto, NewsletterDto, NewsletterMuteDto, NewsletterSubscriptionDto } from './dto/newsletter.dto';

/**
 * Channels live on the network only: every read and change is asked of it through the instance's session, and the
 * network's answer is the response (optional fields left out, never null).
 */
@Injectable()
export class NewslettersService {
  constructor(private readonly commands: CommandClient) {}

  async followed(scope: InstanceScope): Promise<NewsletterDto[]> {
    const { newsletters } = await this.commands.perform(scope.instanceId, 'newsletters.followed', {});
    return newsletters;
  }

  async create(scope: InstanceScope, dto: CreateNewsletterDto): Promise<CreatedIdDto> {
    const created = await this.commands.perform(scope.instanceId, 'newsletters.create', {
      name: dto.name,
      ...(dto.description !== undefined ? { description: dto.description } : {}),
      ...(dto.picture !== undefined ? { picture: dto.picture } : {}),
    });
    return { id: created.id };
  }

  async byInviteCode(scope: InstanceScope, code: string): Promise<NewsletterDto> {
    return this.commands.perform(scope.instanceId, 'newsletters.metadata', { by: 'invite', key: code });
  }

  async byId(scope: InstanceScope, id: string): Promise<NewsletterDto> {
    return this.commands.perform(scope.instanceId, 'newsletters.metadata', { by: 'jid', key: id });
  }

  async subscription(scope: InstanceScope, id: string, dto: NewsletterSubscriptionDto): Promise<void> {
    await this.commands.perform(scope.instanceId, 'newsletters.subscription', { id, subscribed: dto.subscribed });
  }

  async mute(scope: InstanceScope, id: string, dto: NewsletterMuteDto): Promise<void> {
    await this.commands.perform(scope.instanceId, 'newsletters.mute', { id, muted: dto.mute });
  }
}
