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
    // Newest first (or bounded above): a viewer's window on the log, not a cursor that must not skip anything.
    if (query.order === 'desc' || query.before !== undefined) return this.window(scope, query);
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

  private async window(scope: InstanceScope, query: EventPageQueryDto): Promise<EventPageDto> {
    const after = query.after ?? 0;
    const events = await this.log.window(scope.instanceId, {
      afterSeq: BigInt(after),
      beforeSeq: query.before === undefined ? undefined : BigInt(query.before),
      order: query.order ?? 'asc',
      limit: query.limit ?? DEFAULT_EVENT_PAGE_LIMIT,
    });
    const items = events.map(({ seq, envelope }) => ({ seq: Number(seq), event: envelope }));
    const seqs = items.map((item) => item.seq);
    const lowest = seqs.length > 0 ? Math.min(...seqs) : query.before;
    return { items, nextAfter: seqs.length > 0 ? Math.max(...seqs) : after, ...(lowest !== undefined ? { nextBefore: lowest } : {}) };
  }
}
