import type { SessionHooks } from '../driver';
import { normalise } from '../events/normalise';
import type { SandboxNetwork } from './sandbox-network';
import type { SandboxOperations } from './operations/sandbox-operations';
import { SandboxSession } from './sandbox-session';

function harness(device: { deviceId: string | null; online: boolean }, historySync = false) {
  const calls: string[] = [];
  const hooks: SessionHooks = {
    qr: (code) => calls.push(`qr ${code.slice(0, 2)}`),
    opened: ({ deviceId, isNewLogin }) => calls.push(`opened ${deviceId} ${isNewLogin}`),
    // The detail matters where it becomes an event's payload: the logout reason, the pairing error.
    closed: (reason, detail, deviceId) =>
      calls.push(
        ['closed', reason, ...(reason === 'logged_out' || reason === 'pairing_failed' ? [detail, deviceId] : [])].filter(Boolean).join(' '),
      ),
    learned: () => undefined,
    event: (event) => calls.push(`event ${event.eventType}`),
    historySyncEnabled: () => Promise.resolve(historySync),
    holdsLease: () => true,
  };
  const history = normalise.messageHistorySync([
    {
      id: 'm1',
      time: new Date(0),
      chatId: '447700900123@s.whatsapp.net',
      sender: { jid: '447700900123@s.whatsapp.net', isMe: false },
      content: { type: 'text', text: 'hi' },
    },
  ]);
  const network = {
    attach: jest.fn(),
    detach: jest.fn(),
    device: jest.fn(() => Promise.resolve({ phone: '15550001111', ...device })),
    unpair: jest.fn(() => Promise.resolve()),
    historyEvents: jest.fn(() => Promise.resolve(history)),
    // A link drop set for chat 'dropping': the network takes the message, its acknowledgement is lost with the link.
    receive: jest.fn((_instanceId: string, message: { chatJid: string }) =>
      Promise.resolve(message.chatJid === 'dropping' ? { unconfirmed: 'the link closed before the network acknowledged the message' } : {}),
    ),
  } as unknown as SandboxNetwork;
  const session = new SandboxSession({ instanceId: 'ins_1', customerId: 'cus_1' }, hooks, network, {} as SandboxOperations, {
    qrRotateMs: 20_000,
    qrCodes: 3,
  });
  return { session, calls, network };
}

describe('SandboxSession', () => {
  beforeEach(() => jest.useFakeTimers());
  afterEach(() => jest.useRealTimers());

  it('offers a new QR code every 20 seconds and times out after the last one', async () => {
    const { session, calls } = harness({ deviceId: null, online: true });
    await session.connect();
    const first = session.currentQr();
    expect(first).toMatch(/^2@/);
    jest.advanceTimersByTime(20_000);
    expect(session.currentQr()).not.toBe(first);
    jest.advanceTimersByTime(40_000);
    expect(calls).toEqual(['qr 2@', 'qr 2@', 'qr 2@', 'closed pairing_timeout']);
    expect(session.currentQr()).toBeUndefined();
  });

  it('opens a paired device whose phone is online, and reports a dropped link as a network close', async () => {
    const { session, calls } = harness({ deviceId: '15550001111:3@s.whatsapp.net', online: true });
    await session.connect();
    expect(session.isOpen).toBe(true);
    session.linkDropped();
    expect(calls).toEqual(['opened 15550001111:3@s.whatsapp.net false', 'closed network']);
    expect(session.deliver(normalise.initialSyncFinished())).toBe(false);
  });

  it('drops the link after a send the network took without its acknowledgement reaching the instance', async () => {
    const { session, calls } = harness({ deviceId: '15550001111:3@s.whatsapp.net', online: true });
    await session.connect();
    const message = { id: 'm1', kind: 'text', payload: { text: 'hi' } } as const;
    await expect(session.send({ ...message, chatJid: 'taking' })).resolves.toEqual({});
    await expect(session.send({ ...message, chatJid: 'dropping' })).resolves.toEqual({
      unconfirmed: 'the link closed before the network acknowledged the message',
    });
    expect(calls).toEqual(['opened 15550001111:3@s.whatsapp.net false', 'closed network']);
    expect(session.isOpen).toBe(false);
    await expect(session.send({ ...message, chatJid: 'taking' })).rejects.toThrow();
  });

  it('cannot connect while the phone is offline', async () => {
    const { session, calls } = harness({ deviceId: '15550001111:3@s.whatsapp.net', online: false });
    await session.connect();
    expect(calls).toEqual(['closed network']);
  });

  it('completes pairing as a new login and stops rotating codes', async () => {
    const { session, calls } = harness({ deviceId: null, online: true });
    await session.connect();
    await session.completePairing('15550001111:9@s.whatsapp.net');
    jest.advanceTimersByTime(120_000);
    expect(calls).toEqual(['qr 2@', 'opened 15550001111:9@s.whatsapp.net true']);
    await expect(session.requestPairCode('15550001111')).rejects.toMatchObject({ detail: 'device already paired' });
  });

  it('logs out: forgets the pairing on the network and reports logged_out', async () => {
    const { session, calls, network } = harness({ deviceId: '15550001111:3@s.whatsapp.net', online: true });
    await session.connect();
    await session.logout();
    expect(network.unpair).toHaveBeenCalledWith('ins_1');
    expect(calls).toEqual(['opened 15550001111:3@s.whatsapp.net false', 'closed logged_out api_logout']);
    expect(session.isOpen).toBe(false);
  });

  it('reports a logout from the phone as user_logged_out', async () => {
    const { session, calls } = harness({ deviceId: '15550001111:3@s.whatsapp.net', online: true });
    await session.connect();
    session.loggedOutFromPhone();
    expect(calls).toEqual(['opened 15550001111:3@s.whatsapp.net false', 'closed logged_out user_logged_out']);
  });

  it('finishes the initial sync after a new login only when history sync is on', async () => {
    const { session, calls } = harness({ deviceId: null, online: true }, true);
    await session.connect();
    await session.completePairing('15550001111:9@s.whatsapp.net');
    expect(calls).toEqual(['qr 2@', 'opened 15550001111:9@s.whatsapp.net true', 'event initial_sync_finished']);
  });

  it('reports a refused pairing as pairing_failed with the device that tried, and stops offering codes', async () => {
    const { session, calls } = harness({ deviceId: null, online: true });
    await session.connect();
    session.pairingFailed('15550001111:9@s.whatsapp.net', 'multi-device limit reached');
    jest.advanceTimersByTime(120_000);
    expect(calls).toEqual(['qr 2@', 'closed pairing_failed multi-device limit reached 15550001111:9@s.whatsapp.net']);
    expect(session.isPairing).toBe(false);
  });

  it('flushes the history as the network hands it over, while open', async () => {
    const { session, calls } = harness({ deviceId: '15550001111:3@s.whatsapp.net', online: true });
    await session.connect();
    await session.flushHistory();
    expect(calls).toEqual(['opened 15550001111:3@s.whatsapp.net false', 'event message_history_sync']);
  });

  it('hands out pair codes in the XXXX-XXXX form while pairing', async () => {
    const { session } = harness({ deviceId: null, online: true });
    await expect(session.requestPairCode('15550001111')).resolves.toMatch(/^[A-Z0-9]{4}-[A-Z0-9]{4}$/);
    expect(session.pendingPairPhone).toBe('15550001111');
  });
});
