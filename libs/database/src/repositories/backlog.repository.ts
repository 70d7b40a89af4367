import { Injectable } from '@nestjs/common';
import { PrismaService } from '../prisma.service';

/** Work accepted and not yet done, over the whole deployment: one row per kind. */
export interface Backlog {
  /** Messages accepted and not yet handed to the network. */
  pendingSends: number;
  /** Age of the oldest of them, in seconds (0 when there is none). */
  oldestPendingSendSeconds: number;
  /** Webhook deliveries waiting for their next attempt. */
  pendingDeliveries: number;
  /** How long the most overdue of them is past its attempt time, in seconds (0 when none is overdue). */
  oldestOverdueDeliverySeconds: number;
}

/**
 * The backlog as PostgreSQL holds it, for `/metrics`. Both counts walk an index whose leading column is the state
 * ((status, accepted_at) and (state, next_attempt_at)), so they cost as much as the backlog is long, not the tables.
 */
@Injectable()
export class BacklogRepository {
  constructor(private readonly prisma: PrismaService) {}

  async read(): Promise<Backlog> {
    const [sends, deliveries] = await Promise.all([
      this.prisma.pool.query<{ pending: string; oldest_seconds: number | null }>(
        `SELECT count(*)::text AS pending, EXTRACT(EPOCH FROM now() - min(accepted_at))::float8 AS oldest_seconds
           FROM messages WHERE status = 'accepted'`,
      ),
      this.prisma.pool.query<{ pending: string; overdue_seconds: number | null }>(
        `SELECT count(*)::text AS pending, EXTRACT(EPOCH FROM now() - min(next_attempt_at))::float8 AS overdue_seconds
           FROM webhook_deliveries WHERE state = 'pending'`,
      ),
    ]);
    return {
      pendingSends: Number(sends.rows[0]?.pending ?? 0),
      oldestPendingSendSeconds: Math.max(0, sends.rows[0]?.oldest_seconds ?? 0),
      pendingDeliveries: Number(deliveries.rows[0]?.pending ?? 0),
      oldestOverdueDeliverySeconds: Math.max(0, deliveries.rows[0]?.overdue_seconds ?? 0),
    };
  }
}
