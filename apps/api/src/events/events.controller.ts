import type { ServerResponse } from 'node:http';
import { Controller, Get, Headers, Query, Res } from '@nestjs/common';
import { ApiHeader, ApiOkResponse, ApiOperation, ApiTags } from '@nestjs/swagger';
import type { InstanceScope } from '@app/contracts';
import { InstanceAuth } from '../auth/auth.decorators';
import { CurrentScope } from '../auth/scope';
import { EventPageDto, EventPageQueryDto, EventStreamQueryDto } from './dto/events.dto';
import { EventStreamsService } from './event-streams.service';
import { EventsService } from './events.service';

const PULL_MODE_NOTE =
  "Works whatever the instance's `pullMode` setting says: every stored event is in the log (kept for the retention time), " +
  'and `pullMode: true` only switches webhook delivery off.';

const STREAM_EXAMPLE =
  'id: 42\ndata: {"eventId":"evt_1767225600000_0123456789abcdef","instanceId":"ins_…","eventType":"message",' +
  '"receivedAt":"2026-01-01T00:00:00.000Z","eventData":{"id":"3EB0…","type":"text","text":"hi"}}\n\n: keep-alive\n\n';

/** Pull mode: the instance's event log, page by page or as a live Server-Sent Events stream. */
@ApiTags('Events')
@InstanceAuth()
@Controller('events')
export class EventsController {
  constructor(
    private readonly events: EventsService,
    private readonly streams: EventStreamsService,
  ) {}

  @Get()
  @ApiOperation({
    summary: 'Pages the event log',
    description:
      'Events with a sequence number above `after`, oldest first, at most `limit` of them. Pass `nextAfter` as the ' +
      'next `after` to continue; an empty `items` means you are up to date. With `order=desc` the newest come first ' +
      "(a log viewer's latest events); pass `nextBefore` as `before` for the next older page. " +
      PULL_MODE_NOTE,
  })
  @ApiOkResponse({ type: EventPageDto })
  list(@CurrentScope() scope: InstanceScope, @Query() query: EventPageQueryDto): Promise<EventPageDto> {
    return this.events.page(scope, query);
  }

  @Get('stream')
  @ApiOperation({
    summary: 'Streams events as Server-Sent Events',
    description:
      'A `text/event-stream` that stays open. Each event is one message: `id: <seq>` (its sequence number in the ' +
      "instance's log) and `data: <envelope JSON>`, then a blank line; events arrive in sequence order, without " +
      'repeats. A `: keep-alive` comment line is sent every 15 seconds. The stream starts after the `Last-Event-ID` ' +
      'header (which EventSource clients send by themselves when they reconnect), else after `?after=`, else with the ' +
      'next new event. To miss nothing across disconnects, resume with the last `id` received, or open the first ' +
      'stream with `after` taken from `GET /events` (`nextAfter`). Authentication and validation errors are ordinary ' +
      `JSON error responses sent before the stream starts. ${PULL_MODE_NOTE}`,
  })
  @ApiHeader({
    name: 'Last-Event-ID',
    required: false,
    description: 'Resume after this sequence number (the `id` of the last event received); wins over `after`.',
    schema: { type: 'integer', minimum: 0 },
  })
  @ApiOkResponse({
    description: 'The event stream',
    content: { 'text/event-stream': { schema: { type: 'string' }, example: STREAM_EXAMPLE } },
  })
  stream(
    @CurrentScope() scope: InstanceScope,
    @Query() query: EventStreamQueryDto,
    @Headers('last-event-id') lastEventId: string | undefined,
    @Res() response: ServerResponse,
  ): Promise<void> {
    return this.streams.open(scope, { lastEventId, after: query.after }, response);
  }
}
