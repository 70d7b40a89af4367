import { Body, Controller, Get, HttpCode, Param, Put } from '@nestjs/common';
import { ApiNoContentResponse, ApiOkResponse, ApiTags } from '@nestjs/swagger';
import type { InstanceScope } from '@app/contracts';
import { InstanceAuth } from '../auth/auth.decorators';
import { CurrentScope } from '../auth/scope';
import { ApiErrors } from '../common/api-errors.decorator';
import { chatIdParam } from '../common/rule-param.pipe';
import { RequiresConnection } from '../instance-state/connected-instance.guard';
import { ArchiveChatDto, ChatDto } from './dto/chat.dto';
import { ChatsService } from './chats.service';

/** The instance's chats, enriched with contact info and chat settings. */
@ApiTags('Chats')
@InstanceAuth()
@Controller('chats')
export class ChatsController {
  constructor(private readonly chats: ChatsService) {}

  /** Every chat the instance knows, most recent activity first. */
  @Get()
  @RequiresConnection()
  @ApiOkResponse({ type: ChatDto, isArray: true })
  list(@CurrentScope() scope: InstanceScope): Promise<ChatDto[]> {
    return this.chats.list(scope);
  }

  /** One chat; `chatId` is a chat JID (user or group) or an international number. */
  @Get(':chatId')
  @RequiresConnection()
  @ApiOkResponse({ type: ChatDto })
  @ApiErrors(404)
  get(@CurrentScope() scope: InstanceScope, @Param('chatId', chatIdParam()) chatId: string): Promise<ChatDto> {
    return this.chats.get(scope, chatId);
  }

  /** Archives or unarchives the chat on every device of the account; a `chat_setting` event follows. */
  @Put(':chatId/archive')
  @HttpCode(204)
  @RequiresConnection()
  @ApiNoContentResponse({ description: 'archive setting updated' })
  archive(
    @CurrentScope() scope: InstanceScope,
    @Param('chatId', chatIdParam()) chatId: string,
    @Body() dto: ArchiveChatDto,
  ): Promise<void> {
    return this.chats.archive(scope, chatId, dto);
  }
}
