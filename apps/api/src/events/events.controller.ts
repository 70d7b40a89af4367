import type { IncomingMessage, ServerResponse } from 'node:http';
import { Controller, Get, Headers, Query, Req, Res } from '@nestjs/common';
import { ApiHeader, ApiOkResponse, ApiOperation, ApiTags } from '@nestjs/swagger';
import type { InstanceScope } from '@app/contracts';
import { hashApiKey } from '@app/security';
import { InstanceAuth } from '../auth/auth.decorators';
import { ApiErrors } from '../common/api-errors.decorator';
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
      'next `after` to continue; an empty `items` means you are up to date. A cursor whose next events were ' +
      'already pruned is answered `410` naming the oldest sequence still available. With `order=desc` the newest ' +
      "come first (a log viewer's latest events); pass `nextBefore` as `before` for the next older page. " +
      PULL_MODE_NOTE,
  })
  @ApiOkResponse({ type: EventPageDto })
  @ApiErrors(400, 410)
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
      'JSON error responses sent before the stream starts. If events after the requested point were already pruned (older ' +
      'than the retention time), the stream opens with one `event: gap` message, `data: {"firstMissing":<seq>,"oldestKept":<seq>}` ' +
      'and `id:` the last lost sequence, then continues from the oldest event kept. The stream lives only as long as the key ' +
      'that opened it: rotating, regenerating or revoking that key ends it (on every replica, within a second), and a ' +
      'reconnect with the old key is answered 401. An instance may have a limited number of streams open at once over all ' +
      "clients (`MAX_STREAMS_PER_INSTANCE`, default 10, or the operator's override for the customer); one more is `429`. " +
      PULL_MODE_NOTE,
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
    @Req() request: IncomingMessage,
    @Res() response: ServerResponse,
  ): Promise<void> {
    return this.streams.open(scope, openingKeyHash(request), { lastEventId, after: query.after }, response);
  }
}

/**
 * The guard has already accepted this key; its hash ties the stream to it, so revoking the key ends the stream. A
 * stream opened with a dashboard session is tied to that session's id instead.
 */
function openingKeyHash(request: IncomingMessage & { dashboardSession?: { record: { id: string } } }): string {
  if (request.dashboardSession) return request.dashboardSession.record.id;
  const key = request.headers['x-api-key'];
  return hashApiKey((typeof key === 'string' ? key : '').trim());
}
