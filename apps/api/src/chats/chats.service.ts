import { Injectable } from '@nestjs/common';
import { AppError, type InstanceScope } from '@app/contracts';
import { ChatStoreRepository } from '@app/database';
import { CommandClient } from '@app/redis';
import { chatBody } from './chat-body';
import type { ArchiveChatDto, ChatDto } from './dto/chat.dto';

/** Chats: read from the store the worker keeps; changed on the network through the instance's session. */
@Injectable()
export class ChatsService {
  constructor(
    private readonly chats: ChatStoreRepository,
    private readonly commands: CommandClient,
  ) {}

  async list(scope: InstanceScope): Promise<ChatDto[]> {
    const now = new Date();
    return (await this.chats.listFromReplica(scope.instanceId)).map((chat) => chatBody(chat, now));
  }

  async get(scope: InstanceScope, chatId: string): Promise<ChatDto> {
    const chat = await this.chats.findFromReplica(scope.instanceId, chatId);
    if (!chat) throw new AppError('not_found');
    return chatBody(chat);
  }

  async archive(scope: InstanceScope, chatId: string, dto: ArchiveChatDto): Promise<void> {
    await this.commands.perform(scope.instanceId, 'chats.archive', { chatId, archived: dto.archived });
  }
}
