import { Logger } from '@nestjs/common';
import { AppError, type InstanceStatus } from '@app/contracts';
import type { InstanceLifecycleRepository, OwnedInstance } from '@app/database';
import type { BaileysDriver, NetworkDriver, NetworkSession, SandboxDriver, SessionHooks } from '@app/messaging';
import { ShardLeaseCheck } from '../shards/shard-lease-check';
import type { StoreProjector } from '../store/store-projector';
import { DriverRegistry } from './driver-registry';
import type { EventRecorder } from './event-recorder';
import { InstanceSessions, reconnectDelay } from './instance-sessions';
import { ResumePacer } from './resume-pacer';
import type { StatusStore } from './status-store';

describe('reconnectDelay', () => {
  it('doubles from half a second up to 30 seconds', () => {
    const middle = () => 0.5;
    expect([0, 1, 2, 3, 4, 5, 6, 7, 10].map((failures) => reconnectDelay(failures, middle))).toEqual([
      500, 1000, 2000, 4000, 8000, 16000, 30000, 30000, 30000,
    ]);
  });

  it('spreads retries by ±20 % so instances do not reconnect in lockstep', () => {
    expect(reconnectDelay(3, () => 0)).toBe(3200);
    expect(reconnectDelay(3, () => 0.999999)).toBe(4800);
  });

  it('waits at least the given minimum, jittered too', () => {
    expect(reconnectDelay(0, () => 0.5, 300_000)).toBe(300_000);
    expect(reconnectDelay(0, () => 0, 300_000)).toBe(240_000);
  });
});

describe('DriverRegistry', () => {
  it('gives sandbox instances the simulated network and every other instance the real one', () => {
    const sandbox = { kind: 'sandbox' } as SandboxDriver;
    const baileys = { kind: 'baileys' } as BaileysDriver;
    const registry = new DriverRegistry(sandbox, baileys);
    expect(registry.for({ sandbox: true })).toBe(sandbox);
    expect(registry.for({ sandbox: false })).toBe(baileys);
  });
});

/** A driver whose sessions the test drives through the hooks they were given. */
function fakeDriver() {
  const created: { instanceId: string; hooks: SessionHooks; session: jest.Mocked<NetworkSession> }[] = [];
  const driver: NetworkDriver = {
    kind: 'baileys',
    createSession: (identity, hooks) => {
      const session = {
        connect: jest.fn(() => Promise.resolve()),
        close: jest.fn(() => Promise.resolve()),
        logout: jest.fn(() => Promise.resolve()),
        currentQr: jest.fn(() => undefined),
        requestPairCode: jest.fn(),
        send: jest.fn(),
        perform: jest.fn(),
        flushHistory: jest.fn(),
      } as unknown as jest.Mocked<NetworkSession>;
      created.push({ instanceId: identity.instanceId, hooks, session });
      return session;
    },
  };
  return { driver, created };
}

function harness(instances: OwnedInstance[], ratePerSecond = 1000) {
  const { driver, created } = fakeDriver();
  const statuses: [string, InstanceStatus, string | null][] = [];
  const events: [string, string, unknown][] = [];
  const repository = {
    find: jest.fn((id: string) => Promise.resolve(instances.find((instance) => instance.id === id) ?? null)),
    inShards: jest.fn((shards: number[]) => Promise.resolve(instances.filter((instance) => shards.includes(instance.shard)))),
    historySync: jest.fn(() => Promise.resolve(false)),
  };
  const statusStore = {
    set: jest.fn((id: string, status: InstanceStatus, deviceId: string | null) => {
      statuses.push([id, status, deviceId]);
      return Promise.resolve();
    }),
  };
  const recorder = {
    recordMany: jest.fn((id: string, batch: { eventType: string; data: unknown }[]) => {
      for (const event of batch) events.push([id, event.eventType, event.data]);
      return Promise.resolve();
    }),
  };
  const store = { apply: jest.fn(() => Promise.resolve()), learn: jest.fn(() => Promise.resolve()) };
  const lease = new ShardLeaseCheck();
  lease.follow({ holds: () => true, fencingToken: () => 1, lose: () => undefined });
  const sessions = new InstanceSessions(
    repository as unknown as InstanceLifecycleRepository,
    { for: () => driver } as unknown as DriverRegistry,
    statusStore as unknown as StatusStore,
    recorder as unknown as EventRecorder,
    store as unknown as StoreProjector,
    lease,
    new ResumePacer({ ratePerSecond, random: () => 0 }),
  );
  /** Acquires the shard and lets the pacer open what it queued (a millisecond apart at this rate). */
  const openShard = async (shard: number) => {
    await sessions.openShard(shard);
    jest.advanceTimersByTime(instances.length);
    await flush();
  };
  return { sessions, lease, created, statuses, events, openShard };
}

const real = (id: string, status: InstanceStatus, deviceId: string | null = null): OwnedInstance => ({
  id,
  customerId: 'cus_1',
  shard: 3,
  sandbox: false,
  status,
  deviceId,
  statusChangedAt: null,
  statusReason: null,
});

async function flush(): Promise<void> {
  for (let i = 0; i < 5; i++) await Promise.resolve();
}

describe('InstanceSessions with the real network', () => {
  let warnings: string[];

  beforeEach(() => {
    jest.useFakeTimers();
    warnings = [];
    jest.spyOn(Logger.prototype, 'warn').mockImplementation((message: string) => void warnings.push(message));
  });

  afterEach(() => {
    jest.useRealTimers();
    jest.restoreAllMocks();
  });

  it('opens the paired real instances of an acquired shard; a pairing in progress goes back to unpaired', async () => {
    const h = harness([
      real('ins_a', 'connected', '447700900123:4@s.whatsapp.net'),
      real('ins_b', 'pairing'),
      real('ins_c', 'unpaired'),
      real('ins_d', 'disconnected', '447700900124:2@s.whatsapp.net'),
    ]);
    await h.openShard(3);
    expect(h.created).toHaveLength(2);
    expect(h.created.map(({ session }) => session.connect.mock.calls.length)).toEqual([1, 1]);
    // A connected instance handed over keeps showing connected while its new session opens (sends are accepted and
    // wait for it); one whose link was already down says it is connecting, as any reconnect does.
    expect(h.statuses).toEqual([
      ['ins_b', 'unpaired', null],
      ['ins_d', 'connecting', '447700900124:2@s.whatsapp.net'],
    ]);
    h.created[0].hooks.opened({ deviceId: '447700900123:4@s.whatsapp.net', isNewLogin: false });
    await flush();
    expect(h.statuses.at(-1)).toEqual(['ins_a', 'connected', '447700900123:4@s.whatsapp.net']);
  });

  it('reports a handed-over instance whose new session cannot connect as disconnected, and says connecting on each retry', async () => {
    jest.spyOn(Math, 'random').mockReturnValue(0.5);
    const h = harness([real('ins_a', 'connected', '447700900123:4@s.whatsapp.net')]);
    await h.openShard(3);
    expect(h.statuses).toEqual([]);
    h.created[0].hooks.closed('network', 'the phone is offline');
    jest.advanceTimersByTime(500);
    await flush();
    expect(h.statuses.map(([, status]) => status)).toEqual(['disconnected', 'connecting']);
  });

  it("opens the instances of acquired shards at the pacer's rate and never opens those of a shard lost meanwhile", async () => {
    const instances = [
      { ...real('ins_a', 'connected', '447700900123:4@s.whatsapp.net'), statusChangedAt: new Date('2026-01-01T10:00:00Z') },
      { ...real('ins_b', 'connected', '447700900124:4@s.whatsapp.net'), statusChangedAt: new Date('2026-01-01T09:00:00Z') },
      { ...real('ins_c', 'connected', '447700900125:4@s.whatsapp.net'), shard: 4, statusChangedAt: new Date('2026-01-01T11:00:00Z') },
    ];
    const h = harness(instances, 2);
    await h.sessions.openShard(3);
    await h.sessions.openShard(4);
    expect(h.sessions.resumeProgress()).toEqual({ pending: 3, resumed: 0, total: 3 });
    jest.advanceTimersByTime(0);
    await flush();
    expect(h.created.map(({ instanceId }) => instanceId)).toEqual(['ins_b']);
    expect(h.sessions.resumeProgress()).toEqual({ pending: 2, resumed: 1, total: 3 });
    jest.advanceTimersByTime(499);
    await flush();
    expect(h.sessions.count()).toBe(1);
    jest.advanceTimersByTime(1);
    await flush();
    expect(h.sessions.count()).toBe(2);
    await h.sessions.closeShard(4);
    expect(h.sessions.resumeProgress()).toEqual({ pending: 0, resumed: 2, total: 2 });
    jest.advanceTimersByTime(10_000);
    await flush();
    // Oldest-connected first (b, then a); c's shard was lost before its turn.
    expect(h.created.map(({ instanceId }) => instanceId)).toEqual(['ins_b', 'ins_a']);
    expect(h.sessions.count()).toBe(2);
  });

  it('opens an instance still waiting for its turn at once when a network operation needs it, and waits for its link', async () => {
    const h = harness(
      [real('ins_a', 'connected', '447700900123:4@s.whatsapp.net'), real('ins_b', 'connected', '447700900124:4@s.whatsapp.net')],
      1,
    );
    await h.sessions.openShard(3);
    jest.advanceTimersByTime(0);
    await flush();
    expect(h.created.map(({ instanceId }) => instanceId)).toEqual(['ins_a']);
    const live = h.sessions.liveSession('ins_b');
    await flush();
    expect(h.created.map(({ instanceId }) => instanceId)).toEqual(['ins_a', 'ins_b']);
    expect(h.sessions.resumeProgress()).toEqual({ pending: 0, resumed: 1, total: 1 });
    h.created[1].hooks.opened({ deviceId: '447700900124:4@s.whatsapp.net', isNewLogin: false });
    jest.advanceTimersByTime(20);
    await expect(live).resolves.toBe(h.created[1].session);
    // Its turn never comes again: one session per instance.
    jest.advanceTimersByTime(10_000);
    await flush();
    expect(h.created).toHaveLength(2);
    // An instance that is not waiting is answered from what is live now (here: nothing, so 503 upstream).
    await expect(h.sessions.liveSession('ins_c')).resolves.toBeUndefined();
  });

  it('acts on an instance as it is at its turn: one logged out or deleted while waiting is not opened', async () => {
    const instances = [
      real('ins_a', 'connected', '447700900123:4@s.whatsapp.net'),
      real('ins_b', 'connected', '447700900124:4@s.whatsapp.net'),
      real('ins_c', 'connected', '447700900125:4@s.whatsapp.net'),
    ];
    const h = harness(instances, 1);
    await h.sessions.openShard(3);
    jest.advanceTimersByTime(0);
    await flush();
    instances[1] = { ...instances[1], status: 'unpaired', deviceId: null };
    instances.splice(2, 1);
    jest.advanceTimersByTime(5_000);
    await flush();
    expect(h.created.map(({ instanceId }) => instanceId)).toEqual(['ins_a']);
    expect(h.sessions.count()).toBe(1);
  });

  it('backs a paired instance off with growing, jittered delays, visible in its status, the logs and the reconnect list', async () => {
    jest.spyOn(Math, 'random').mockReturnValue(0.5);
    const h = harness([real('ins_a', 'connected', '447700900123:4@s.whatsapp.net')]);
    await h.openShard(3);
    const { hooks, session } = h.created[0];
    for (const expected of [500, 1000, 2000]) {
      hooks.closed('network', 'WebSocket Error (connect ECONNREFUSED 127.0.0.1:9) (408)');
      await flush();
      expect(h.sessions.reconnecting()).toEqual([
        {
          instanceId: 'ins_a',
          attempt: expected === 500 ? 1 : expected === 1000 ? 2 : 3,
          delayMs: expected,
          at: expect.any(String),
          reason: 'WebSocket Error (connect ECONNREFUSED 127.0.0.1:9) (408)',
        },
      ]);
      jest.advanceTimersByTime(expected - 1);
      const before = session.connect.mock.calls.length;
      jest.advanceTimersByTime(1);
      await flush();
      expect(session.connect.mock.calls.length).toBe(before + 1);
    }
    expect(warnings).toEqual([
      'ins_a: link down (WebSocket Error (connect ECONNREFUSED 127.0.0.1:9) (408)); reconnect attempt 1 in 500 ms',
      'ins_a: link down (WebSocket Error (connect ECONNREFUSED 127.0.0.1:9) (408)); reconnect attempt 2 in 1000 ms',
      'ins_a: link down (WebSocket Error (connect ECONNREFUSED 127.0.0.1:9) (408)); reconnect attempt 3 in 2000 ms',
    ]);
    expect(h.statuses.map(([, status]) => status)).toEqual([
      'disconnected',
      'connecting',
      'disconnected',
      'connecting',
      'disconnected',
      'connecting',
    ]);
    hooks.opened({ deviceId: '447700900123:4@s.whatsapp.net', isNewLogin: false });
    hooks.closed('network', 'Connection was lost (408)');
    expect(h.sessions.reconnecting()[0]).toMatchObject({ attempt: 1, delayMs: 500 });
  });

  it('waits at least minutes after the network refused the client version', async () => {
    jest.spyOn(Math, 'random').mockReturnValue(0.5);
    const h = harness([real('ins_a', 'connected', '447700900123:4@s.whatsapp.net')]);
    await h.openShard(3);
    h.created[0].hooks.closed('outdated', 'the network refused this client version: Connection Failure (405)');
    expect(h.sessions.reconnecting()[0]).toMatchObject({ attempt: 1, delayMs: 300_000 });
  });

  it('gives a pairing that cannot connect a few attempts, then stops; the QR request answers 503', async () => {
    jest.spyOn(Math, 'random').mockReturnValue(0.5);
    const h = harness([real('ins_a', 'unpaired')]);
    const qr = h.sessions.qr('ins_a');
    await flush();
    const { hooks, session } = h.created[0];
    for (const delay of [500, 1000, 2000, 4000, 8000]) {
      hooks.closed('network', 'WebSocket Error (getaddrinfo ENOTFOUND web.whatsapp.com) (408)');
      jest.advanceTimersByTime(delay);
      await flush();
    }
    hooks.closed('network', 'WebSocket Error (getaddrinfo ENOTFOUND web.whatsapp.com) (408)');
    expect(session.connect).toHaveBeenCalledTimes(6);
    expect(session.close).toHaveBeenCalledTimes(1);
    expect(warnings.at(-1)).toBe(
      'ins_a: pairing stopped after 5 failed connection attempts (WebSocket Error (getaddrinfo ENOTFOUND web.whatsapp.com) (408))',
    );
    jest.advanceTimersByTime(100);
    await expect(qr).rejects.toEqual(new AppError('instance_unavailable'));
    expect(h.statuses).toEqual([]);
    expect(h.sessions.count()).toBe(0);
  });

  it('stops a refused device and reports login_error, without reconnecting', async () => {
    const h = harness([real('ins_a', 'connected', '447700900123:4@s.whatsapp.net')]);
    await h.openShard(3);
    const { hooks, session } = h.created[0];
    hooks.closed(
      'refused',
      'the network refused the account (banned or restricted): Connection Failure (403)',
      '447700900123:4@s.whatsapp.net',
    );
    await flush();
    jest.advanceTimersByTime(60_000);
    expect(session.close).toHaveBeenCalledTimes(1);
    expect(session.connect).toHaveBeenCalledTimes(1);
    expect(h.statuses.at(-1)).toEqual(['ins_a', 'disconnected', '447700900123:4@s.whatsapp.net']);
    expect(h.events).toEqual([
      [
        'ins_a',
        'login_error',
        { id: '447700900123:4@s.whatsapp.net', error: 'the network refused the account (banned or restricted): Connection Failure (403)' },
      ],
    ]);
  });

  it("tells sessions whether this worker still holds their shard's lease", async () => {
    const h = harness([real('ins_a', 'connected', '447700900123:4@s.whatsapp.net')]);
    let held = true;
    h.lease.follow({ holds: (shard) => shard === 3 && held, fencingToken: () => 1, lose: () => undefined });
    await h.openShard(3);
    expect(h.created[0].hooks.holdsLease()).toBe(true);
    held = false;
    expect(h.created[0].hooks.holdsLease()).toBe(false);
  });
});
