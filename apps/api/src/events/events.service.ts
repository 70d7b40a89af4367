import { Injectable } from '@nestjs/common';
import type { InstanceScope } from '@app/contracts';
import { EventLogRepository } from '@app/database';
import { DEFAULT_EVENT_PAGE_LIMIT, type EventPageDto, type EventPageQueryDto } from './dto/events.dto';

@Injectable()
export class EventsService {
  constructor(private readonly log: EventLogRepository) {}

  async page(scope: InstanceScope, query: EventPageQueryDto): Promise<EventPageDto> {
    const after = query.after ?? 0;
    const events = await this.log.list(scope.instanceId, BigInt(after), query.limit ?? DEFAULT_EVENT_PAGE_LIMIT);
    const items = events.map(({ seq, envelope }) => ({ seq: Number(seq), event: envelope }));
    return { items, nextAfter: items.at(-1)?.seq ?? after };
  }
}
