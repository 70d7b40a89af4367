import { Injectable, Logger, Optional } from '@nestjs/common';
import { AppError, isPaired, type InstanceStatus, type NormalisedEvent } from '@app/contracts';
import { FencedOutError, InstanceLifecycleRepository, type Fence, type OwnedInstance } from '@app/database';
import { normalise, type CloseReason, type NetworkSession, type SessionHooks } from '@app/messaging';
import { UnconfirmedSends } from '../dispatch/unconfirmed-sends';
import { ShardLeaseCheck } from '../shards/shard-lease-check';
import { StoreProjector } from '../store/store-projector';
import { DriverRegistry } from './driver-registry';
import { EventRecorder } from './event-recorder';
import { NetworkProxies, type ProxyChange } from './network-proxies';
import { ResumePacer, type ResumeProgress } from './resume-pacer';
import { SerialLanes } from './serial-lanes';
import { StatusStore } from './status-store';

const BACKOFF_BASE_MS = 500;
const BACKOFF_MAX_MS = 30_000;
/** After the network refused the client version: retrying sooner would only be refused again. */
const OUTDATED_BACKOFF_MS = 5 * 60_000;
/** After the instance's proxy failed: it takes a person to fix it, so retries are slow (a settings change retries at once). */
const PROXY_BACKOFF_MS = 60_000;
const PROXY_FAILURES: readonly CloseReason[] = ['proxy_unreachable', 'proxy_auth_failed', 'proxy_refused'];
type ProxyFailureReason = 'proxy_unreachable' | 'proxy_auth_failed' | 'proxy_refused';
const QR_WAIT_MS = 5_000;
/** How long a network operation for an instance still waiting to resume waits for the session it opens out of turn. */
const RESUME_WAIT_MS = 5_000;
/** Connection attempts an unpaired instance makes for a pairing before it waits for the next QR or pair-code request. */
const PAIRING_ATTEMPTS = 5;
/** Most events of one instance appended in one statement. */
const MAX_EVENT_BATCH = 500;

interface ManagedSession {
  instance: OwnedInstance;
  /** The shard lease the session was started under: every write it makes is fenced with it. */
  fence: Fence;
  session: NetworkSession;
  status: InstanceStatus;
  /** Why it is in that status when its proxy put it there; kept while it reconnects, cleared by any other transition. */
  statusReason: string | null;
  /** The proxy the session's last connection attempt went through (null: direct); undefined until it asked. */
  proxyInUse?: string | null;
  deviceId: string | null;
  failures: number;
  /**
   * Opened by a takeover while the live status says connected (the previous owner handed it over): the first
   * connection attempt does not announce `connecting`, so the API keeps accepting sends (durable rows that go out once
   * the link opens) instead of answering 503 for a move nobody asked it to notice. A failed attempt reports the outage.
   */
  resuming: boolean;
  reconnectTimer?: NodeJS.Timeout;
  /** The pending reconnect, while one is scheduled. */
  reconnect?: PendingReconnect;
  stopped: boolean;
}

/** A scheduled reconnect, as the worker's status endpoint shows it. */
export interface PendingReconnect {
  instanceId: string;
  /** Which reconnect this is since the link was last up (1 for the first). */
  attempt: number;
  delayMs: number;
  at: string;
  reason: string;
}

/**
 * Jittered exponential backoff, so a network-wide outage does not reconnect every instance in the same instant.
 * `minimumMs` raises the base before the jitter (a refused client version waits long whatever the count).
 */
export function reconnectDelay(failures: number, random = Math.random, minimumMs = 0): number {
  const base = Math.max(minimumMs, Math.min(BACKOFF_MAX_MS, BACKOFF_BASE_MS * 2 ** failures));
  return Math.round(base * (0.8 + 0.4 * random()));
}

/**
 * The network sessions of the instances this worker owns: connects paired instances, drives status
 * transitions, reconnects with backoff, and turns what the drivers report into status and events.
 */
@Injectable()
export class InstanceSessions {
  private readonly logger = new Logger(InstanceSessions.name);
  private readonly sessions = new Map<string, ManagedSession>();
  /** The shards whose instances the next `openShards` reads (filled during one turn of the event loop). */
  private opening: { shards: number[]; done: Promise<void> } | undefined;
  private readonly lanes = new SerialLanes();
  /** Per instance, the events waiting in its lane to be recorded together (see `recordEvent`). */
  private readonly openEventBatches = new Map<string, NormalisedEvent[]>();
  private readonly connectedListeners: ((instanceId: string) => void)[] = [];
  private readonly transitionListeners: ((instanceId: string, status: InstanceStatus) => void)[] = [];
  /** The lease under which each instance's latest session was started; its events are appended under it. */
  private readonly fences = new Map<string, Fence>();

  constructor(
    private readonly instances: InstanceLifecycleRepository,
    private readonly drivers: DriverRegistry,
    private readonly statuses: StatusStore,
    private readonly events: EventRecorder,
    private readonly store: StoreProjector,
    private readonly lease: ShardLeaseCheck,
    private readonly pacer: ResumePacer,
    @Optional() private readonly proxies?: NetworkProxies,
    /** Settles sends recorded `unconfirmed` from the events that confirm or refuse them (optional for unit tests). */
    @Optional() private readonly unconfirmed?: UnconfirmedSends,
  ) {
    proxies?.onChange((change) => void this.proxyChanged(change));
  }

  count(): number {
    return this.sessions.size;
  }

  /** The takeover in progress (or the last one): sessions opened and still waiting to open. */
  resumeProgress(): ResumeProgress {
    return this.pacer.progress();
  }

  /** How many of this worker's sessions are in each status right now (for `/metrics`). */
  statusCounts(): Map<InstanceStatus, number> {
    const counts = new Map<InstanceStatus, number>();
    for (const managed of this.sessions.values()) counts.set(managed.status, (counts.get(managed.status) ?? 0) + 1);
    return counts;
  }

  /** Called on every status transition of a session (for `/metrics`: transitions and flapping links). */
  onTransition(listener: (instanceId: string, status: InstanceStatus) => void): void {
    this.transitionListeners.push(listener);
  }

  /** The reconnects scheduled right now: for the worker's status endpoint, so a backoff can be watched. */
  reconnecting(): PendingReconnect[] {
    return [...this.sessions.values()].flatMap((managed) => (managed.reconnect ? [managed.reconnect] : []));
  }

  /** Called whenever an instance's link opens (e.g. to send what was accepted while it was down). */
  onConnected(listener: (instanceId: string) => void): void {
    this.connectedListeners.push(listener);
  }

  /** The user JID of the instance's paired device (`<phone>@s.whatsapp.net`), when known. */
  selfJid(instanceId: string): string | undefined {
    const deviceId = this.sessions.get(instanceId)?.deviceId;
    const phone = deviceId ? /^(\d+)/.exec(deviceId)?.[1] : undefined;
    return phone ? `${phone}@s.whatsapp.net` : undefined;
  }

  /** The instance's session if its link is up on this worker right now. */
  connectedSession(instanceId: string): NetworkSession | undefined {
    const managed = this.sessions.get(instanceId);
    return managed && !managed.stopped && managed.status === 'connected' ? managed.session : undefined;
  }

  /**
   * The instance's live session. One still waiting for its turn after a takeover is opened now, out of turn (a caller
   * waits for it), and given a few seconds to come up: a planned move does not turn a network operation into a 503.
   */
  async liveSession(instanceId: string): Promise<NetworkSession | undefined> {
    const live = this.connectedSession(instanceId);
    if (live || !this.pacer.isWaiting(instanceId)) return live;
    const instance = await this.instances.find(instanceId);
    if (instance) await this.resume(instance);
    const deadline = Date.now() + RESUME_WAIT_MS;
    for (;;) {
      const session = this.connectedSession(instanceId);
      const managed = this.sessions.get(instanceId);
      if (session || !managed || managed.stopped || managed.reconnect || Date.now() >= deadline) return session;
      await new Promise((resolve) => setTimeout(resolve, 20));
    }
  }

  /**
   * Queues every paired instance of a shard this worker just acquired for the resume pacer, which opens them at the
   * configured rate over all shards this worker takes; a pairing in progress is reset at once. The shards of one acquire
   * (a worker starting alone takes all 4,096 at once) are read in one query.
   */
  openShard(shard: number): Promise<void> {
    if (!this.opening) {
      const batch = { shards: [] as number[], done: Promise.resolve() };
      // A microtask, not a timer: the listener calls of one acquire are all queued before the first runs, so they all
      // join this batch before it is read.
      batch.done = Promise.resolve().then(() => {
        this.opening = undefined;
        return this.openShards(batch.shards);
      });
      this.opening = batch;
    }
    this.opening.shards.push(shard);
    return this.opening.done;
  }

  private async openShards(shards: number[]): Promise<void> {
    // Each instance under its shard's current lease; a shard lost while they were read opens nothing.
    const owned = (await this.instances.inShards(shards)).flatMap((instance) => {
      const fence = this.lease.fence(instance.shard);
      return fence ? [{ instance, fence }] : [];
    });
    // A pairing attempt belonged to the previous owner's session; the client asks for a new QR code.
    await Promise.all(
      owned
        .filter(({ instance }) => instance.status === 'pairing')
        .map(({ instance, fence }) => this.statuses.set(instance.id, 'unpaired', null, fence)),
    );
    this.pacer.enqueue(
      owned
        .filter(({ instance }) => isPaired(instance.status))
        .map(({ instance }) => ({
          instanceId: instance.id,
          shard: instance.shard,
          lastConnectedAt: instance.statusChangedAt?.getTime() ?? null,
          open: () => this.resume(instance),
        })),
    );
  }

  /** Closes (without unlinking) the sessions of a shard this worker no longer owns; those not yet opened never will be. */
  async closeShard(shard: number): Promise<void> {
    this.pacer.cancelShard(shard);
    await Promise.all(
      [...this.sessions.values()].filter((managed) => managed.instance.shard === shard).map((managed) => this.stop(managed)),
    );
  }

  async closeAll(): Promise<void> {
    this.pacer.cancelAll();
    await Promise.all([...this.sessions.values()].map((managed) => this.stop(managed)));
    await this.lanes.drain();
  }

  /** The instance's session, started if it has none yet (an unpaired instance starts pairing). */
  async ensure(instanceId: string): Promise<ManagedSession> {
    const existing = this.sessions.get(instanceId);
    if (existing) return existing;
    const instance = await this.instances.find(instanceId);
    if (!instance) throw new AppError('not_found');
    return this.start(instance);
  }

  async qr(instanceId: string): Promise<{ code: string }> {
    const managed = await this.ensureUnpaired(instanceId);
    const deadline = Date.now() + QR_WAIT_MS;
    while (Date.now() < deadline) {
      const code = managed.session.currentQr();
      if (code) return { code };
      if (managed.stopped) break;
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
    throw new AppError('instance_unavailable');
  }

  async pairCode(instanceId: string, phone: string): Promise<{ code: string }> {
    const managed = await this.ensureUnpaired(instanceId);
    return { code: await managed.session.requestPairCode(phone) };
  }

  async logout(instanceId: string): Promise<{ loggedOut: boolean }> {
    const instance = await this.instances.find(instanceId);
    if (!instance) throw new AppError('not_found');
    if (!isPaired(instance.status) && !this.sessions.get(instanceId)?.deviceId) throw new AppError('device_not_paired');
    const managed = await this.ensure(instanceId);
    await managed.session.logout();
    return { loggedOut: true };
  }

  async restart(instanceId: string): Promise<{ restarted: boolean }> {
    const managed = this.sessions.get(instanceId);
    if (managed) await this.stop(managed);
    const instance = await this.instances.find(instanceId);
    if (!instance) throw new AppError('not_found');
    if (!isPaired(instance.status)) return { restarted: false };
    await this.start(instance);
    return { restarted: true };
  }

  /** The link is known to be back (e.g. the simulated phone came online): try now instead of waiting out the backoff. */
  reconnectNow(instanceId: string): void {
    const managed = this.sessions.get(instanceId);
    if (!managed || managed.stopped || managed.status === 'connected') return;
    if (managed.reconnectTimer) clearTimeout(managed.reconnectTimer);
    managed.reconnectTimer = undefined;
    managed.reconnect = undefined;
    void this.connect(managed);
  }

  /** Accepted either way; the history is only sent to an instance whose effective `historySync` setting is on. */
  async flushHistory(instanceId: string): Promise<{ accepted: boolean }> {
    const managed = this.sessions.get(instanceId);
    if (!managed || managed.status !== 'connected') throw new AppError('instance_unavailable');
    if (await this.instances.historySync(instanceId)) await managed.session.flushHistory();
    return { accepted: true };
  }

  private async ensureUnpaired(instanceId: string): Promise<ManagedSession> {
    const instance = await this.instances.find(instanceId);
    if (!instance) throw new AppError('not_found');
    if (isPaired(instance.status)) throw new AppError('device_already_paired');
    return this.ensure(instanceId);
  }

  /** The pacer's turn for an instance of an acquired shard (unless a command opened it meanwhile). */
  private async resume(queued: OwnedInstance): Promise<void> {
    if (this.sessions.has(queued.id) || !this.lease.holds(queued.shard)) return;
    // The wait may have been long: act on the instance as it is now (it may have been deleted or logged out meanwhile).
    const instance = await this.instances.find(queued.id);
    if (!instance || !isPaired(instance.status) || this.sessions.has(instance.id)) return;
    await this.start(instance, true).catch((error: Error) => this.logger.warn(`${instance.id}: ${error.message}`));
  }

  private async start(instance: OwnedInstance, resuming = false): Promise<ManagedSession> {
    // Opened now (a command, a restart): the pacer must not open it a second time.
    this.pacer.cancel(instance.id);
    // Only under the shard's lease: the session's writes carry its token, and PostgreSQL refuses them once it has passed on.
    const fence = this.lease.fence(instance.shard);
    if (!fence) throw new AppError('instance_unavailable');
    const driver = this.drivers.for(instance);
    const managed = {
      instance,
      fence,
      status: instance.status,
      statusReason: instance.statusReason,
      deviceId: instance.deviceId,
      failures: 0,
      stopped: false,
      resuming: resuming && instance.status === 'connected',
    } as ManagedSession;
    this.fences.set(instance.id, fence);
    managed.session = driver.createSession({ instanceId: instance.id, customerId: instance.customerId, fence }, this.hooksFor(managed));
    this.sessions.set(instance.id, managed);
    await this.connect(managed);
    return managed;
  }

  private async connect(managed: ManagedSession): Promise<void> {
    if (managed.stopped) return;
    const handedOver = managed.resuming;
    managed.resuming = false;
    if (isPaired(managed.status) && managed.status !== 'connecting' && !handedOver) this.transition(managed, 'connecting');
    try {
      await managed.session.connect();
    } catch (error) {
      this.onClosed(managed, 'network', `connect failed: ${(error as Error).message}`);
    }
  }

  private async stop(managed: ManagedSession): Promise<void> {
    managed.stopped = true;
    if (managed.reconnectTimer) clearTimeout(managed.reconnectTimer);
    managed.reconnect = undefined;
    if (this.sessions.get(managed.instance.id) === managed) this.sessions.delete(managed.instance.id);
    await managed.session.close().catch((error: Error) => this.logger.warn(`${managed.instance.id}: close failed: ${error.message}`));
  }

  private hooksFor(managed: ManagedSession): SessionHooks {
    const id = managed.instance.id;
    return {
      qr: () => {
        managed.failures = 0;
        if (managed.status !== 'pairing') this.transition(managed, 'pairing');
      },
      opened: ({ deviceId, isNewLogin }) => {
        managed.failures = 0;
        managed.deviceId = deviceId;
        this.unconfirmed?.forget(id);
        const proxyRestored = PROXY_FAILURES.includes(managed.statusReason as CloseReason);
        this.transition(managed, 'connected');
        if (proxyRestored) this.recordEvent(id, normalise.instanceConnection({ state: 'restored' }));
        if (isNewLogin) this.recordEvent(id, normalise.loggedIn({ deviceId }));
        this.connectedListeners.forEach((listener) => listener(id));
      },
      closed: (reason, detail, deviceId) => this.onClosed(managed, reason, detail, deviceId),
      event: (event) => this.recordEvent(id, event),
      learned: (facts) => {
        void this.inLane(id, () => this.store.learn(id, facts)).catch((error: Error) =>
          this.logger.error(`${id}: facts not stored: ${error.message}`),
        );
      },
      historySyncEnabled: () => this.instances.historySync(id),
      networkProxy: async () => {
        const url = this.proxies ? await this.proxies.effective(id) : undefined;
        managed.proxyInUse = url ?? null;
        return url;
      },
      holdsLease: () => this.lease.holds(managed.instance.shard),
      fencedOut: () => this.fencedOut(managed.fence),
    };
  }

  private onClosed(managed: ManagedSession, reason: CloseReason, detail?: string, deviceId?: string): void {
    if (managed.stopped && reason !== 'logged_out') return;
    const id = managed.instance.id;
    switch (reason) {
      case 'logged_out':
        void this.stop(managed);
        managed.deviceId = null;
        this.transition(managed, 'unpaired');
        this.recordEvent(id, normalise.loggedOut({ reason: detail ?? 'user_logged_out' }));
        return;
      case 'pairing_timeout':
        void this.stop(managed);
        this.transition(managed, 'unpaired');
        return;
      case 'pairing_failed':
        void this.stop(managed);
        this.transition(managed, 'unpaired');
        this.recordEvent(id, normalise.loginError({ deviceId, error: detail ?? 'pairing failed' }));
        return;
      case 'replaced':
        void this.stop(managed);
        this.transition(managed, 'disconnected');
        this.recordEvent(
          id,
          normalise.loginError({ deviceId: deviceId ?? managed.deviceId ?? undefined, error: detail ?? 'connection replaced' }),
        );
        return;
      case 'refused':
        void this.stop(managed);
        this.transition(managed, isPaired(managed.status) || managed.deviceId ? 'disconnected' : 'unpaired');
        this.recordEvent(
          id,
          normalise.loginError({ deviceId: deviceId ?? managed.deviceId ?? undefined, error: detail ?? 'refused by the network' }),
        );
        return;
      case 'network':
      case 'outdated':
        if (isPaired(managed.status) || managed.deviceId) {
          this.transition(managed, 'disconnected');
          this.scheduleReconnect(managed, reason, detail);
        } else {
          this.retryPairing(managed, reason, detail);
        }
        return;
      case 'proxy_unreachable':
      case 'proxy_auth_failed':
      case 'proxy_refused':
        this.proxyFailed(managed, reason, detail ?? reason);
        return;
      case 'stopped':
        return;
    }
  }

  /**
   * The proxy, not the network, kept the link down: the status says why and one `instance_connection` event tells the
   * customer (not one per attempt). A paired instance retries slowly; a pairing stops at once (the next QR request tries
   * again), so a dead proxy never becomes a silent reconnect loop.
   */
  private proxyFailed(managed: ManagedSession, reason: ProxyFailureReason, detail: string): void {
    const known = managed.statusReason === reason;
    let retryAt: Date | undefined;
    if (isPaired(managed.status) || managed.deviceId) {
      this.transition(managed, 'disconnected', reason);
      this.scheduleReconnect(managed, reason, detail);
      if (managed.reconnect) retryAt = new Date(managed.reconnect.at);
    } else {
      void this.stop(managed);
      this.transition(managed, 'unpaired', reason);
    }
    this.logger.warn(`${managed.instance.id}: ${reason}: ${detail}`);
    if (!known) this.recordEvent(managed.instance.id, normalise.instanceConnection({ state: 'failed', reason, detail, retryAt }));
  }

  /** Sessions whose proxy is no longer the one their settings name reconnect through the new one; no other session moves. */
  private async proxyChanged(change: ProxyChange): Promise<void> {
    const affected = [...this.sessions.values()].filter(
      (managed) =>
        !managed.stopped &&
        managed.proxyInUse !== undefined &&
        (change === 'any' ||
          ('instanceId' in change ? managed.instance.id === change.instanceId : managed.instance.customerId === change.customerId)),
    );
    for (const managed of affected) {
      try {
        const next = (await this.proxies?.effective(managed.instance.id)) ?? null;
        if (next === managed.proxyInUse || managed.stopped) continue;
        this.logger.log(`${managed.instance.id}: its proxy changed; reconnecting`);
        await this.restart(managed.instance.id);
      } catch (error) {
        this.logger.warn(`${managed.instance.id}: reconnect after a proxy change failed: ${(error as Error).message}`);
      }
    }
  }

  /**
   * A pairing whose connection failed tries again a few times with backoff, then stops, so that an unreachable network
   * costs a bounded number of attempts per QR or pair-code request rather than a loop that never ends.
   */
  private retryPairing(managed: ManagedSession, reason: CloseReason, detail?: string): void {
    if (managed.status === 'pairing') this.transition(managed, 'unpaired');
    if (managed.failures < PAIRING_ATTEMPTS) return this.scheduleReconnect(managed, reason, detail);
    this.logger.warn(`${managed.instance.id}: pairing stopped after ${managed.failures} failed connection attempts (${detail ?? reason})`);
    void this.stop(managed);
  }

  private scheduleReconnect(managed: ManagedSession, reason: CloseReason, detail?: string): void {
    if (managed.stopped || managed.reconnectTimer) return;
    const minimumMs = reason === 'outdated' ? OUTDATED_BACKOFF_MS : PROXY_FAILURES.includes(reason) ? PROXY_BACKOFF_MS : 0;
    const delay = reconnectDelay(managed.failures, Math.random, minimumMs);
    managed.failures += 1;
    const id = managed.instance.id;
    const why = detail ?? reason;
    managed.reconnect = {
      instanceId: id,
      attempt: managed.failures,
      delayMs: delay,
      at: new Date(Date.now() + delay).toISOString(),
      reason: why,
    };
    this.logger.warn(`${id}: link down (${why}); reconnect attempt ${managed.failures} in ${delay} ms`);
    managed.reconnectTimer = setTimeout(() => {
      managed.reconnectTimer = undefined;
      managed.reconnect = undefined;
      void this.connect(managed);
    }, delay);
    managed.reconnectTimer.unref();
  }

  /** `reason`: why (a proxy failure); a reconnect attempt (`connecting`) keeps the one it has, any other status clears it. */
  private transition(
    managed: ManagedSession,
    status: InstanceStatus,
    reason: string | null = status === 'connecting' ? managed.statusReason : null,
  ): void {
    managed.status = status;
    managed.statusReason = reason;
    for (const listener of this.transitionListeners) listener(managed.instance.id, status);
    const deviceId = status === 'unpaired' || status === 'pairing' ? null : managed.deviceId;
    void this.inLane(managed.instance.id, () => this.statuses.set(managed.instance.id, status, deviceId, managed.fence, reason)).catch(
      (error: Error) => {
        if (error instanceof FencedOutError) this.fencedOut(error.fence);
        this.logger.error(`${managed.instance.id}: status ${status} not saved: ${error.message}`);
      },
    );
  }

  /**
   * Events keep the order in which they happened for each instance; the store sees each before it is recorded. Events
   * reported while the instance's lane is busy wait together and are appended in one commit (a burst of inbound
   * messages costs one statement, not one per event); any other lane task closes the batch, so nothing overtakes it.
   */
  private recordEvent(instanceId: string, event: NormalisedEvent): void {
    const open = this.openEventBatches.get(instanceId);
    if (open && open.length < MAX_EVENT_BATCH) {
      open.push(event);
      return;
    }
    const batch = [event];
    this.openEventBatches.set(instanceId, batch);
    void this.lanes
      .run(instanceId, async () => {
        if (this.openEventBatches.get(instanceId) === batch) this.openEventBatches.delete(instanceId);
        for (const each of batch) await this.store.apply(instanceId, each);
        const fence = this.fences.get(instanceId);
        const rest = this.unconfirmed ? await this.unconfirmed.settle(instanceId, batch, fence) : batch;
        await this.events.recordMany(instanceId, rest, fence);
      })
      .catch((error: Error) => {
        if (error instanceof FencedOutError) this.fencedOut(error.fence);
        this.logger.error(`${instanceId}: ${batch.map((each) => each.eventType).join(', ')} not recorded: ${error.message}`);
      });
  }

  /** PostgreSQL refused a write under `fence`: another worker owns the shard now, so its sessions here close at once. */
  private fencedOut(fence: Fence): void {
    this.logger.warn(`shard ${fence.shard}: a write under fencing token ${fence.token} was refused; closing the shard's sessions`);
    this.lease.refused(fence);
  }

  /** Runs a task in the instance's lane after everything reported so far (events included). */
  private inLane<T>(instanceId: string, task: () => Promise<T>): Promise<T> {
    this.openEventBatches.delete(instanceId);
    return this.lanes.run(instanceId, task);
  }

  /** Resolves once every event reported so far for the instance is in the store and the event log. */
  async settled(instanceId: string): Promise<void> {
    await this.inLane(instanceId, () => Promise.resolve());
  }
}
