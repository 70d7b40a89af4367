import { Module } from '@nestjs/common';
import { ChatSettingsController } from './chat-settings.controller';
import { ChatSettingsService } from './chat-settings.service';
import { ChatsController } from './chats.controller';
import { ChatsService } from './chats.service';

@Module({ controllers: [ChatsController, ChatSettingsController], providers: [ChatsService, ChatSettingsService] })
export class ChatsModule {}
