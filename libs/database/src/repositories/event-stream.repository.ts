import { Injectable } from '@nestjs/common';
import type { InstanceScope } from '@app/contracts';
import { PrismaService } from '../prisma.service';

/** What pull-mode readers need besides the log itself. */
@Injectable()
export class EventStreamRepository {
  constructor(private readonly prisma: PrismaService) {}

  /**
   * The sequence number of the instance's latest committed event (0 before the first), or null once the instance is
   * gone. The counter is raised in the same statement that inserts the event, so every event up to it is readable.
   */
  async lastSeq(scope: InstanceScope): Promise<bigint | null> {
    const row = await this.prisma.instance.findFirst({
      where: { id: scope.instanceId, customerId: scope.customerId },
      select: { eventSeq: true },
    });
    return row ? row.eventSeq : null;
  }
}
