import { Injectable } from '@nestjs/common';
import { parseStoredSink, type EventEnvelope, type EventSinkSettings } from '@app/contracts';
import { SecretBox } from '@app/security';
import { PrismaService } from '../prisma.service';
import { DeliveryBatches, type DeliveryState } from './delivery-batches';

export type { DeliveryState };
export type AttemptOutcome = 'delivered' | 'failed' | 'gone' | 'skipped';

/** Where an instance's events go right now, from its effective settings (its own, or its customer's defaults). */
export interface EventRouting {
  instanceId: string;
  eventFilters: string[];
  pullMode: boolean;
  /** Null when events are not delivered by webhook: pull mode, no URL, or the URL answered 410 Gone. */
  webhookUrl: string | null;
  /** The effective URL as configured, even while pull mode or a 410 keeps deliveries off (the dashboard's test event). */
  configuredUrl: string | null;
  signingSecret: string | null;
  /** The effective broker sink (its own, or the customer's default); null for none. Independent of pull mode and webhooks. */
  sink: EventSinkSettings | null;
}

export interface PendingDelivery {
  eventId: string;
  instanceId: string;
  state: DeliveryState;
  attempts: number;
  scheduleStep: number;
  envelope: EventEnvelope;
}

export interface AttemptRecord {
  number: number;
  url: string;
  startedAt: Date;
  durationMs: number;
  statusCode: number | null;
  outcome: AttemptOutcome;
  error: string | null;
}

export interface DeliveryOutcome {
  state: DeliveryState;
  scheduleStep: number;
  nextAttemptAt: Date;
  lastError: string | null;
}

export interface DeliveryReport {
  eventId: string;
  state: DeliveryState | 'none';
  attempts: AttemptRecord[];
  nextAttemptAt: Date | null;
}

interface RoutingRow {
  id: string;
  use_custom_defaults: boolean;
  pull_mode: boolean;
  webhook_url: string | null;
  event_signing_secret_enc: string | null;
  event_filters: string[];
  default_pull_mode: boolean;
  default_webhook_url: string | null;
  default_signing_secret_enc: string | null;
  default_event_filters: string[];
  event_sink_enc: string | null;
  default_event_sink_enc: string | null;
  gone: boolean;
}

/** Webhook deliveries: one row per event meant for a webhook, every attempt recorded, 410 Gone remembered per URL. */
@Injectable()
export class WebhookDeliveryRepository {
  private readonly batches: DeliveryBatches;

  constructor(
    private readonly prisma: PrismaService,
    private readonly secrets: SecretBox,
  ) {
    this.batches = new DeliveryBatches(prisma.pool);
  }

  /** Effective settings decide; `null` for an instance that no longer exists. */
  async routing(instanceId: string): Promise<EventRouting | null> {
    const rows = await this.prisma.$queryRaw<RoutingRow[]>`
      SELECT i.id, i.use_custom_defaults, i.pull_mode, i.webhook_url, i.event_signing_secret_enc, i.event_filters, i.event_sink_enc,
             c.default_pull_mode, c.default_webhook_url, c.default_signing_secret_enc, c.default_event_filters, c.default_event_sink_enc,
             EXISTS (SELECT 1 FROM webhook_gone_urls g WHERE g.instance_id = i.id
                     AND g.url = CASE WHEN i.use_custom_defaults THEN c.default_webhook_url ELSE i.webhook_url END) AS gone
      FROM instances i JOIN customers c ON c.id = i.customer_id WHERE i.id = ${instanceId}`;
    const row = rows[0];
    if (!row) return null;
    const defaults = row.use_custom_defaults;
    const pullMode = defaults ? row.default_pull_mode : row.pull_mode;
    const url = defaults ? row.default_webhook_url : row.webhook_url;
    const secret = defaults ? row.default_signing_secret_enc : row.event_signing_secret_enc;
    const sink = this.secrets.decryptOptional(defaults ? row.default_event_sink_enc : row.event_sink_enc);
    return {
      instanceId,
      eventFilters: defaults ? row.default_event_filters : row.event_filters,
      pullMode,
      webhookUrl: pullMode || !url || row.gone ? null : url,
      configuredUrl: url,
      signingSecret: this.secrets.decryptOptional(secret),
      sink: sink ? parseStoredSink(sink) : null,
    };
  }

  /** Loaded together with the other attempts starting at the same time (see `DeliveryBatches`). */
  async forAttempt(eventId: string): Promise<PendingDelivery | null> {
    const row = await this.batches.find(eventId);
    if (!row) return null;
    return {
      eventId,
      instanceId: row.instanceId,
      state: row.state,
      attempts: row.attempts,
      scheduleStep: row.scheduleStep,
      envelope: {
        eventId,
        instanceId: row.eventInstanceId,
        eventType: row.eventType,
        receivedAt: row.receivedAt.toISOString(),
        eventData: row.data,
      },
    };
  }

  /**
   * Records an attempt and what follows from it in one statement (shared with the attempts finishing at the same time),
   * only if nobody recorded attempt `number` first (a stalled job run twice records once). Returns whether this call
   * recorded it.
   */
  recordAttempt(event: Pick<EventEnvelope, 'eventId' | 'receivedAt'>, attempt: AttemptRecord, next: DeliveryOutcome): Promise<boolean> {
    return this.batches.record({ eventId: event.eventId, receivedAt: new Date(event.receivedAt), ...attempt, ...next });
  }

  /** Deliveries whose attempt is overdue by more than `graceMs`: their job was lost (Redis flushed, worker killed). */
  async overdue(graceMs: number, limit: number): Promise<{ eventId: string; attempts: number }[]> {
    const cutoff = new Date(Date.now() - graceMs);
    const rows = await this.prisma.webhookDelivery.findMany({
      where: { state: 'pending', nextAttemptAt: { lt: cutoff } },
      orderBy: { nextAttemptAt: 'asc' },
      take: limit,
      select: { eventId: true, attempts: true },
    });
    return rows;
  }

  async markGone(instanceId: string, url: string): Promise<void> {
    await this.prisma.$executeRaw`
      INSERT INTO webhook_gone_urls (instance_id, url) VALUES (${instanceId}, ${url}) ON CONFLICT DO NOTHING`;
  }

  /** Saving settings again re-enables URLs that had answered 410 Gone (for one instance, or all of a customer's). */
  async forgetGoneUrls(target: { instanceId: string } | { customerId: string }): Promise<void> {
    if ('instanceId' in target) {
      await this.prisma.webhookGoneUrl.deleteMany({ where: { instanceId: target.instanceId } });
    } else {
      await this.prisma.webhookGoneUrl.deleteMany({ where: { instance: { customerId: target.customerId } } });
    }
  }

  /** The event's delivery and attempts; null when the instance has no such event (or it was pruned). */
  async report(instanceId: string, eventId: string): Promise<DeliveryReport | null> {
    const event = await this.prisma.eventLog.findFirst({
      where: { id: eventId, instanceId },
      select: { delivery: { include: { attemptLog: { orderBy: { number: 'asc' } } } } },
    });
    if (!event) return null;
    const delivery = event.delivery;
    return {
      eventId,
      state: delivery?.state ?? 'none',
      nextAttemptAt: delivery?.state === 'pending' ? delivery.nextAttemptAt : null,
      attempts: (delivery?.attemptLog ?? []).map((row) => ({
        number: row.number,
        url: row.url,
        startedAt: row.startedAt,
        durationMs: row.durationMs,
        statusCode: row.statusCode,
        outcome: row.outcome as AttemptOutcome,
        error: row.error,
      })),
    };
  }

  /**
   * Starts the retry schedule again from the top (creating the delivery when the event never had one). Returns the
   * number of attempts already made, or null when the instance has no such event.
   */
  async redeliver(instanceId: string, eventId: string): Promise<number | null> {
    const rows = await this.prisma.$queryRaw<{ attempts: number }[]>`
      INSERT INTO webhook_deliveries (event_id, received_at, instance_id)
      SELECT id, received_at, instance_id FROM event_log WHERE id = ${eventId} AND instance_id = ${instanceId}
      ON CONFLICT (event_id, received_at) DO UPDATE
        SET state = 'pending', schedule_step = 0, next_attempt_at = now(), last_error = NULL, updated_at = now()
      RETURNING attempts`;
    return rows[0]?.attempts ?? null;
  }

  /**
   * The instance's endpoint answered 2xx again: its other deliveries waiting out a backoff (pending, attempted before,
   * due later) are due now. Returns them oldest event first, with the attempts their next job is keyed by.
   */
  async releaseWaiting(instanceId: string): Promise<{ eventId: string; attempts: number }[]> {
    const rows = await this.prisma.$queryRaw<{ event_id: string; attempts: number }[]>`
      WITH released AS (
        UPDATE webhook_deliveries SET next_attempt_at = now(), updated_at = now()
        WHERE instance_id = ${instanceId} AND state = 'pending' AND attempts > 0 AND next_attempt_at > now()
        RETURNING event_id, received_at, attempts
      )
      SELECT r.event_id, r.attempts FROM released r
      -- Per row by the whole key: a plain join lets the planner scan every retained event (see DeliveryBatches' LOAD).
      CROSS JOIN LATERAL (SELECT seq FROM event_log WHERE id = r.event_id AND received_at = r.received_at LIMIT 1) e
      ORDER BY e.seq`;
    return rows.map((row) => ({ eventId: row.event_id, attempts: row.attempts }));
  }

  /**
   * Bulk recovery: every delivery of the instance in `state` whose event was received at or after `since` starts its
   * retry schedule again from the top, due now. Returns them oldest event first.
   */
  async redeliverSince(instanceId: string, since: Date, state: 'failed' | 'pending'): Promise<{ eventId: string; attempts: number }[]> {
    const rows = await this.prisma.$queryRaw<{ event_id: string; attempts: number }[]>`
      WITH moved AS (
        UPDATE webhook_deliveries d
        SET state = 'pending', schedule_step = 0, next_attempt_at = now(), last_error = NULL, updated_at = now()
        FROM event_log e
        WHERE e.id = d.event_id AND e.received_at = d.received_at AND d.instance_id = ${instanceId} AND d.state = ${state}::"DeliveryState"
          AND d.received_at >= ${since}::timestamp(3) AND e.received_at >= ${since}::timestamp(3)
        RETURNING d.event_id, d.attempts, e.seq
      )
      SELECT event_id, attempts FROM moved ORDER BY seq`;
    return rows.map((row) => ({ eventId: row.event_id, attempts: row.attempts }));
  }
}
