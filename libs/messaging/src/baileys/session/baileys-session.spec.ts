import { ServerAcks } from '../outbound/server-acks';
import { RecentIds } from '../inbound/recent-ids';
import { UndecryptableWatch } from '../inbound/undecryptable-watch';
import { AppError } from '@app/contracts';
import type { GroupMetadata, UserFacingSocketConfig, WAMessageKey } from '@whiskeysockets/baileys';
import { bufferJson } from '../buffer-json';
import { CallOrigins } from '../call-origins';
import { GroupActors } from '../group-actors';
import { ExpiringCache } from './expiring-cache';
import { SignalKeyCache } from './signal-key-cache';
import { SIGNAL_TRANSACTION_KEY } from './signal-transactions';
import { HISTORY_SYNC_TYPE } from '../testing/library';
import { freshCreds, pairedCredsUpdate } from '../testing/socket';
import { DEVICE_JID, DEVICE_LID, INSTANCE_ID, WS_URL, sessionHarness, settle } from '../testing/session';

type Options = UserFacingSocketConfig;

/** The options minus the callbacks, which the tests call instead of comparing. */
function plainOptions(config: Options) {
  const { getMessage, cachedGroupMetadata, shouldSyncHistoryMessage, ...rest } = config;
  expect([typeof getMessage, typeof cachedGroupMetadata, typeof shouldSyncHistoryMessage]).toEqual(['function', 'function', 'function']);
  return rest;
}

const group = (participants: string[]): GroupMetadata => ({
  id: '120363041234567890@g.us',
  subject: 'Team',
  owner: '447700900123@s.whatsapp.net',
  addressingMode: 'lid' as GroupMetadata['addressingMode'],
  participants: participants.map((id) => ({ id, admin: null })),
  size: participants.length,
});

describe('BaileysSession connecting', () => {
  it("puts the socket's Signal transactions named by a JID under one lock: a send never undoes an inbound ratchet step", async () => {
    const h = sessionHarness();
    await h.session.connect();
    const keys = h.socket().authState.keys;
    await keys.transaction(() => Promise.resolve(), DEVICE_JID);
    await keys.transaction(() => Promise.resolve(), '123456789012345@lid');
    await keys.transaction(() => Promise.resolve(), 'lid-mapping');
    expect(h.socket().transactionKeys).toEqual([SIGNAL_TRANSACTION_KEY, SIGNAL_TRANSACTION_KEY, 'lid-mapping']);
  });

  it('builds the socket with explicit options: no online presence, no full history, our caches and stores', async () => {
    const h = sessionHarness();
    await h.session.connect();
    expect(h.lib.makeWASocket).toHaveBeenCalledTimes(1);
    const config = h.socket().config;
    // Keys go through Baileys' cache (ours, so it outlives sockets) in front of the PostgreSQL-backed store.
    const [store, logger, keyCache] = (h.lib.makeCacheableSignalKeyStore as jest.Mock).mock.calls[0] as [
      object,
      typeof config.logger,
      unknown,
    ];
    expect(plainOptions(config)).toEqual({
      auth: { creds: freshCreds(), keys: { cacheable: true, store, cache: keyCache } },
      logger,
      browser: ['Ubuntu', 'Chrome', '22.04.4'],
      waWebSocketUrl: WS_URL,
      markOnlineOnConnect: false,
      syncFullHistory: false,
      emitOwnEvents: true,
      fireInitQueries: true,
      msgRetryCounterCache: expect.any(ExpiringCache),
      // Twice the 5 retry requests a client makes: rc14 counts each answered request twice.
      maxMsgRetryCount: 10,
      userDevicesCache: expect.any(ExpiringCache),
      // A patch whose MACs do not verify is dropped, not turned into a chat change (rc14 does not check by default).
      appStateMacVerification: { patch: true, snapshot: true },
    });
    expect(keyCache).toBeInstanceOf(ExpiringCache);
    // Without the one-time pre-keys pairing writes (812 per pairing, each read at most once).
    expect(keyCache).toBeInstanceOf(SignalKeyCache);
    expect(Object.keys(store).sort()).toEqual(['clear', 'get', 'set']);
    // One pino child per instance: everything Baileys logs names the instance.
    logger?.info('hello');
    expect(h.logLines).toEqual([{ level: 'info', bindings: { instanceId: INSTANCE_ID }, fields: 'hello', message: undefined }]);
    // Recent history (with the LID mappings) always; the full archive not.
    const wants = (syncType: number) => config.shouldSyncHistoryMessage?.({ syncType });
    expect(Object.values(HISTORY_SYNC_TYPE).map(wants)).toEqual([true, true, false, true, true, true, true]);
  });

  it('asks for the full history only for an instance whose historySync is on', async () => {
    const h = sessionHarness({ historySync: true });
    await h.session.connect();
    const config = h.socket().config;
    expect(config.syncFullHistory).toBe(true);
    expect(config.shouldSyncHistoryMessage?.({ syncType: HISTORY_SYNC_TYPE.FULL })).toBe(true);
  });

  it('opens with stored credentials: opened with the device id, no QR code, not a new login', async () => {
    const h = sessionHarness({ paired: true });
    await h.session.connect();
    expect(h.socket().config.auth.creds).toEqual({ ...freshCreds(), ...pairedCredsUpdate(DEVICE_JID, DEVICE_LID) });
    await settle();
    h.socket().open();
    expect(h.calls).toEqual([['opened', { deviceId: DEVICE_JID, isNewLogin: false }]]);
    expect(h.session.currentQr()).toBeUndefined();
  });

  it('starts one socket only, however often connect is called', async () => {
    const h = sessionHarness({ paired: true });
    await Promise.all([h.session.connect(), h.session.connect()]);
    await h.session.connect();
    expect(h.sockets).toHaveLength(1);
  });

  it('keeps credentials, key cache and retry counts across reconnects; every reconnect gets a new socket', async () => {
    const h = sessionHarness({ paired: true });
    await h.session.connect();
    await settle();
    h.socket().fail(408, 'Connection was lost');
    await settle();
    await h.session.connect();
    expect(h.sockets).toHaveLength(2);
    const [first, second] = h.sockets.map((socket) => socket.config);
    expect(second.auth.creds).toBe(first.auth.creds);
    expect(second.auth.keys).toBe(first.auth.keys);
    expect(second.msgRetryCounterCache).toBe(first.msgRetryCounterCache);
    expect(h.lib.makeCacheableSignalKeyStore).toHaveBeenCalledTimes(1);
  });

  it('saves the whole credentials on every creds.update', async () => {
    const h = sessionHarness();
    await h.session.connect();
    h.socket().emit('creds.update', { routingInfo: Buffer.from([1, 2, 3]) });
    await settle();
    expect(h.auth.saved()).toEqual({ ...freshCreds(), routingInfo: Buffer.from([1, 2, 3]) });
    h.socket().emit('creds.update', { accountSyncCounter: 1 });
    await settle();
    expect(h.auth.saved()).toEqual({ ...freshCreds(), routingInfo: Buffer.from([1, 2, 3]), accountSyncCounter: 1 });
  });

  it('revives stored app-state sync keys as protobuf objects', async () => {
    const h = sessionHarness({ paired: true });
    h.auth.rows.set('app-state-sync-key/AAAAAQ==', bufferJson.stringify({ keyData: Buffer.from([7]) }));
    await h.session.connect();
    const [store] = (h.lib.makeCacheableSignalKeyStore as jest.Mock).mock.calls[0] as [
      { get(type: string, ids: string[]): Promise<unknown> },
    ];
    expect(await store.get('app-state-sync-key', ['AAAAAQ=='])).toEqual({
      'AAAAAQ==': { $proto: 'AppStateSyncKeyData', keyData: Buffer.from([7]) },
    });
  });
});

describe('BaileysSession pairing', () => {
  it('offers each rotating QR code, then pairs: restart at once with a new socket, opened as a new login', async () => {
    const h = sessionHarness();
    await h.session.connect();
    await settle();
    const first = h.socket().qr('ref1');
    expect(h.session.currentQr()).toBe(first);
    const second = h.socket().qr('ref2');
    expect(h.session.currentQr()).toBe(second);

    h.socket().pairSuccess(DEVICE_JID, DEVICE_LID);
    await settle();
    expect(h.session.currentQr()).toBeUndefined();
    // 515 restart required: a second socket with the paired credentials, and nothing reported to the worker.
    expect(h.sockets).toHaveLength(2);
    expect(h.sockets[1].config.auth.creds).toEqual({ ...freshCreds(), ...pairedCredsUpdate(DEVICE_JID, DEVICE_LID) });
    expect(h.auth.saved()).toEqual({ ...freshCreds(), ...pairedCredsUpdate(DEVICE_JID, DEVICE_LID) });
    h.socket().open();
    expect(h.calls).toEqual([
      ['qr', first],
      ['qr', second],
      ['opened', { deviceId: DEVICE_JID, isNewLogin: true }],
    ]);
  });

  it('after a new login, reports initial_sync_finished once the offline backlog is in, when history is wanted', async () => {
    for (const historySync of [true, false]) {
      const h = sessionHarness({ historySync });
      await h.session.connect();
      await settle();
      h.socket().qr('ref1');
      h.socket().pairSuccess(DEVICE_JID, DEVICE_LID);
      await settle();
      h.socket().open();
      h.socket().emit('connection.update', { receivedPendingNotifications: true });
      h.socket().emit('connection.update', { receivedPendingNotifications: true });
      await settle();
      expect([historySync, (h.hooks.event as jest.Mock).mock.calls]).toEqual([
        historySync,
        historySync ? [[{ eventType: 'initial_sync_finished', data: {} }]] : [],
      ]);
    }
  });

  it('does not report initial_sync_finished when an already paired device reconnects', async () => {
    const h = sessionHarness({ paired: true, historySync: true });
    await h.session.connect();
    await settle();
    h.socket().open();
    h.socket().emit('connection.update', { receivedPendingNotifications: true });
    await settle();
    expect(h.hooks.event).not.toHaveBeenCalled();
  });

  it('asks for a pair code only once the first QR code has arrived, with the phone as digits only', async () => {
    const h = sessionHarness();
    const code = h.session.requestPairCode('+44 7700-900123');
    await settle();
    expect(h.sockets).toHaveLength(1);
    expect(h.socket().requestPairingCode).not.toHaveBeenCalled();
    h.socket().qr('ref1');
    expect(await code).toBe('ABCD-1234');
    expect(h.socket().requestPairingCode).toHaveBeenCalledWith('447700900123');
  });

  it('answers 503 when no QR code arrives in time, without asking the network', async () => {
    const h = sessionHarness({ firstQrWaitMs: 50 });
    await expect(h.session.requestPairCode('447700900123')).rejects.toEqual(new AppError('instance_unavailable'));
    expect(h.socket().requestPairingCode).not.toHaveBeenCalled();
  });

  it('refuses a pair code for a paired device', async () => {
    const h = sessionHarness({ paired: true });
    await h.session.connect();
    await expect(h.session.requestPairCode('447700900123')).rejects.toEqual(new AppError('device_already_paired'));
  });

  it('starts a pairing afresh when an earlier pair-code attempt never completed', async () => {
    const h = sessionHarness();
    await h.session.connect();
    await settle();
    h.socket().qr('ref1');
    await h.session.requestPairCode('447700900123');
    await settle();
    expect(h.auth.saved()?.me).toEqual({ id: '447700900123@s.whatsapp.net', name: '~' });
    h.socket().fail(428, 'Connection Closed');
    await settle();
    await h.session.connect();
    expect(h.auth.cleared).toEqual([INSTANCE_ID]);
    expect(h.socket().config.auth.creds).toEqual(freshCreds());
  });
});

describe('BaileysSession logout and close', () => {
  async function openSession() {
    const h = sessionHarness({ paired: true });
    await h.session.connect();
    await settle();
    h.socket().open();
    h.auth.rows.set('session/447700900123.0', '"key"');
    return h;
  }

  it('logs out: unlinks on the network, ends the socket, clears credentials and keys, reports api_logout once', async () => {
    const h = await openSession();
    const socket = h.socket();
    await h.session.logout();
    await settle();
    expect(socket.logout).toHaveBeenCalledTimes(1);
    expect(socket.end).toHaveBeenCalledWith(expect.objectContaining({ message: 'Intentional Logout' }));
    expect(h.auth.cleared).toEqual([INSTANCE_ID]);
    expect(h.auth.creds).toBeNull();
    expect(h.auth.rows.size).toBe(0);
    expect(h.messages.forgetAll).toHaveBeenCalledWith(INSTANCE_ID);
    expect(h.calls.slice(1)).toEqual([['closed', 'logged_out', 'api_logout', undefined]]);
    expect(h.sockets).toHaveLength(1);
  });

  it('still forgets the device when the network does not take the logout', async () => {
    const h = await openSession();
    const socket = h.socket();
    socket.logout.mockRejectedValueOnce(new Error('Connection Closed'));
    await h.session.logout();
    expect(socket.end).toHaveBeenCalledWith(undefined);
    expect(h.auth.cleared).toEqual([INSTANCE_ID]);
    expect(h.calls.slice(1)).toEqual([['closed', 'logged_out', 'api_logout', undefined]]);
  });

  it('closes without reconnecting and without reporting, and ignores what the old socket says afterwards', async () => {
    const h = await openSession();
    const socket = h.socket();
    await h.session.close();
    expect(socket.end).toHaveBeenCalledWith(undefined);
    socket.update({ connection: 'open' });
    await settle();
    expect(h.calls).toEqual([['opened', { deviceId: DEVICE_JID, isNewLogin: false }]]);
    expect(h.sockets).toHaveLength(1);
    expect(h.auth.cleared).toEqual([]);
  });

  it('never starts a socket when closed while still loading the credentials', async () => {
    const h = sessionHarness({ paired: true });
    const connecting = h.session.connect();
    await h.session.close();
    await connecting;
    expect(h.sockets).toHaveLength(0);
  });
});

/**
 * rc14 uploads pre-keys in a key transaction: it writes the new `pre-key` rows, then emits `creds.update` with the
 * next ids (`Socket/socket.js` `uploadPreKeys`). A worker that takes the instance over must load credentials that
 * know those ids, or it hands out ids again that the network already holds (Bad MAC, Invalid PreKey ID).
 */
describe('BaileysSession credentials at close and takeover', () => {
  const preKeyPair = (id: number) => ({ private: Buffer.alloc(32, id), public: Buffer.alloc(32, id + 1) });
  const NEXT_IDS = { nextPreKeyId: 61, firstUnuploadedPreKeyId: 61 };

  async function openSession() {
    const h = sessionHarness({ paired: true });
    await h.session.connect();
    await settle();
    h.socket().open();
    await settle();
    return h;
  }

  /** What rc14's `getNextPreKeys` does inside the upload transaction, then the update it emits. */
  async function uploadPreKeys(h: Awaited<ReturnType<typeof openSession>>) {
    const keys = (h.socket().config.auth.keys as unknown as { store: { set: (data: object) => Promise<void> } }).store;
    await keys.set({ 'pre-key': Object.fromEntries([31, 32, 33].map((id) => [id, preKeyPair(id)])) });
    h.socket().emit('creds.update', NEXT_IDS);
  }

  async function takeOver(h: Awaited<ReturnType<typeof openSession>>) {
    const next = sessionHarness({ paired: true, auth: h.auth });
    await next.session.connect();
    return next.socket().config.auth.creds;
  }

  it('saves the update of a pre-key upload that completes while the socket is ending', async () => {
    const h = await openSession();
    h.socket().whileEnding = () => uploadPreKeys(h);
    await h.session.close();

    expect(h.auth.rows.has('pre-key/31')).toBe(true);
    expect(await takeOver(h)).toMatchObject(NEXT_IDS);
  });

  it('waits for a credentials write in flight before close returns (the lease is released after it)', async () => {
    const h = await openSession();
    h.auth.saveDelayMs = 30;
    await uploadPreKeys(h);
    await h.session.close();

    expect(await takeOver(h)).toMatchObject(NEXT_IDS);
  });

  it('does not save what a socket says after the device was logged out', async () => {
    const h = await openSession();
    const socket = h.socket();
    socket.whileEnding = () => socket.emit('creds.update', { accountSyncCounter: 9 });
    await h.session.logout();
    await settle();
    expect(h.auth.creds).toBeNull();
  });
});

describe('BaileysSession messages and operations', () => {
  async function openSession() {
    const h = sessionHarness({ paired: true });
    await h.session.connect();
    await settle();
    h.socket().open();
    return h;
  }

  it('hands sends and operations to the ports with the open socket as context', async () => {
    const h = await openSession();
    const message = { kind: 'text', to: '447700900999@s.whatsapp.net', text: 'hi' } as never;
    await h.session.send(message);
    await h.session.perform('chats.archive', { chatId: '447700900999@s.whatsapp.net', archived: true });
    const context = {
      instanceId: INSTANCE_ID,
      socket: h.socket(),
      lib: h.lib,
      selfJid: '447700900123@s.whatsapp.net',
      selfLid: '201234567890123@lid',
      messages: expect.any(Object),
      sent: expect.any(RecentIds),
      acks: expect.any(ServerAcks),
      calls: expect.any(CallOrigins),
      undecryptable: expect.any(UndecryptableWatch),
      groupActors: expect.any(GroupActors),
    };
    expect(h.sender.send).toHaveBeenCalledWith(context, message);
    expect(h.operations.perform).toHaveBeenCalledWith(context, 'chats.archive', { chatId: '447700900999@s.whatsapp.net', archived: true });
  });

  it('answers 503 while the link is not open', async () => {
    const h = sessionHarness({ paired: true });
    await h.session.connect();
    await expect(h.session.send({} as never)).rejects.toEqual(new AppError('instance_unavailable'));
    await expect(h.session.perform('chats.archive', { chatId: 'x', archived: true })).rejects.toEqual(new AppError('instance_unavailable'));
    expect(h.sender.send).not.toHaveBeenCalled();
    expect(h.operations.perform).not.toHaveBeenCalled();
  });

  it('serves retries from the message store, and undefined for a message it does not keep', async () => {
    const h = await openSession();
    const stored = { key: { remoteJid: '447700900999@s.whatsapp.net', fromMe: true, id: '3EB0AA' }, message: { conversation: 'hello' } };
    const justSent = new Date();
    h.messages.find.mockImplementation((_instance, id, chat) =>
      Promise.resolve(
        id === '3EB0AA' && chat === undefined
          ? {
              id,
              chatJid: '447700900999@s.whatsapp.net',
              fromMe: true,
              senderJid: null,
              sentAt: justSent,
              data: bufferJson.stringify(stored),
            }
          : null,
      ),
    );
    const getMessage = h.socket().config.getMessage as (key: WAMessageKey) => Promise<unknown>;
    // Asked under the chat's LID, stored under its phone number: found by id.
    expect(await getMessage({ remoteJid: '201234567890999@lid', fromMe: true, id: '3EB0AA' })).toEqual({
      $proto: 'Message',
      conversation: 'hello',
    });
    expect(h.messages.find.mock.calls).toEqual([
      [INSTANCE_ID, '3EB0AA', '201234567890999@lid'],
      [INSTANCE_ID, '3EB0AA'],
    ]);
    expect(await getMessage({ remoteJid: '447700900999@s.whatsapp.net', fromMe: true, id: 'UNKNOWN' })).toBeUndefined();
  });

  /**
   * A recipient asks when it meets the copy it cannot decrypt: a phone offline for days asks when it comes back, and
   * one left without an answer stays on "Waiting for this message". The kept copies bound it (`NETWORK_RETENTION_HOURS`).
   */
  it('serves retries for every kept message however old, events and polls alike', async () => {
    const NOW = Date.parse('2026-11-22T12:00:00.000Z');
    const h = sessionHarness({ paired: true, now: () => NOW });
    await h.session.connect();
    await settle();
    h.socket().open();
    const chatJid = '447700900999@s.whatsapp.net';
    const kept: Record<string, { minutesAgo: number; message: object }> = {
      '3EB0RECENT': { minutesAgo: 14, message: { conversation: 'recent' } },
      '3EB0OLD': { minutesAgo: 3 * 24 * 60 - 1, message: { conversation: 'old' } },
      '3EB0EVENT': {
        minutesAgo: 2 * 24 * 60,
        message: { eventMessage: { name: 'Party' }, messageContextInfo: { messageSecret: 'c2VjcmV0' } },
      },
      '3EB0POLL': {
        minutesAgo: 3 * 24 * 60,
        message: { pollCreationMessageV3: { name: 'Lunch?' }, messageContextInfo: { messageSecret: 'c2VjcmV0' } },
      },
    };
    h.messages.find.mockImplementation((_instance, id) => {
      const entry = kept[id];
      return Promise.resolve(
        entry
          ? {
              id,
              chatJid,
              fromMe: true,
              senderJid: null,
              sentAt: new Date(NOW - entry.minutesAgo * 60_000),
              data: bufferJson.stringify({ key: { remoteJid: chatJid, fromMe: true, id }, message: entry.message }),
            }
          : null,
      );
    });
    const getMessage = h.socket().config.getMessage as (key: WAMessageKey) => Promise<{ $proto: string } | undefined>;
    const served = async (id: string) => (await getMessage({ remoteJid: chatJid, fromMe: true, id })) !== undefined;
    expect(await served('3EB0RECENT')).toBe(true);
    expect(await served('3EB0OLD')).toBe(true);
    expect(await served('3EB0GONE')).toBe(false);
    expect(await served('3EB0EVENT')).toBe(true);
    expect(await served('3EB0POLL')).toBe(true);
  });

  it.each([
    [true, ['message_history_sync', 'contact']],
    [false, ['contact']],
  ])('reports the history the phone pushes only when historySync is on (%s); what it teaches is kept either way', async (on, reported) => {
    const h = await openSession();
    (h.hooks.historySyncEnabled as jest.Mock).mockResolvedValue(on);
    h.inbound.process.mockImplementation((_context, _events, sink) => {
      sink.event({ eventType: 'message_history_sync', data: { chatId: '447700900999@s.whatsapp.net', messages: [] } } as never);
      sink.event({ eventType: 'contact', data: {} } as never);
      sink.learned({ people: [] } as never);
      return Promise.resolve();
    });
    h.socket().batch({ 'messaging-history.set': { chats: [], contacts: [], messages: [], isLatest: true } });
    await new Promise((resolve) => setTimeout(resolve, 20));
    expect((h.hooks.event as jest.Mock).mock.calls.map(([event]) => (event as { eventType: string }).eventType)).toEqual(reported);
    expect(h.hooks.learned).toHaveBeenCalledTimes(1);
  });

  it('forwards event batches in order to inbound mapping, without the connection and credential updates', async () => {
    const h = await openSession();
    const order: string[] = [];
    h.inbound.process.mockImplementation(async (_context, events, sink) => {
      const name = Object.keys(events).join(',');
      if (name === 'chats.upsert') await new Promise((resolve) => setTimeout(resolve, 20));
      if (name === 'presence.update') throw new Error('mapping failed');
      sink.event({ eventType: 'x', data: { name } } as never);
      order.push(name);
    });
    const socket = h.socket();
    socket.batch({ 'chats.upsert': [{ id: '447700900999@s.whatsapp.net' }] });
    socket.batch({ 'presence.update': { id: '447700900999@s.whatsapp.net', presences: {} } });
    socket.batch({ 'contacts.update': [{ id: '447700900999@s.whatsapp.net', notify: 'Bob' }], 'creds.update': { accountSyncCounter: 2 } });
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect(order).toEqual(['chats.upsert', 'contacts.update']);
    expect(h.inbound.process.mock.calls.map(([, events]) => Object.keys(events))).toEqual([
      ['chats.upsert'],
      ['presence.update'],
      ['contacts.update'],
    ]);
    expect(h.hooks.event).toHaveBeenCalledTimes(2);
    expect(h.logLines).toContainEqual({
      level: 'error',
      bindings: { instanceId: INSTANCE_ID },
      fields: { err: new Error('mapping failed'), events: ['presence.update'] },
      message: 'inbound events not processed',
    });
  });

  it('caches group metadata across sockets: fetched once, kept current from group events', async () => {
    const h = await openSession();
    const cached = h.socket().config.cachedGroupMetadata as (jid: string) => Promise<GroupMetadata | undefined>;
    h.socket().groupMetadata.mockResolvedValue(group(['447700900123@s.whatsapp.net']));
    expect(await cached('120363041234567890@g.us')).toEqual(group(['447700900123@s.whatsapp.net']));
    h.socket().emit('group-participants.update', {
      id: '120363041234567890@g.us',
      author: '447700900123@s.whatsapp.net',
      participants: [{ id: '447700900999@s.whatsapp.net' }],
      action: 'add',
    });
    h.socket().fail(408, 'Connection was lost');
    await settle();
    await h.session.connect();
    const afterReconnect = h.socket().config.cachedGroupMetadata as (jid: string) => Promise<GroupMetadata | undefined>;
    expect(await afterReconnect('120363041234567890@g.us')).toEqual(group(['447700900123@s.whatsapp.net', '447700900999@s.whatsapp.net']));
    expect(h.sockets[0].groupMetadata).toHaveBeenCalledTimes(1);
    expect(h.sockets[1].groupMetadata).not.toHaveBeenCalled();
  });

  it("stores a LID group's member pairs in Baileys' mapping store when it fetches the group (rc14 does not)", async () => {
    const h = await openSession();
    const cached = h.socket().config.cachedGroupMetadata as (jid: string) => Promise<GroupMetadata | undefined>;
    h.socket().groupMetadata.mockResolvedValue({
      ...group([]),
      participants: [
        { id: '123456789012345@lid', phoneNumber: '447700900123@s.whatsapp.net', admin: null },
        { id: '447700900999@s.whatsapp.net', lid: '123456789012999@lid', admin: null },
        { id: '123456789012777@lid', admin: null },
      ],
    });
    await cached('120363041234567890@g.us');
    const mapping = h.socket().signalRepository.lidMapping;
    expect(await mapping.getPNForLID('123456789012345@lid')).toBe('447700900123:0@s.whatsapp.net');
    expect(await mapping.getPNForLID('123456789012999@lid')).toBe('447700900999:0@s.whatsapp.net');
    expect(await mapping.getPNForLID('123456789012777@lid')).toBeNull();
  });

  it('replays the kept history through inbound mapping as an on-demand history sync', async () => {
    const h = await openSession();
    const stored = {
      key: { remoteJid: '447700900999@s.whatsapp.net', fromMe: false, id: 'ABC' },
      message: { conversation: 'old' },
      messageTimestamp: 1700000000,
    };
    h.messages.recentPerChat.mockResolvedValue([
      {
        id: 'ABC',
        chatJid: '447700900999@s.whatsapp.net',
        fromMe: false,
        senderJid: null,
        sentAt: new Date(0),
        data: bufferJson.stringify(stored),
      },
    ]);
    await h.session.flushHistory();
    expect(h.messages.recentPerChat).toHaveBeenCalledWith(INSTANCE_ID, 500);
    expect(h.inbound.process).toHaveBeenCalledWith(
      expect.objectContaining({ instanceId: INSTANCE_ID }),
      {
        'messaging-history.set': {
          chats: [],
          contacts: [],
          messages: [{ $proto: 'WebMessageInfo', ...stored }],
          syncType: HISTORY_SYNC_TYPE.ON_DEMAND,
          isLatest: false,
        },
      },
      expect.any(Object),
    );
  });
});
