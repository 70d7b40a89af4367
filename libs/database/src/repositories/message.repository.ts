import { Injectable } from '@nestjs/common';
import { WireDecodeError, decodeStoredSend, type EventType, type OutboundMessage, type Send } from '@app/contracts';
import type { Prisma } from '../generated/prisma/client';
import { PrismaService } from '../prisma.service';
import { FencedOutError, fenceHolds, type Fence } from './fence';
import { GroupCommitMismatch, MessageGroupCommit } from './message-group-commit';
import { OutcomeGroupCommit, type SendOutcome, type StoredStatus } from './outcome-group-commit';

export type { SendOutcome, StoredStatus };
import type { StoredEvent } from './event-log.repository';

export interface AcceptedMessage {
  id: string;
  /** True when an earlier request with the same idempotency key already created it. */
  replayed: boolean;
}

export type NewMessage = Send & {
  id: string;
  idempotencyKey?: string;
  requestHash?: string;
};

export class IdempotencyMismatch extends Error {}

/**
 * Claims one accepted message for sending under a shard lease. Prepared once per connection (named): the drain runs it
 * before every send, and parsing and planning it anew cost PostgreSQL more than running it (0.23 ms of planning per
 * call, measured with pg_stat_statements).
 */
const CLAIM_SQL = `WITH allowed AS (SELECT ${fenceHolds('$3', '$4')} AS ok), claimed AS (
    UPDATE messages SET claimed_token = $4
    WHERE id = $1 AND instance_id = $2 AND status = 'accepted' AND (claimed_token IS NULL OR claimed_token <= $4)
      AND (SELECT ok FROM allowed)
    RETURNING id
  )
  SELECT (SELECT ok FROM allowed) AS allowed, EXISTS (SELECT 1 FROM claimed) AS claimed`;

export type StoredMessage = OutboundMessage & {
  seq: bigint;
  status: StoredStatus;
  /** When the API accepted it (read with the pending rows, for the accept→network latency). */
  acceptedAt?: Date;
};

/**
 * A stored row this process cannot read as a send: a payload that does not decode as its kind's, an unknown kind, or
 * (`unknownVersion`) one written by a newer API. The worker fails the first two with `reason` and leaves the last for
 * an upgraded worker.
 */
export interface UnreadableMessage {
  id: string;
  kind: string;
  chatJid: string;
  seq: bigint;
  status: StoredStatus;
  unreadable: WireDecodeError;
}

/** A stored row as the send it was accepted as, decoded by its kind's schema (see `decodeStoredSend`). */
function storedSend(kind: string, chatJid: string, payload: unknown): Send | WireDecodeError {
  try {
    return decodeStoredSend(kind, chatJid, payload);
  } catch (error) {
    if (error instanceof WireDecodeError) return error;
    throw error;
  }
}

@Injectable()
export class MessageRepository {
  private readonly groupCommit: MessageGroupCommit;
  private readonly outcomes: OutcomeGroupCommit;

  constructor(private readonly prisma: PrismaService) {
    this.groupCommit = new MessageGroupCommit(prisma.pool);
    this.outcomes = new OutcomeGroupCommit(prisma.pool);
  }

  /**
   * Stores an accepted message with the instance's next sequence number; resolves once its row is committed. The
   * counter row lock makes commit order equal sequence order, so dispatch in `seq` order is acceptance order.
   * Concurrent accepts of one instance are committed together (see `MessageGroupCommit`), on the pool directly.
   */
  async accept(instanceId: string, message: NewMessage): Promise<AcceptedMessage> {
    try {
      return await this.groupCommit.accept(instanceId, message);
    } catch (error) {
      if (error instanceof GroupCommitMismatch) throw new IdempotencyMismatch();
      throw error;
    }
  }

  /** The instance's accepted, not yet dispatched messages in acceptance order. */
  async pending(instanceId: string, limit: number): Promise<(StoredMessage | UnreadableMessage)[]> {
    // On the pool directly: the drain runs this once per message at low rates, and the query engine's cost per call shows.
    const { rows } = await this.prisma.pool.query<{
      id: string;
      kind: string;
      chat_jid: string;
      payload: unknown;
      seq_text: string;
      accepted_at: Date;
    }>(
      // Ordered by the stored number, not by its text ('10' < '9'): send order is acceptance order.
      `SELECT id, kind, chat_jid, payload, seq::text AS seq_text, accepted_at FROM messages WHERE instance_id = $1 AND status = 'accepted' ORDER BY messages.seq LIMIT $2`,
      [instanceId, limit],
    );
    return rows.map((row) => {
      const send = storedSend(row.kind, row.chat_jid, row.payload);
      const seq = BigInt(row.seq_text);
      if (send instanceof WireDecodeError) {
        return { id: row.id, kind: row.kind, chatJid: row.chat_jid, seq, status: 'accepted', unreadable: send };
      }
      return { ...send, id: row.id, seq, status: 'accepted', acceptedAt: row.accepted_at };
    });
  }

  /**
   * Records a send's outcome and appends its events (with their webhook deliveries when `deliver`) in one commit,
   * shared with the outcomes other drains record at the same time (see `OutcomeGroupCommit`). Does nothing when the
   * row is no longer `accepted` (or `outcome.from`), so a repeated dispatch adds no events. `recorded` tells whether
   * this call recorded it.
   */
  recordOutcome(
    instanceId: string,
    id: string,
    outcome: SendOutcome,
    events: { eventType: EventType; data: Record<string, unknown> }[],
    options: { deliver: boolean; sink?: boolean; fence?: Fence } = { deliver: false },
  ): Promise<{ recorded: boolean; events: StoredEvent[] }> {
    return this.outcomes.record({
      instanceId,
      messageId: id,
      outcome,
      events,
      deliver: options.deliver,
      sink: options.sink,
      fence: options.fence,
    });
  }

  /**
   * Whether the message may go out now, decided by PostgreSQL in one fenced statement: it is still `accepted`, the fence
   * is the shard's current lease, and no later lease has claimed it. Marks it claimed under `fence.token`. A message
   * claimed under an older token (its owner died between the network taking it and the outcome commit) is claimed again
   * and sent again with the same id. One claimed under the current token is this worker's own (one drain per instance,
   * and no other worker has the token): it is claimable again only after this worker's own send attempt failed before
   * the network took it, as the drain retries. Throws FencedOutError when the lease has passed on.
   */
  async claim(instanceId: string, id: string, fence: Fence): Promise<boolean> {
    const { rows } = await this.prisma.pool.query<{ allowed: boolean; claimed: boolean }>({
      name: 'claim-message',
      text: CLAIM_SQL,
      values: [id, instanceId, fence.shard, fence.token],
    });
    if (!rows[0]?.allowed) throw new FencedOutError(fence);
    return rows[0].claimed;
  }

  async find(instanceId: string, id: string): Promise<StoredMessage | UnreadableMessage | null> {
    const row = await this.prisma.message.findFirst({ where: { id, instanceId } });
    if (!row) return null;
    const send = storedSend(row.kind, row.chatJid, row.payload);
    if (send instanceof WireDecodeError) {
      return { id: row.id, kind: row.kind, chatJid: row.chatJid, seq: row.seq, status: row.status, unreadable: send };
    }
    return { ...send, id: row.id, seq: row.seq, status: row.status };
  }

  /**
   * The instance's sends written to the network but not acknowledged by it (`unconfirmed`), whose later ack, receipt
   * or refusal settles them. Few rows: the status index finds them without reading the instance's other messages.
   */
  async unconfirmed(instanceId: string): Promise<string[]> {
    const { rows } = await this.prisma.pool.query<{ id: string }>(
      `SELECT id FROM messages WHERE status = 'unconfirmed' AND instance_id = $1`,
      [instanceId],
    );
    return rows.map((row) => row.id);
  }

  /** Instances of these shards with messages accepted before `olderThan` and still not dispatched. */
  async instancesWithStalePending(shards: number[], olderThan: Date): Promise<string[]> {
    if (shards.length === 0) return [];
    const rows = await this.prisma.$queryRaw<{ instance_id: string }[]>`
      SELECT DISTINCT m.instance_id FROM messages m JOIN instances i ON i.id = m.instance_id
      WHERE m.status = 'accepted' AND m.accepted_at < ${olderThan} AND i.shard = ANY(${shards}::int[])`;
    return rows.map((row) => row.instance_id);
  }

  async sendInterval(instanceId: string): Promise<number> {
    const { rows } = await this.prisma.pool.query<{ send_interval_ms: number }>(`SELECT send_interval_ms FROM instances WHERE id = $1`, [
      instanceId,
    ]);
    return rows[0]?.send_interval_ms ?? 0;
  }

  async statusCounts(instanceId: string): Promise<Record<string, number>> {
    const groups = await this.prisma.message.groupBy({ by: ['status'], where: { instanceId }, _count: { _all: true } });
    return Object.fromEntries(groups.map((group) => [group.status, group._count._all])) as Prisma.JsonObject as Record<string, number>;
  }
}
