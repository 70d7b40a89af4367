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
    const rows = await this.prisma.$queryRaw<{ last_seq: bigint }[]>`
      SELECT c.last_seq FROM instances i JOIN event_counters c ON c.instance_id = i.id
      WHERE i.id = ${scope.instanceId} AND i.customer_id = ${scope.customerId}`;
    return rows[0] ? BigInt(rows[0].last_seq) : null;
  }

  /**
   * What the log still holds, read in one snapshot: the oldest kept sequence (the next one to come when everything was
   * pruned) and the latest. Sequences are contiguous from 1 and only pruning removes events, so a cursor `after` has
   * lost events exactly when `after + 1 < oldestKept`. Null once the instance is gone.
   */
  async retained(scope: InstanceScope): Promise<{ oldestKept: bigint; lastSeq: bigint } | null> {
    const rows = await this.prisma.$queryRaw<{ last_seq: bigint; first_seq: bigint | null }[]>`
      SELECT c.last_seq, (SELECT min(e.seq) FROM event_log e WHERE e.instance_id = i.id) AS first_seq
      FROM instances i JOIN event_counters c ON c.instance_id = i.id
      WHERE i.id = ${scope.instanceId} AND i.customer_id = ${scope.customerId}`;
    const row = rows[0];
    if (!row) return null;
    const lastSeq = BigInt(row.last_seq);
    return { oldestKept: row.first_seq === null ? lastSeq + 1n : BigInt(row.first_seq), lastSeq };
  }
}
