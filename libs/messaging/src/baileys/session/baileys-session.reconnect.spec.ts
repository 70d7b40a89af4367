import { DISCONNECT } from './disconnect-policy';
import { fakeLibrary } from '../testing/library';
import { freshCreds } from '../testing/socket';
import { DEVICE_JID, INSTANCE_ID, sessionHarness, settle, type HarnessOptions } from '../testing/session';

/** A session whose socket is open (paired) or offering QR codes (pairing), ready to be closed with some code. */
async function linkedSession(options: HarnessOptions & { paired: boolean }) {
  const h = sessionHarness(options);
  await h.session.connect();
  await settle();
  if (options.paired) h.socket().open();
  else h.socket().qr('ref1');
  h.calls.length = 0;
  return h;
}

describe('BaileysSession reconnect table', () => {
  it("uses Baileys' own disconnect codes", () => {
    const { DisconnectReason } = fakeLibrary().lib;
    expect(DISCONNECT).toMatchObject({
      loggedOut: DisconnectReason.loggedOut,
      forbidden: DisconnectReason.forbidden,
      connectionLost: DisconnectReason.connectionLost,
      multideviceMismatch: DisconnectReason.multideviceMismatch,
      connectionClosed: DisconnectReason.connectionClosed,
      connectionReplaced: DisconnectReason.connectionReplaced,
      badSession: DisconnectReason.badSession,
      unavailableService: DisconnectReason.unavailableService,
      restartRequired: DisconnectReason.restartRequired,
    });
  });

  it('515 restart required: a new socket at once, the same credentials, nothing reported', async () => {
    const h = await linkedSession({ paired: true });
    const first = h.socket();
    first.fail(515, 'Stream Errored (restart required)');
    await settle();
    expect(h.sockets).toHaveLength(2);
    expect(h.sockets[1]).not.toBe(first);
    expect(h.sockets[1].config.auth.creds).toBe(first.config.auth.creds);
    h.socket().open();
    expect(h.calls).toEqual([['opened', { deviceId: DEVICE_JID, isNewLogin: false }]]);
  });

  it('515 over and over without reaching open: handed to the worker as a network failure (no tight loop)', async () => {
    const h = await linkedSession({ paired: true });
    for (let i = 0; i < 4; i++) {
      h.socket().fail(515, 'Stream Errored (restart required)');
      await settle();
    }
    expect(h.sockets).toHaveLength(4);
    expect(h.calls).toEqual([['closed', 'network', 'restart requested repeatedly: Stream Errored (restart required) (515)', DEVICE_JID]]);
  });

  it.each([
    [408, 'Connection was lost'],
    [408, 'WebSocket Error (connect ECONNREFUSED 127.0.0.1:9)'],
    [428, 'Connection Terminated'],
    [500, 'Stream Errored (ack)'],
    [503, 'Service Unavailable'],
    [499, 'Connection Failure'],
  ])('%d %s: reported as a network failure for the worker to back off, no socket of its own', async (code, message) => {
    const h = await linkedSession({ paired: true });
    h.socket().fail(code, message);
    await settle();
    expect(h.calls).toEqual([['closed', 'network', `${message} (${code})`, DEVICE_JID]]);
    expect(h.sockets).toHaveLength(1);
    expect(h.auth.cleared).toEqual([]);
    expect(h.logLines).toContainEqual({
      level: 'warn',
      bindings: { instanceId: INSTANCE_ID },
      fields: { code, error: message, outcome: 'network' },
      message: 'connection closed',
    });
  });

  it('a network failure while pairing is a network failure too', async () => {
    const h = await linkedSession({ paired: false });
    h.socket().fail(408, 'WebSocket Error (getaddrinfo ENOTFOUND web.whatsapp.com)');
    await settle();
    expect(h.calls).toEqual([['closed', 'network', 'WebSocket Error (getaddrinfo ENOTFOUND web.whatsapp.com) (408)', undefined]]);
    expect(h.session.currentQr()).toBeUndefined();
  });

  it('408 "QR refs attempts ended" while pairing: pairing timed out', async () => {
    const h = await linkedSession({ paired: false });
    h.socket().fail(408, 'QR refs attempts ended');
    await settle();
    expect(h.calls).toEqual([['closed', 'pairing_timeout', 'no QR code was scanned in time', undefined]]);
    expect(h.session.currentQr()).toBeUndefined();
  });

  it('401 logged out from the phone: credentials and keys cleared first, then logged_out (user_logged_out)', async () => {
    const h = await linkedSession({ paired: true });
    h.auth.rows.set('pre-key/1', '{}');
    h.socket().fail(401, 'Stream Errored (conflict)');
    await settle();
    expect(h.auth.cleared).toEqual([INSTANCE_ID]);
    expect(h.auth.creds).toBeNull();
    expect(h.auth.rows.size).toBe(0);
    expect(h.messages.forgetAll).toHaveBeenCalledWith(INSTANCE_ID);
    expect(h.calls).toEqual([['closed', 'logged_out', 'user_logged_out', DEVICE_JID]]);
    expect(h.sockets).toHaveLength(1);
  });

  it('a new connection after a 401 pairs from fresh credentials', async () => {
    const h = await linkedSession({ paired: true });
    h.socket().fail(401, 'Connection Failure');
    await settle();
    await h.session.connect();
    expect(h.socket().config.auth.creds).toEqual(freshCreds());
  });

  it('401 while pairing: the new device was refused, and its half-made credentials forgotten', async () => {
    const h = await linkedSession({ paired: false });
    h.socket().fail(401, 'Connection Failure');
    await settle();
    expect(h.auth.cleared).toEqual([INSTANCE_ID]);
    expect(h.calls).toEqual([['closed', 'pairing_failed', 'the network refused the new device: Connection Failure (401)', undefined]]);
  });

  it.each([
    [403, 'the network refused the account (banned or restricted): Connection Failure (403)'],
    [411, 'multi-device mismatch, pair the device again: Connection Failure (411)'],
  ])('%d: stop and report (refused), keeping the credentials', async (code, detail) => {
    const h = await linkedSession({ paired: true });
    h.socket().fail(code, 'Connection Failure');
    await settle();
    expect(h.calls).toEqual([['closed', 'refused', detail, DEVICE_JID]]);
    expect(h.auth.cleared).toEqual([]);
    expect(h.sockets).toHaveLength(1);
  });

  it('403 while pairing: pairing failed', async () => {
    const h = await linkedSession({ paired: false });
    h.socket().fail(403, 'Connection Failure');
    await settle();
    expect(h.calls).toEqual([
      ['closed', 'pairing_failed', 'the network refused the account (banned or restricted): Connection Failure (403)', undefined],
    ]);
  });

  it('440 while this worker still holds the lease: a network failure (reconnect with backoff)', async () => {
    const h = await linkedSession({ paired: true });
    h.socket().fail(440, 'Stream Errored (conflict)');
    await settle();
    expect(h.calls).toEqual([
      ['closed', 'network', 'taken over while this worker holds the instance: Stream Errored (conflict) (440)', DEVICE_JID],
    ]);
  });

  it('440 once the lease is gone: replaced, no reconnect', async () => {
    const h = await linkedSession({ paired: true });
    h.loseLease();
    h.socket().fail(440, 'Stream Errored (conflict)');
    await settle();
    expect(h.calls).toEqual([['closed', 'replaced', 'connection replaced', DEVICE_JID]]);
    expect(h.auth.cleared).toEqual([]);
  });

  it('440 again and again while holding the lease: replaced after the third retry (no conflict loop)', async () => {
    const h = await linkedSession({ paired: true });
    for (let i = 0; i < 4; i++) {
      h.socket().fail(440, 'Stream Errored (conflict)');
      await settle();
      await h.session.connect();
      await settle();
      h.socket().open();
    }
    expect(h.calls.filter(([hook]) => hook === 'closed').map((call) => call[1])).toEqual(['network', 'network', 'network', 'replaced']);
  });

  it('405 version refused: fetches the current version for the next sockets, logs it, and reports outdated', async () => {
    const h = await linkedSession({ paired: true });
    h.socket().fail(405, 'Connection Failure');
    await settle();
    expect(h.lib.fetchLatestWaWebVersion).toHaveBeenCalledTimes(1);
    expect(h.calls).toEqual([['closed', 'outdated', 'the network refused this client version: Connection Failure (405)', DEVICE_JID]]);
    expect(h.logLines).toContainEqual({
      level: 'warn',
      bindings: { instanceId: INSTANCE_ID },
      fields: { version: '2.3000.1099887766' },
      message: 'WhatsApp Web version refreshed after the network refused the previous one',
    });
    await h.session.connect();
    expect(h.socket().config.version).toEqual([2, 3000, 1099887766]);
  });

  it('a close with no error (our own end) that the session did not ask for is treated as a network failure', async () => {
    const h = await linkedSession({ paired: true });
    void h.socket().end(undefined);
    await settle();
    expect(h.calls).toEqual([['closed', 'network', 'connection closed (no code)', DEVICE_JID]]);
  });
});
