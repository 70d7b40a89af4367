import { Injectable } from '@nestjs/common';
import { AppError, type InstanceScope } from '@app/contracts';
import { ChatStoreRepository } from '@app/database';
import { CommandClient } from '@app/redis';
import type { BusinessProfileDto, ChatPictureDto } from './dto/chat-profile.dto';
import {
  DEFAULT_HISTORY_COUNT,
  type ChatEphemeralDto,
  type ChatPresenceDto,
  type HistoryRequestedDto,
  type MarkChatReadDto,
  type MuteChatDto,
  type MuteDuration,
  type PinChatDto,
  type RequestChatHistoryDto,
} from './dto/chat-settings.dto';

const HOUR_MS = 3_600_000;
/** How long each timed mute lasts; `always` has no end and `off` unmutes. */
const MUTE_MS: Partial<Record<MuteDuration, number>> = { '8h': 8 * HOUR_MS, '1w': 7 * 24 * HOUR_MS };

/** Chat settings, presence, history and lookups, each carried out on the network through the instance's session. */
@Injectable()
export class ChatSettingsService {
  constructor(
    private readonly chats: ChatStoreRepository,
    private readonly commands: CommandClient,
  ) {}

  async mute(scope: InstanceScope, chatId: string, dto: MuteChatDto): Promise<void> {
    const muted = dto.duration !== 'off';
    const lasts = MUTE_MS[dto.duration];
    // The network takes the end as an absolute time, so the duration is turned into one here, once.
    const until = lasts === undefined ? undefined : new Date(Date.now() + lasts).toISOString();
    await this.commands.perform(scope.instanceId, 'chats.mute', { chatId, muted, ...(until ? { until } : {}) });
  }

  async pin(scope: InstanceScope, chatId: string, dto: PinChatDto): Promise<void> {
    await this.commands.perform(scope.instanceId, 'chats.pin', { chatId, pinned: dto.pinned });
  }

  async read(scope: InstanceScope, chatId: string, dto: MarkChatReadDto): Promise<void> {
    await this.commands.perform(scope.instanceId, 'chats.read', { chatId, read: dto.read });
  }

  async ephemeral(scope: InstanceScope, chatId: string, dto: ChatEphemeralDto): Promise<void> {
    await this.commands.perform(scope.instanceId, 'chats.ephemeral', { chatId, expiration: dto.expiration });
  }

  async presence(scope: InstanceScope, chatId: string, dto: ChatPresenceDto): Promise<void> {
    await this.commands.perform(scope.instanceId, 'chats.presence', { chatId, state: dto.state });
  }

  async subscribePresence(scope: InstanceScope, chatId: string): Promise<void> {
    await this.commands.perform(scope.instanceId, 'chats.subscribePresence', { chatId });
  }

  async remove(scope: InstanceScope, chatId: string): Promise<void> {
    await this.requireKnown(scope, chatId);
    await this.commands.perform(scope.instanceId, 'chats.delete', { chatId });
  }

  async clear(scope: InstanceScope, chatId: string): Promise<void> {
    await this.requireKnown(scope, chatId);
    await this.commands.perform(scope.instanceId, 'chats.clear', { chatId });
  }

  async requestHistory(scope: InstanceScope, chatId: string, dto: RequestChatHistoryDto): Promise<HistoryRequestedDto> {
    await this.commands.perform(scope.instanceId, 'chats.requestHistory', {
      chatId,
      lastMessageId: dto.lastMessageId,
      lastMessageSenderId: dto.lastMessageSenderId,
      count: dto.count ?? DEFAULT_HISTORY_COUNT,
    });
    return { status: 'ok' };
  }

  picture(scope: InstanceScope, chatId: string): Promise<ChatPictureDto> {
    return this.commands.perform(scope.instanceId, 'chats.picture', { chatId });
  }

  business(scope: InstanceScope, chatId: string): Promise<BusinessProfileDto> {
    return this.commands.perform(scope.instanceId, 'chats.businessProfile', { chatId });
  }

  /** Deleting or clearing needs the chat's latest messages on the real network, so only known chats qualify. */
  private async requireKnown(scope: InstanceScope, chatId: string): Promise<void> {
    if (!(await this.chats.find(scope.instanceId, chatId))) throw new AppError('not_found');
  }
}
