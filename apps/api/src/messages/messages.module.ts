import { Module } from '@nestjs/common';
import { SendDoorbells } from '@app/redis';
import { PublicUrls } from '../common/public-urls';
import { MediaSends } from './media-sends';
import { MessageRules } from './message-rules';
import { MessageSends } from './message-sends';
import { MessagesController } from './messages.controller';
import { MessagesService } from './messages.service';

@Module({
  controllers: [MessagesController],
  providers: [MessagesService, MessageSends, MediaSends, MessageRules, SendDoorbells, PublicUrls],
})
export class MessagesModule {}
