import { Injectable } from '@nestjs/common';
import { AppError, type InstanceScope } from '@app/contracts';
import { EventLogRepository, EventStreamRepository } from '@app/database';
import { DEFAULT_EVENT_PAGE_LIMIT, type EventPageDto, type EventPageQueryDto } from './dto/events.dto';

@Injectable()
export class EventsService {
  constructor(
    private readonly log: EventLogRepository,
    private readonly positions: EventStreamRepository,
  ) {}

  /** `after` 0 (the default) starts at the oldest event kept; a later cursor whose next events were pruned is 410, never a silent gap. */
  async page(scope: InstanceScope, query: EventPageQueryDto): Promise<EventPageDto> {
    const after = BigInt(query.after ?? 0);
    if (after > 0n) {
      const retained = await this.positions.retained(scope);
      if (retained && after + 1n < retained.oldestKept) throw AppError.cursorExpired(after, retained.oldestKept);
    }
    const events = await this.log.list(scope.instanceId, after, query.limit ?? DEFAULT_EVENT_PAGE_LIMIT);
    // Pruning may have run between the two reads; sequences are contiguous, so a jump is a loss.
    if (after > 0n && events.length > 0 && events[0].seq > after + 1n) throw AppError.cursorExpired(after, events[0].seq);
    const items = events.map(({ seq, envelope }) => ({ seq: Number(seq), event: envelope }));
    return { items, nextAfter: items.at(-1)?.seq ?? Number(after) };
  }
}
