import { Inject, Injectable, Logger, type OnModuleDestroy } from '@nestjs/common';
import { APP_CONFIG, type AppConfig } from '@app/config';
import { sinkTarget, type EventSinkSettings } from '@app/contracts';
import { SinkDeliveryRepository, type PendingSinkDelivery, type SinkAttemptWrite } from '@app/database';
import type { ShutdownDeadline } from '@app/observability';
import { EventRoutingCache } from '../events/event-routing.cache';
import { verdict } from '../webhooks/retry-policy';
import { SinkConnections } from './sink-connections';

/** Deliveries read and published together, in seq order: one round trip to the broker for a burst. */
const BATCH = 200;
/** Instances published for at the same time by this worker; the others wait their turn (in memory, rows are in PostgreSQL). */
const MAX_LANES = 32;
/** How often the worker looks for due deliveries of its shards it was not told about (restart, handover, lost timers). */
const SWEEP_MS = 2_000;
const SWEEP_LIMIT = 1_000;
/** After a failure of the publisher itself (PostgreSQL unavailable), the instance is looked at again after this. */
const ERROR_PAUSE_MS = 2_000;

interface Lane {
  state: 'idle' | 'queued' | 'running';
  /** Woken while running: look for more once this run ends. */
  again: boolean;
  /** The broker is back: publish the head now even if its retry is due later. */
  force: boolean;
  /** Waiting for the head's retry. */
  timer?: NodeJS.Timeout;
  /** The broker the lane last published to (recovery wakes the lanes of that broker). */
  url?: string;
}

/**
 * Publishes events to their instance's broker sink. Per instance one lane: its pending deliveries are read in seq order
 * and published in that order, one batch in flight, so the broker receives an instance's events in order; a failure
 * stops the lane at that event until its retry (the webhook schedule), or until its broker answers again. An attempt is
 * recorded only after the broker confirmed it, so a crash in between publishes it again (at least once; the event id is
 * the message id, which JetStream de-duplicates and RabbitMQ consumers can). The worker owning the instance's shard
 * runs its lane: woken by the commit of its events, and by a sweep over its shards for anything it was not told about.
 */
@Injectable()
export class SinkPublisher implements OnModuleDestroy {
  private readonly logger = new Logger(SinkPublisher.name);
  private readonly lanes = new Map<string, Lane>();
  private readonly ready: string[] = [];
  private running = 0;
  private readonly inFlight = new Set<Promise<void>>();
  private ownedShards: () => readonly number[] = () => [];
  private sweepTimer: NodeJS.Timeout | undefined;
  private sweeping = false;
  private stopping = false;

  constructor(
    @Inject(APP_CONFIG) private readonly config: AppConfig,
    private readonly deliveries: SinkDeliveryRepository,
    private readonly routing: EventRoutingCache,
    private readonly connections: SinkConnections,
  ) {
    connections.onRecovered((url) => this.recovered(url));
  }

  start(ownedShards: () => readonly number[]): void {
    this.ownedShards = ownedShards;
    this.sweepTimer ??= setInterval(() => void this.sweep(), SWEEP_MS);
    this.sweepTimer.unref();
  }

  /** Events with sink deliveries were just committed here (by the shard's owner): publish them. */
  committed(instanceId: string): void {
    this.wake(instanceId, false);
  }

  /**
   * Stops taking work and waits for the batches in flight (until the deadline when there is one), then closes the broker
   * connections. A batch cut short is not recorded: the shard's next owner publishes it again.
   */
  async stop(deadline?: ShutdownDeadline): Promise<void> {
    if (this.stopping) return;
    this.stopping = true;
    clearInterval(this.sweepTimer);
    this.sweepTimer = undefined;
    for (const lane of this.lanes.values()) clearTimeout(lane.timer);
    const inFlight = Promise.all(this.inFlight);
    if (deadline && !(await deadline.settles(inFlight))) {
      this.logger.warn('sink publishes still in flight at the deadline are left to the next owner');
    } else if (!deadline) {
      await inFlight;
    }
    if (deadline) await deadline.settles(this.connections.closeAll());
    else await this.connections.closeAll();
  }

  async onModuleDestroy(): Promise<void> {
    await this.stop();
  }

  async sweep(): Promise<void> {
    if (this.sweeping || this.stopping) return;
    this.sweeping = true;
    try {
      for (const instanceId of await this.deliveries.dueInstances(this.ownedShards(), SWEEP_LIMIT)) this.wake(instanceId, false);
    } catch (error) {
      this.logger.warn(`looking for due sink deliveries failed: ${(error as Error).message}`);
    } finally {
      this.sweeping = false;
    }
  }

  private wake(instanceId: string, force: boolean): void {
    if (this.stopping) return;
    let lane = this.lanes.get(instanceId);
    if (!lane) {
      lane = { state: 'idle', again: false, force: false };
      this.lanes.set(instanceId, lane);
    }
    if (force) lane.force = true;
    if (lane.state === 'running') {
      lane.again = true;
      return;
    }
    if (lane.state === 'queued') return;
    clearTimeout(lane.timer);
    lane.timer = undefined;
    lane.state = 'queued';
    this.ready.push(instanceId);
    this.pump();
  }

  private pump(): void {
    while (this.running < MAX_LANES && this.ready.length > 0 && !this.stopping) {
      const instanceId = this.ready.shift() as string;
      const lane = this.lanes.get(instanceId);
      if (!lane) continue;
      lane.state = 'running';
      this.running += 1;
      const run = this.run(instanceId, lane)
        .catch((error: Error) => {
          this.logger.warn(`${instanceId}: sink publishing paused: ${error.message}`);
          this.later(lane, instanceId, ERROR_PAUSE_MS);
        })
        .finally(() => {
          this.inFlight.delete(run);
          this.running -= 1;
          lane.state = 'idle';
          if (lane.again && !lane.timer) {
            lane.again = false;
            this.wake(instanceId, false);
          } else if (!lane.timer && !lane.force) {
            this.lanes.delete(instanceId);
          }
          this.pump();
        });
      this.inFlight.add(run);
    }
  }

  /** Publishes the instance's pending deliveries in seq order until none is left, or one must wait for its retry. */
  private async run(instanceId: string, lane: Lane): Promise<void> {
    while (!this.stopping) {
      lane.again = false;
      const force = lane.force;
      lane.force = false;
      const pending = await this.deliveries.pending(instanceId, BATCH);
      if (pending.length === 0) return;
      const routing = await this.routing.get(instanceId);
      const sink = routing?.sink ?? null;
      if (!sink) {
        await this.stopAll(pending);
        continue;
      }
      lane.url = sink.url;
      const waitMs = pending[0].nextAttemptAt.getTime() - Date.now();
      if (waitMs > 0 && !force) {
        this.later(lane, instanceId, waitMs);
        return;
      }
      if (!(await this.publish(instanceId, lane, sink, pending))) return;
    }
  }

  /** One batch; false when the lane must wait for a retry. */
  private async publish(instanceId: string, lane: Lane, sink: EventSinkSettings, pending: PendingSinkDelivery[]): Promise<boolean> {
    const startedAt = new Date();
    const result = await this.connections.for(sink).publish(
      sink,
      pending.map((delivery) => delivery.envelope),
    );
    const durationMs = Date.now() - startedAt.getTime();
    const target = sinkTarget(sink);
    const attempt = (
      delivery: PendingSinkDelivery,
    ): Omit<SinkAttemptWrite, 'outcome' | 'error' | 'state' | 'scheduleStep' | 'nextAttemptAt'> => ({
      eventId: delivery.envelope.eventId,
      receivedAt: new Date(delivery.envelope.receivedAt),
      number: delivery.attempts + 1,
      sink: sink.kind,
      target,
      startedAt,
      durationMs,
    });
    const published = pending.slice(0, result.published);
    await Promise.all(
      published.map((delivery) =>
        this.deliveries.record({
          ...attempt(delivery),
          outcome: 'delivered',
          error: null,
          state: 'delivered',
          scheduleStep: delivery.scheduleStep,
          nextAttemptAt: startedAt,
        }),
      ),
    );
    if (result.error === null) return true;
    const failed = pending[result.published];
    const next = verdict(null, undefined, failed.scheduleStep, this.config.webhookRetryScheduleSeconds);
    const retry = next.kind === 'retry';
    await this.deliveries.record({
      ...attempt(failed),
      outcome: 'failed',
      error: result.error,
      state: retry ? 'pending' : 'failed',
      scheduleStep: retry ? failed.scheduleStep + 1 : failed.scheduleStep,
      nextAttemptAt: new Date(Date.now() + (retry ? next.delayMs : 0)),
    });
    if (!retry) {
      // Its retries ran out: the instance's later events go on (it stays listed as failed, and can be redelivered).
      this.logger.warn(
        `${instanceId}: sink delivery of ${failed.envelope.eventId} failed after ${failed.attempts + 1} attempt(s): ${result.error}`,
      );
      return true;
    }
    if (failed.attempts === 0)
      this.logger.warn(`${instanceId}: ${sink.kind} sink did not take ${failed.envelope.eventId}: ${result.error}`);
    this.later(lane, instanceId, next.delayMs);
    return false;
  }

  /** The instance has no sink any more: its pending deliveries are stopped (the delivery log says why). */
  private async stopAll(pending: PendingSinkDelivery[]): Promise<void> {
    const now = new Date();
    await Promise.all(
      pending.map((delivery) =>
        this.deliveries.record({
          eventId: delivery.envelope.eventId,
          receivedAt: new Date(delivery.envelope.receivedAt),
          number: delivery.attempts + 1,
          sink: 'none',
          target: '',
          startedAt: now,
          durationMs: 0,
          outcome: 'skipped',
          error: 'the instance has no event sink',
          state: 'stopped',
          scheduleStep: delivery.scheduleStep,
          nextAttemptAt: now,
        }),
      ),
    );
  }

  private later(lane: Lane, instanceId: string, delayMs: number): void {
    if (this.stopping) return;
    clearTimeout(lane.timer);
    // Timers beyond ~24.8 days overflow; the sweep finds such a delivery when it is due anyway.
    lane.timer = setTimeout(
      () => {
        lane.timer = undefined;
        this.wake(instanceId, false);
      },
      Math.min(Math.max(delayMs, 0), 2 ** 31 - 1),
    );
    lane.timer.unref();
  }

  /** A broker answers again: the lanes waiting out a retry for it publish now, oldest event first. */
  private recovered(url: string): void {
    for (const [instanceId, lane] of this.lanes) {
      if (lane.url === url && lane.timer) this.wake(instanceId, true);
    }
  }
}
