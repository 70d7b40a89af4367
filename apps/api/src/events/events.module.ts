import { Module } from '@nestjs/common';
import { DEFAULT_EVENT_STREAM_OPTIONS, EVENT_STREAM_OPTIONS } from './event-stream.options';
import { EventStreamsService } from './event-streams.service';
import { EventsController } from './events.controller';
import { EventsService } from './events.service';
import { StreamSlots } from './stream-slots';

@Module({
  controllers: [EventsController],
  providers: [EventsService, EventStreamsService, StreamSlots, { provide: EVENT_STREAM_OPTIONS, useValue: DEFAULT_EVENT_STREAM_OPTIONS }],
})
export class EventsModule {}
