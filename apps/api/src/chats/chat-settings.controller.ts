import { Body, Controller, Delete, Get, HttpCode, Param, Post, Put } from '@nestjs/common';
import { ApiAcceptedResponse, ApiNoContentResponse, ApiOkResponse, ApiTags } from '@nestjs/swagger';
import type { InstanceScope } from '@app/contracts';
import { InstanceAuth } from '../auth/auth.decorators';
import { CurrentScope } from '../auth/scope';
import { ApiErrors } from '../common/api-errors.decorator';
import { chatIdParam } from '../common/rule-param.pipe';
import { RequiresConnection } from '../instance-state/connected-instance.guard';
import { ChatSettingsService } from './chat-settings.service';
import { BusinessProfileDto, ChatPictureDto } from './dto/chat-profile.dto';
import {
  ChatEphemeralDto,
  ChatPresenceDto,
  HistoryRequestedDto,
  MarkChatReadDto,
  MuteChatDto,
  PinChatDto,
  RequestChatHistoryDto,
} from './dto/chat-settings.dto';

/** Changing a chat on every device of the account, and what the network tells about the person or group behind it. */
@ApiTags('Chats')
@InstanceAuth()
@Controller('chats')
export class ChatSettingsController {
  constructor(private readonly chats: ChatSettingsService) {}

  /** Deletes the chat and its messages on every device of the account; it leaves the chat list. */
  @Delete(':chatId')
  @HttpCode(204)
  @RequiresConnection()
  @ApiNoContentResponse({ description: 'chat deleted' })
  @ApiErrors(404)
  remove(@CurrentScope() scope: InstanceScope, @Param('chatId', chatIdParam()) chatId: string): Promise<void> {
    return this.chats.remove(scope, chatId);
  }

  /** The profile picture of the person or group; 404 when there is none or its owner hides it from this account. */
  @Get(':chatId/picture')
  @RequiresConnection()
  @ApiOkResponse({ type: ChatPictureDto })
  @ApiErrors(404)
  picture(@CurrentScope() scope: InstanceScope, @Param('chatId', chatIdParam()) chatId: string): Promise<ChatPictureDto> {
    return this.chats.picture(scope, chatId);
  }

  /** The public profile of a business account; 404 when the account is not a business. */
  @Get(':chatId/business')
  @RequiresConnection()
  @ApiOkResponse({ type: BusinessProfileDto })
  @ApiErrors(404)
  business(@CurrentScope() scope: InstanceScope, @Param('chatId', chatIdParam()) chatId: string): Promise<BusinessProfileDto> {
    return this.chats.business(scope, chatId);
  }

  /** Shows this account typing, recording a voice note, or stopped, in the chat. */
  @Put(':chatId/presence')
  @HttpCode(204)
  @RequiresConnection()
  @ApiNoContentResponse({ description: 'presence sent' })
  presence(
    @CurrentScope() scope: InstanceScope,
    @Param('chatId', chatIdParam()) chatId: string,
    @Body() dto: ChatPresenceDto,
  ): Promise<void> {
    return this.chats.presence(scope, chatId, dto);
  }

  /** Asks the network for the person's online status; changes then arrive as `user_presence` events. */
  @Put(':chatId/presence/subscribe')
  @HttpCode(204)
  @RequiresConnection()
  @ApiNoContentResponse({ description: 'subscribed' })
  subscribePresence(@CurrentScope() scope: InstanceScope, @Param('chatId', chatIdParam()) chatId: string): Promise<void> {
    return this.chats.subscribePresence(scope, chatId);
  }

  /** Sets the chat's disappearing-message timer; a `chat_setting` event follows. In a locked group only admins may. */
  @Put(':chatId/ephemeral')
  @HttpCode(204)
  @RequiresConnection()
  @ApiNoContentResponse({ description: 'timer set' })
  @ApiErrors(404)
  ephemeral(
    @CurrentScope() scope: InstanceScope,
    @Param('chatId', chatIdParam()) chatId: string,
    @Body() dto: ChatEphemeralDto,
  ): Promise<void> {
    return this.chats.ephemeral(scope, chatId, dto);
  }

  /** Mutes the chat for 8 hours, a week or until unmuted, or unmutes it; a `chat_setting` event follows. */
  @Put(':chatId/mute')
  @HttpCode(204)
  @RequiresConnection()
  @ApiNoContentResponse({ description: 'mute setting updated' })
  mute(@CurrentScope() scope: InstanceScope, @Param('chatId', chatIdParam()) chatId: string, @Body() dto: MuteChatDto): Promise<void> {
    return this.chats.mute(scope, chatId, dto);
  }

  /** Pins or unpins the chat (the network allows three pinned chats); a `chat_setting` event follows. */
  @Put(':chatId/pin')
  @HttpCode(204)
  @RequiresConnection()
  @ApiNoContentResponse({ description: 'pin setting updated' })
  pin(@CurrentScope() scope: InstanceScope, @Param('chatId', chatIdParam()) chatId: string, @Body() dto: PinChatDto): Promise<void> {
    return this.chats.pin(scope, chatId, dto);
  }

  /** Marks the chat read or unread on every device; a `chat_setting` event follows. */
  @Put(':chatId/read')
  @HttpCode(204)
  @RequiresConnection()
  @ApiNoContentResponse({ description: 'read state updated' })
  read(@CurrentScope() scope: InstanceScope, @Param('chatId', chatIdParam()) chatId: string, @Body() dto: MarkChatReadDto): Promise<void> {
    return this.chats.read(scope, chatId, dto);
  }

  /**
   * Asks the phone for messages older than `lastMessageId`; they arrive later as `message_history_sync` events.
   * The phone sends nothing when it no longer holds that message.
   */
  @Post(':chatId/messages')
  @HttpCode(202)
  @RequiresConnection()
  @ApiAcceptedResponse({ type: HistoryRequestedDto })
  requestHistory(
    @CurrentScope() scope: InstanceScope,
    @Param('chatId', chatIdParam()) chatId: string,
    @Body() dto: RequestChatHistoryDto,
  ): Promise<HistoryRequestedDto> {
    return this.chats.requestHistory(scope, chatId, dto);
  }

  /** Removes every message of the chat from the account's devices; the chat itself stays. */
  @Post(':chatId/clear')
  @HttpCode(204)
  @RequiresConnection()
  @ApiNoContentResponse({ description: 'chat cleared' })
  @ApiErrors(404)
  clear(@CurrentScope() scope: InstanceScope, @Param('chatId', chatIdParam()) chatId: string): Promise<void> {
    return this.chats.clear(scope, chatId);
  }
}
