import { Injectable } from '@nestjs/common';
import type { InstanceScope } from '@app/contracts';
import { EventLogRepository } from '@app/database';
import { DEFAULT_EVENT_PAGE_LIMIT, type EventPageDto, type EventPageQueryDto } from './dto/events.dto';

@Injectable()
export class EventsService {
  constructor(private readonly log: EventLogRepository) {}

  async page(scope: InstanceScope, query: EventPageQueryDto): Promise<EventPageDto> {
    const after = query.after ?? 0;
    const limit = query.limit ?? DEFAULT_EVENT_PAGE_LIMIT;
    if (query.order !== 'desc' && query.before === undefined) {
      const events = await this.log.list(scope.instanceId, BigInt(after), limit);
      const items = events.map(({ seq, envelope }) => ({ seq: Number(seq), event: envelope }));
      return { items, nextAfter: items.at(-1)?.seq ?? after };
    }
    const events = await this.log.window(scope.instanceId, {
      afterSeq: BigInt(after),
      beforeSeq: query.before === undefined ? undefined : BigInt(query.before),
      order: query.order ?? 'asc',
      limit,
    });
    const items = events.map(({ seq, envelope }) => ({ seq: Number(seq), event: envelope }));
    const seqs = items.map((item) => item.seq);
    const lowest = seqs.length > 0 ? Math.min(...seqs) : query.before;
    return { items, nextAfter: seqs.length > 0 ? Math.max(...seqs) : after, ...(lowest !== undefined ? { nextBefore: lowest } : {}) };
  }
}
