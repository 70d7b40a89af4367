import { Inject, Injectable, Logger, Optional } from '@nestjs/common';
import { APP_CONFIG, type AppConfig } from '@app/config';
import { PermanentSendError, passesEventFilters, shardOf, type NormalisedEvent } from '@app/contracts';
import { FencedOutError, MessageRepository, type Fence, type SendOutcome, type StoredMessage, type UnreadableMessage } from '@app/database';
import { normalise, type SentMessage } from '@app/messaging';
import { EventFanout } from '../events/event-fanout';
import { EventRoutingCache } from '../events/event-routing.cache';
import { InstanceSessions } from '../sessions/instance-sessions';
import { ShardLeaseCheck } from '../shards/shard-lease-check';
import { ChatActivity } from '../store/chat-activity';
import { MediaResolver } from './media-resolver';
import { SendBreaker, type BreakerChange } from './send-breaker';
import { SendingPauses } from './sending-pauses';
import { SendMetrics } from './send-metrics';
import { UnconfirmedSends } from './unconfirmed-sends';

const BATCH = 200;

interface Drain {
  again: boolean;
  done: Promise<void>;
}

/** A send the network took whose outcome could not be written yet: it is recorded later, never sent again. */
interface UnrecordedOutcome {
  outcome: SendOutcome;
  events: NormalisedEvent[];
}

/**
 * Sends each instance's accepted messages in acceptance order, one instance never waiting on another.
 * PostgreSQL holds the queue; a job, the reconciler or a reconnect only "kicks" an instance's drain.
 */
@Injectable()
export class SendDispatcher {
  private readonly logger = new Logger(SendDispatcher.name);
  private readonly drains = new Map<string, Drain>();
  private readonly lastSendAt = new Map<string, number>();
  /** By message id. Bounded by the sends that hit a database failure; each entry goes once its outcome is written. */
  private readonly unrecorded = new Map<string, UnrecordedOutcome>();
  private stopping = false;
  /** Wakes drains waiting out their pacing interval when the dispatcher stops. */
  private readonly stopped = new AbortController();
  /** Per instance: the kick that ends its sends' pause (see `SendBreaker`). */
  private readonly pauseEnds = new Map<string, NodeJS.Timeout>();
  /** Stored sends from a newer API, logged once each: they wait (accepted) for an upgraded worker. */
  private readonly waitingForUpgrade = new Set<string>();

  constructor(
    @Inject(APP_CONFIG) private readonly config: AppConfig,
    private readonly messages: MessageRepository,
    private readonly sessions: InstanceSessions,
    private readonly media: MediaResolver,
    private readonly routing: EventRoutingCache,
    private readonly fanout: EventFanout,
    private readonly activity: ChatActivity,
    private readonly lease: ShardLeaseCheck,
    private readonly breaker: SendBreaker,
    private readonly pauses: SendingPauses,
    /** Optional so the dispatcher can be built without a metrics registry (unit tests). */
    @Optional() private readonly metrics?: SendMetrics,
    /** Optional for the same reason: without it, unconfirmed sends are recorded but nothing settles them in memory. */
    @Optional() private readonly unconfirmed?: UnconfirmedSends,
  ) {
    sessions.onConnected((instanceId) => void this.kick(instanceId));
  }

  /** Makes sure the instance's pending messages get sent; resolves when the drain this kick joined has finished. */
  kick(instanceId: string): Promise<void> {
    if (this.stopping) return Promise.resolve();
    const running = this.drains.get(instanceId);
    if (running) {
      running.again = true;
      return running.done;
    }
    const drain = { again: false } as Drain;
    // A failed drain leaves its rows `accepted`; the reconciler or the next kick retries them. It must never take the worker down.
    drain.done = this.drain(instanceId, drain)
      .catch((error: Error) => {
        // PostgreSQL refused a write under this worker's lease: the shard is someone else's now; stop acting for it at once.
        if (error instanceof FencedOutError) this.lease.refused(error.fence);
        this.logger.error(`${instanceId}: drain stopped: ${error.message}`);
      })
      .finally(() => this.drains.delete(instanceId));
    this.drains.set(instanceId, drain);
    return drain.done;
  }

  /** Shutdown: no drain starts and none takes another message; the send in progress of each drain still finishes. */
  stop(): void {
    this.stopping = true;
    this.stopped.abort();
    for (const timer of this.pauseEnds.values()) clearTimeout(timer);
    this.pauseEnds.clear();
  }

  /** Resolves when the drains running now (of one shard's instances, when given) have ended. */
  async idle(shard?: number): Promise<void> {
    const running = [...this.drains].filter(([instanceId]) => shard === undefined || shardOf(instanceId, this.config.shardCount) === shard);
    await Promise.all(running.map(([, drain]) => drain.done));
  }

  private async drain(instanceId: string, state: Drain): Promise<void> {
    const shard = shardOf(instanceId, this.config.shardCount);
    const interval = await this.messages.sendInterval(instanceId);
    do {
      state.again = false;
      const batch = await this.messages.pending(instanceId, BATCH);
      for (const message of batch) {
        if (this.stopping) return;
        const unrecorded = this.unrecorded.get(message.id);
        if (unrecorded) {
          const fence = this.lease.fence(shard);
          if (!fence) return;
          await this.recordOutcome(instanceId, message.id, unrecorded.outcome, unrecorded.events, fence);
          this.unrecorded.delete(message.id);
          continue;
        }
        if ('unreadable' in message) {
          if (!(await this.unreadable(instanceId, message, shard))) return;
          continue;
        }
        // Sends paused after repeated restriction refusals: the rows stay accepted, in order, until the probe's turn.
        const permit = this.breaker.permit(instanceId);
        if (!permit.allowed) return this.resumeAt(instanceId, permit.until);
        await this.pace(instanceId, interval);
        if (this.stopping) return;
        // Only the shard's current owner may send, and only over a live link; otherwise the rows wait.
        const fence = this.lease.fence(shard);
        const session = fence ? this.sessions.connectedSession(instanceId) : undefined;
        if (!session || !fence) return;
        // PostgreSQL, not a queue lock, decides whether the message may go out: no other worker can claim it under this
        // lease, and a later owner's claim fences this one out. Not claimable: it is no longer `accepted`.
        if (!(await this.messages.claim(instanceId, message.id, fence))) continue;
        const delivered = await this.sendOne(instanceId, message, fence, async () => session.send(await this.media.resolve(message)));
        if (!delivered) return;
      }
      if (batch.length === BATCH) state.again = true;
    } while (state.again);
  }

  /**
   * A row this worker cannot read as a send. Written by a newer API (an unknown version): left `accepted` for an upgraded
   * worker, and the drain stops there so later messages keep their order (false). Malformed: failed with the reason,
   * like a send the network refused, and the drain goes on (true). Never sent, never retried in a loop.
   */
  private async unreadable(instanceId: string, message: UnreadableMessage, shard: number): Promise<boolean> {
    const { reason, unknownVersion } = message.unreadable;
    if (unknownVersion !== undefined) {
      if (!this.waitingForUpgrade.has(message.id)) {
        this.waitingForUpgrade.add(message.id);
        this.logger.warn({ instanceId, messageId: message.id, boundary: 'stored_send', reason }, 'stored send waits for a newer worker');
      }
      return false;
    }
    const fence = this.lease.fence(shard);
    if (!fence) return false;
    if (!(await this.messages.claim(instanceId, message.id, fence))) return true;
    const error = `the stored send could not be read (${reason})`;
    this.logger.warn({ instanceId, messageId: message.id, boundary: 'stored_send', reason }, 'stored send failed: unreadable');
    const events = [normalise.messageStatus({ id: message.id, chatId: message.chatJid, status: 'failed', error })];
    await this.recordOnce(instanceId, message.id, fence, { outcome: { status: 'failed', error }, events });
    return true;
  }

  /** False when the network could not take the message now: stop and retry the same row later. */
  private async sendOne(instanceId: string, message: StoredMessage, fence: Fence, send: () => Promise<SentMessage>): Promise<boolean> {
    let sent: SentMessage;
    try {
      sent = await send();
    } catch (error) {
      if (!(error instanceof PermanentSendError)) {
        this.logger.warn(`${instanceId}: ${message.id} not sent yet: ${(error as Error).message}`);
        return false;
      }
      const code = error.code;
      const events: NormalisedEvent[] = [
        normalise.messageStatus({ id: message.id, chatId: message.chatJid, status: 'failed', error: error.message, code }),
      ];
      const change = code === undefined ? undefined : this.breaker.refused(instanceId, code);
      events.push(...this.breakerEvents(instanceId, change));
      await this.recordOnce(instanceId, message.id, fence, { outcome: { status: 'failed', error: error.message }, events });
      await this.media.release(message);
      this.lastSendAt.set(instanceId, Date.now());
      return true;
    }
    // Written but never acknowledged: reported as such and never sent again (a later ack or receipt settles it). It says
    // nothing about a restriction either way, so the breaker is left as it stands.
    if (sent.unconfirmed !== undefined) {
      this.logger.warn(`${instanceId}: ${message.id} unconfirmed: ${sent.unconfirmed}`);
    }
    const outcome: SendOutcome = sent.unconfirmed === undefined ? { status: 'sent' } : { status: 'unconfirmed', error: sent.unconfirmed };
    const events: NormalisedEvent[] = [normalise.messageStatus({ id: message.id, chatId: message.chatJid, ...outcome })];
    if (sent.ownMessage) events.push(sent.ownMessage);
    if (sent.unconfirmed === undefined) events.push(...this.breakerEvents(instanceId, this.breaker.taken(instanceId)));
    await this.recordOnce(instanceId, message.id, fence, { outcome, events });
    if (sent.unconfirmed !== undefined) this.unconfirmed?.noted(instanceId, message.id);
    if (message.acceptedAt) this.metrics?.sent(message.acceptedAt);
    const own = sent.ownMessage?.data;
    if (own && !own.isStatus) this.activity.note(instanceId, own.chatId, own.isGroup, new Date(own.time));
    await this.media.release(message);
    this.lastSendAt.set(instanceId, Date.now());
    return true;
  }

  /**
   * Records the outcome of a send the network has answered. If that fails (database down), the outcome is kept in
   * memory and the drain stops; the next drain records it instead of sending the message a second time. Refused by the
   * fence, it is not kept: the shard's new owner sends the message again under the same id (the crash window).
   */
  private async recordOnce(instanceId: string, messageId: string, fence: Fence, unrecorded: UnrecordedOutcome): Promise<void> {
    try {
      await this.recordOutcome(instanceId, messageId, unrecorded.outcome, unrecorded.events, fence);
    } catch (error) {
      if (!(error instanceof FencedOutError)) this.unrecorded.set(messageId, unrecorded);
      throw error;
    }
  }

  /**
   * The outcome and the events the instance's filters let through, in one commit (shared with other instances' outcomes
   * of the same moment); then webhooks and streams hear of them.
   */
  private async recordOutcome(
    instanceId: string,
    messageId: string,
    outcome: SendOutcome,
    events: NormalisedEvent[],
    fence: Fence,
  ): Promise<void> {
    const routing = await this.routing.get(instanceId);
    const allowed = events.filter((event) => passesEventFilters(event.eventType, routing?.eventFilters ?? []));
    const deliver = routing?.webhookUrl != null;
    const sink = routing?.sink != null;
    const recorded = await this.messages.recordOutcome(instanceId, messageId, outcome, allowed, { deliver, sink, fence });
    // The next send waits for the outcome's commit, not for Redis: webhook jobs and stream wake-ups are only
    // dispatch (the delivery reconciler re-queues a lost job, streams also poll the log).
    if (recorded.recorded) void this.fanout.committed(instanceId, recorded.events, routing?.webhookUrl ?? null, sink);
  }

  /** The pause or resumption a send's outcome caused, as the event that goes out with that outcome. */
  private breakerEvents(instanceId: string, change: BreakerChange): NormalisedEvent[] {
    if (!change) return [];
    if (change.change === 'closed') {
      this.logger.log(`${instanceId}: sends resume: the probe send was taken`);
      void this.pauses.resumed(instanceId);
      return [normalise.instanceSending({ state: 'resumed', reason: 'a probe send after the pause was taken by the network' })];
    }
    void this.pauses.paused(instanceId, { code: change.code, refusals: change.refusals, probeAt: change.until });
    this.logger.warn(
      `${instanceId}: sends paused until ${new Date(change.until).toISOString()}: ${change.refusals} refusals, last ${change.code}`,
    );
    return [
      normalise.instanceSending({
        state: 'paused',
        code: change.code,
        refusals: change.refusals,
        probeAt: new Date(change.until),
        reason: `the network refused ${change.refusals} sends as from a restricted account (last: ${change.code}); sends wait, then one probes`,
      }),
    ];
  }

  /** The drain stops while sends are paused; this kick starts the next one (the probe) when the pause ends. */
  private resumeAt(instanceId: string, until: number): void {
    if (this.stopping || this.pauseEnds.has(instanceId)) return;
    const timer = setTimeout(
      () => {
        this.pauseEnds.delete(instanceId);
        void this.kick(instanceId);
      },
      Math.max(0, until - Date.now()) + 10,
    );
    timer.unref();
    this.pauseEnds.set(instanceId, timer);
  }

  private async pace(instanceId: string, intervalMs: number): Promise<void> {
    if (intervalMs <= 0) return;
    const wait = (this.lastSendAt.get(instanceId) ?? 0) + intervalMs - Date.now();
    if (wait <= 0 || this.stopping) return;
    await new Promise<void>((resolve) => {
      const done = () => {
        clearTimeout(timer);
        this.stopped.signal.removeEventListener('abort', done);
        resolve();
      };
      const timer = setTimeout(done, wait);
      this.stopped.signal.addEventListener('abort', done);
    });
  }
}
