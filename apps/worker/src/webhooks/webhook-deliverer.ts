import { Inject, Injectable, Logger, type OnModuleDestroy } from '@nestjs/common';
import { DelayedError, UnrecoverableError, Worker, type Job } from 'bullmq';
import { APP_CONFIG, type AppConfig } from '@app/config';
import {
  JOB_WIRE_VERSION,
  WEBHOOK_QUEUE,
  WireDecodeError,
  decodeWire,
  webhookJobSchema,
  type EventEnvelope,
  type WebhookJob,
} from '@app/contracts';
import { WebhookDeliveryRepository, inStoredKeyOrder, type AttemptRecord, type DeliveryOutcome, type PendingDelivery } from '@app/database';
import type { ShutdownDeadline } from '@app/observability';
import { RedisService, WebhookQueue } from '@app/redis';
import { OutboundHttp, OutboundHttpError, outboundPolicy, parseProxyUrl, webhookSignatureHeaders } from '@app/security';
import { EventRoutingCache } from '../events/event-routing.cache';
import { retryAfterMs, verdict } from './retry-policy';
import { EndpointRecovery } from './endpoint-recovery';
import { DeliveryMetrics, deliveryClass } from './delivery-metrics';
import { UrlSlots } from './url-slots';
import { WaitingAttempts, type WaitingAttempt } from './waiting-attempts';
import { OutageLog } from '@app/redis';

const TIMEOUT_MS = 15_000;
const MAX_RESPONSE_BYTES = 64 * 1024;
/** How long a delivery waits in process for a free slot of its URL, and then (delayed in the queue) before trying again. */
const SLOT_WAIT_MS = 250;
const ERROR_SNIPPET = 300;
/** Attempts that may wait in process for a slot of their URL before going to the queue. */
const WAITING_CAPACITY = 4_000;
/** How long a committed event waits here: its first attempt is then the queue's, like any other. */
const WAITING_MAX_MS = 2_000;
/**
 * Queue jobs of one URL that may wait here, and for how long: a backlog, fetched in the queue's order rather than by
 * URL, waits for its receiver's slots in memory instead of going round the delayed set and being loaded again. A URL
 * gets a quarter of the room, so other receivers' jobs still find space. They wait while their receiver keeps
 * answering quickly; once it has answered none within QUICK_ATTEMPT_MS for this long (a slow or hanging receiver)
 * they go back to the queue, where other workers may have slots for it, and its backlog lives there, not here.
 */
const WAITING_PER_URL_FROM_QUEUE = WAITING_CAPACITY / 4;
const WAITING_FROM_QUEUE_STALL_MS = 10_000;
const QUICK_ATTEMPT_MS = 1_000;
const WAITING_SWEEP_MS = 250;
/** How long shutdown waits for the queue connection to close once no attempt is in flight (Redis may be gone). */
const CLOSE_WAIT_MS = 500;

/** Consumes the webhook queue (every worker does): one job = one signed POST of one event, recorded as an attempt. */
@Injectable()
export class WebhookDeliverer implements OnModuleDestroy {
  private readonly logger = new Logger(WebhookDeliverer.name);
  private readonly http: OutboundHttp;
  private readonly slots: UrlSlots;
  private worker: Worker<WebhookJob> | undefined;
  /** Attempts running in this process, so shutdown can wait for them without waiting for Redis. */
  private readonly inFlight = new Set<Promise<void>>();
  private stopping = false;
  private readonly waiting = new WaitingAttempts(WAITING_CAPACITY);
  /**
   * Events whose attempt this process holds with no job in the queue (waiting here, or started from memory). A job for
   * one of them is a copy (the reconciler re-queued an overdue row) and does nothing: the held attempt goes on. Keyed
   * by event, valued by the attempts already made: the job of the next attempt (a retry due at once, scheduled while
   * this one is still finishing) is not a copy.
   */
  private readonly held = new Map<string, number>();
  /** When an attempt to each URL last finished quickly while attempts waited here (see WAITING_FROM_QUEUE_STALL_MS). */
  private readonly lastQuick = new Map<string, number>();
  private waitingTimer: NodeJS.Timeout | undefined;

  constructor(
    @Inject(APP_CONFIG) private readonly config: AppConfig,
    private readonly redis: RedisService,
    private readonly deliveries: WebhookDeliveryRepository,
    private readonly routing: EventRoutingCache,
    private readonly queue: WebhookQueue,
    private readonly recovery: EndpointRecovery,
    private readonly metrics: DeliveryMetrics,
  ) {
    this.http = new OutboundHttp(outboundPolicy(config), config.webhookEgressProxy ? parseProxyUrl(config.webhookEgressProxy) : undefined);
    this.slots = new UrlSlots(config.webhookPerUrlConcurrency);
  }

  start(): void {
    if (this.worker) return;
    const connection = this.redis.connect('webhook-consumer', { maxRetriesPerRequest: null });
    this.worker = new Worker<WebhookJob>(WEBHOOK_QUEUE, (job, token) => this.tracked(this.process(job, token)), {
      connection,
      prefix: this.config.queuePrefix,
      concurrency: this.config.webhookConcurrency,
      // A worker that dies mid-attempt frees its jobs within ~15 s (locks are renewed every 5 s while it lives).
      lockDuration: 10_000,
      stalledInterval: 5_000,
    });
    const outage = new OutageLog(this.logger, 'webhook queue');
    this.worker.on('error', (error) => outage.error(error));
  }

  /**
   * Stops taking jobs and committed events (those still waiting for a slot go to the queue) and waits for the attempts
   * in flight, until the deadline when there is one. An attempt cut short is not recorded: its job stalls, or its
   * delivery becomes overdue, and another worker makes it again (at least once, same `webhook-id`).
   */
  async stop(deadline?: ShutdownDeadline): Promise<void> {
    // Stopped already (shutdown, then module teardown): what was left in flight then is another worker's now.
    if (this.stopping) return;
    this.stopping = true;
    this.stopWatchingWaiting();
    // Attempts still waiting for a slot go to the queue (or, with Redis gone, to the reconciler once overdue).
    await this.requeue(this.waiting.drain(), false);
    const worker = this.worker;
    this.worker = undefined;
    if (!deadline) {
      await Promise.all([worker?.close(), ...this.inFlight]);
      return;
    }
    // Forced: BullMQ's own wait would also wait for Redis, which may be gone. The attempts are awaited here instead;
    // each records its outcome in PostgreSQL, so a job whose completion never reached Redis is stale when re-run.
    const closing = worker?.close(true) ?? Promise.resolve();
    if (!(await deadline.settles(Promise.all(this.inFlight)))) {
      this.logger.warn('webhook attempts still in flight at the deadline are left to another worker');
      return;
    }
    await deadline.settlesWithin(closing, CLOSE_WAIT_MS);
  }

  private async tracked(attempt: Promise<void>): Promise<void> {
    const settled = attempt.then(noop, noop);
    this.inFlight.add(settled);
    try {
      await attempt;
    } finally {
      this.inFlight.delete(settled);
    }
  }

  async onModuleDestroy(): Promise<void> {
    await this.stop();
  }

  /**
   * First attempts made right here, by the worker that has just committed the events and their delivery rows: no
   * queue round trip and no reload of the event. An event starts at once when its URL has a free slot and fewer than
   * `webhookConcurrency` attempts (from here or the queue) run in this process; otherwise it waits here for a slot,
   * boundedly (`WaitingAttempts`), and goes to the queue when none frees in time. Events not taken are returned,
   * for the queue. A worker that dies mid-attempt (or while the event waits) leaves the row pending with no job: the
   * delivery reconciler queues it once overdue (at least once, same `webhook-id`). A failed first attempt schedules its
   * retry on the queue. Queue jobs whose URL is busy wait in the same room, on the same terms.
   */
  attemptCommitted(instanceId: string, url: string, events: EventEnvelope[]): EventEnvelope[] {
    if (this.stopping) return events;
    const left: EventEnvelope[] = [];
    for (const envelope of events) {
      const attempt = { instanceId, url, delivery: firstDelivery(instanceId, envelope), queued: false, until: Date.now() + WAITING_MAX_MS };
      if (this.startIfRoom(attempt)) continue;
      if (this.hold(attempt)) this.watchWaiting();
      else left.push(envelope);
    }
    return left;
  }

  /** Into the waiting room, unless it is full or the process is stopping (the room has been emptied for the last time). */
  private hold(attempt: WaitingAttempt, perUrl?: number): boolean {
    if (this.stopping || !this.waiting.add(attempt, perUrl)) return false;
    this.held.set(attempt.delivery.eventId, attempt.delivery.attempts);
    return true;
  }

  private startIfRoom(attempt: WaitingAttempt): boolean {
    const release = this.hasRoom() ? this.slots.tryAcquire(attempt.url) : null;
    if (!release) return false;
    const { eventId, attempts } = attempt.delivery;
    this.held.set(eventId, attempts);
    const startedAt = Date.now();
    void this.tracked(this.fromMemory(attempt))
      .catch((error: Error) =>
        this.logger.warn(
          `${attempt.instanceId}: attempt ${attempts + 1} of ${eventId} not recorded (the reconciler retries it): ${error.message}`,
        ),
      )
      .finally(() => {
        if (this.held.get(eventId) === attempts) this.held.delete(eventId);
        this.finished(attempt.url, startedAt, release);
      });
    return true;
  }

  /** The URL is read again: settings changed while the attempt waited go through the queue, which applies them. */
  private async fromMemory({ instanceId, url, delivery }: WaitingAttempt): Promise<void> {
    const routing = await this.routing.get(instanceId);
    if (!routing || routing.webhookUrl !== url) {
      await this.queue.schedule([{ eventId: delivery.eventId, attempts: delivery.attempts }]);
      return;
    }
    await this.attempt(delivery, url, routing.signingSecret);
  }

  /**
   * Attempts leaving the waiting room for the queue. Those that came from the queue go back a little later, so a slow
   * receiver's backlog is not fetched again at once. (Should the job that brought one still be finishing, the copy is
   * refused by job id and the row, still pending, is re-queued by the reconciler once overdue.)
   */
  private requeue(attempts: WaitingAttempt[], delayQueued: boolean): Promise<void> {
    for (const { delivery } of attempts) if (this.held.get(delivery.eventId) === delivery.attempts) this.held.delete(delivery.eventId);
    return this.queue.schedule(
      attempts.map(({ delivery, queued }) => ({
        eventId: delivery.eventId,
        attempts: delivery.attempts,
        delayMs: queued && delayQueued ? SLOT_WAIT_MS + Math.floor(Math.random() * SLOT_WAIT_MS) : 0,
      })),
    );
  }

  private startWaiting(): void {
    for (const url of this.waiting.urls()) {
      for (;;) {
        if (!this.hasRoom()) return;
        const next = this.waiting.take(url);
        if (!next) break;
        if (!this.startIfRoom(next)) {
          // The URL is busy (its slots may be taken by queued attempts): back to the front, as it was.
          this.waiting.restore(next);
          break;
        }
      }
    }
  }

  /** While events wait, hands those that waited too long to the queue. */
  private watchWaiting(): void {
    if (this.waitingTimer) return;
    this.waitingTimer = setInterval(() => {
      const now = Date.now();
      const stalledSince = now - WAITING_FROM_QUEUE_STALL_MS;
      const expired = this.waiting.expired(now, ({ url, queued }) => !queued || (this.lastQuick.get(url) ?? 0) < stalledSince);
      if (expired.length > 0) void this.requeue(expired, true);
      const urls = new Set(this.waiting.urls());
      for (const url of this.lastQuick.keys()) if (!urls.has(url)) this.lastQuick.delete(url);
      if (this.waiting.size === 0) this.stopWatchingWaiting();
    }, WAITING_SWEEP_MS);
    this.waitingTimer.unref();
  }

  private stopWatchingWaiting(): void {
    this.lastQuick.clear();
    clearInterval(this.waitingTimer);
    this.waitingTimer = undefined;
  }

  /** Attempts (holding a slot of their URL) in flight here, from memory or from the queue, below `webhookConcurrency`. */
  private hasRoom(): boolean {
    return !this.stopping && this.slots.total < this.config.webhookConcurrency;
  }

  /**
   * The job's data as this worker reads it. One it cannot read (a newer worker's, or damaged) fails as unrecoverable
   * with the reason; the delivery row stays pending in PostgreSQL and the reconciler schedules it again.
   */
  private decode(job: Job<WebhookJob>): WebhookJob {
    try {
      return decodeWire('webhook_job', webhookJobSchema, JOB_WIRE_VERSION, job.data);
    } catch (error) {
      if (!(error instanceof WireDecodeError)) throw error;
      this.logger.warn(
        { boundary: error.boundary, jobId: job.id, reason: error.reason },
        'webhook job refused: unreadable (the delivery stays for the reconciler)',
      );
      throw new UnrecoverableError(`unreadable webhook job: ${error.reason}`);
    }
  }

  async process(job: Job<WebhookJob>, token?: string): Promise<void> {
    const data = this.decode(job);
    if (this.held.get(data.eventId) === data.attempts) return;
    const delivery = await this.deliveries.forAttempt(data.eventId);
    // Stale jobs (already attempted, redelivered, finished or pruned) do nothing.
    if (!delivery || delivery.state !== 'pending' || delivery.attempts !== data.attempts) return;
    const routing = await this.routing.get(delivery.instanceId);
    const url = routing?.webhookUrl ?? null;
    if (!routing || !url) {
      const reason = routing?.pullMode ? 'the instance is in pull mode' : 'the instance has no webhook URL (or it answered 410 Gone)';
      await this.finish(delivery, skipped(delivery, routing?.webhookUrl ?? '', reason), {
        state: 'stopped',
        scheduleStep: delivery.scheduleStep,
        nextAttemptAt: new Date(),
        lastError: reason,
      });
      return;
    }
    let release = this.hasRoom() ? this.slots.tryAcquire(url) : null;
    if (!release) {
      // No slot now: wait here without the job (it completes, the row stays pending; see `attemptCommitted` for what
      // a worker dying meanwhile means), rather than delaying the job in Redis and loading the row again later.
      const attempt = { instanceId: delivery.instanceId, url, delivery, queued: true, until: Date.now() + WAITING_FROM_QUEUE_STALL_MS };
      if (this.hold(attempt, WAITING_PER_URL_FROM_QUEUE)) {
        this.watchWaiting();
        return;
      }
      release = await this.slots.acquire(url, SLOT_WAIT_MS);
    }
    if (!release) {
      await job.moveToDelayed(Date.now() + SLOT_WAIT_MS + Math.floor(Math.random() * SLOT_WAIT_MS), token);
      throw new DelayedError();
    }
    const startedAt = Date.now();
    try {
      await this.attempt(delivery, url, routing.signingSecret);
    } finally {
      this.finished(url, startedAt, release);
    }
  }

  /** An attempt gave its URL's slot back: the slot goes to an attempt waiting here, if any may start. */
  private finished(url: string, startedAt: number, release: () => void): void {
    const now = Date.now();
    if (this.waiting.size > 0 && now - startedAt < QUICK_ATTEMPT_MS) this.lastQuick.set(url, now);
    release();
    this.startWaiting();
  }

  private async attempt(delivery: PendingDelivery, url: string, secret: string | null): Promise<void> {
    const body = JSON.stringify(delivery.envelope);
    const startedAt = new Date();
    const timestamp = Math.floor(startedAt.getTime() / 1000);
    const headers: Record<string, string> = {
      'Content-Type': 'application/json',
      'User-Agent': 'messaging-gateway-webhooks',
      'X-Instance-Id': delivery.instanceId,
      'webhook-id': delivery.eventId,
      'webhook-timestamp': String(timestamp),
      ...(secret ? webhookSignatureHeaders(secret, delivery.eventId, timestamp, body) : {}),
    };
    let statusCode: number | null = null;
    let error: string | null = null;
    let retryAfter: number | undefined;
    try {
      const response = await this.http.post(url, body, headers, { timeoutMs: TIMEOUT_MS, maxResponseBytes: MAX_RESPONSE_BYTES });
      statusCode = response.statusCode;
      retryAfter = retryAfterMs(response.headers['retry-after']);
      if (statusCode < 200 || statusCode >= 300) error = describeFailure(statusCode, response.body);
    } catch (failure) {
      error = failure instanceof OutboundHttpError ? failure.message : `request failed: ${(failure as Error).message}`;
    }
    const durationMs = Date.now() - startedAt.getTime();
    const next = verdict(statusCode, retryAfter, delivery.scheduleStep, this.config.webhookRetryScheduleSeconds);
    const outcome = next.kind === 'delivered' ? 'delivered' : next.kind === 'gone' ? 'gone' : 'failed';
    const record: AttemptRecord = { number: delivery.attempts + 1, url, startedAt, durationMs, statusCode, outcome, error };
    const now = Date.now();
    if (next.kind === 'gone') {
      await this.deliveries.markGone(delivery.instanceId, url);
      await this.routing.changed(delivery.instanceId);
    }
    await this.finish(delivery, record, {
      state: next.kind === 'retry' ? 'pending' : next.kind === 'delivered' ? 'delivered' : next.kind === 'gone' ? 'stopped' : 'failed',
      scheduleStep: next.kind === 'retry' ? delivery.scheduleStep + 1 : delivery.scheduleStep,
      nextAttemptAt: new Date(next.kind === 'retry' ? now + next.delayMs : now),
      lastError: error,
    });
  }

  private async finish(delivery: PendingDelivery, record: AttemptRecord, next: DeliveryOutcome): Promise<void> {
    const recorded = await this.deliveries.recordAttempt(delivery.envelope, record, next);
    if (!recorded) return;
    this.metrics.attempted(deliveryClass(record.statusCode, record.error, record.outcome === 'skipped'), delivery.envelope.receivedAt);
    if (record.outcome === 'delivered') await this.recovery.delivered(delivery.instanceId);
    if (next.state === 'pending') {
      await this.recovery.backingOff(delivery.instanceId);
      await this.queue.schedule([
        { eventId: delivery.eventId, attempts: record.number, delayMs: next.nextAttemptAt.getTime() - Date.now() },
      ]);
    } else if (record.outcome !== 'delivered') {
      this.logger.warn(
        `${delivery.instanceId}: delivery of ${delivery.eventId} ${next.state} after ${record.number} attempt(s): ${record.error}`,
      );
    }
  }
}

function skipped(delivery: PendingDelivery, url: string, reason: string): AttemptRecord {
  return {
    number: delivery.attempts + 1,
    url,
    startedAt: new Date(),
    durationMs: 0,
    statusCode: null,
    outcome: 'skipped',
    error: reason,
  };
}

function describeFailure(statusCode: number, body: Buffer): string {
  const text = body.toString('utf8', 0, Math.min(body.length, ERROR_SNIPPET)).replace(/\s+/g, ' ').trim();
  const kind = statusCode >= 300 && statusCode < 400 ? ' (redirects are not followed)' : '';
  return `receiver answered ${statusCode}${kind}${text ? `: ${text}` : ''}`;
}

function noop(): void {}

/** A committed event's first attempt, made from memory: its data in stored key order, as a retry will read it. */
function firstDelivery(instanceId: string, envelope: EventEnvelope): PendingDelivery {
  return {
    eventId: envelope.eventId,
    instanceId,
    state: 'pending',
    attempts: 0,
    scheduleStep: 0,
    envelope: { ...envelope, eventData: inStoredKeyOrder(envelope.eventData) },
  };
}
