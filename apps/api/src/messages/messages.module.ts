import { Module } from '@nestjs/common';
import { PublicUrls } from '../common/public-urls';
import { MediaSends } from './media-sends';
import { MessageRules } from './message-rules';
import { MessageSends } from './message-sends';
import { MessagesController } from './messages.controller';
import { MessagesService } from './messages.service';
import { SendQueues } from './send-queues';

@Module({ controllers: [MessagesController], providers: [MessagesService, MessageSends, MediaSends, MessageRules, SendQueues, PublicUrls] })
export class MessagesModule {}
