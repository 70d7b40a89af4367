import type { AuthenticationCreds, BaileysEventMap, ConnectionState, GroupMetadata, UserFacingSocketConfig } from '@whiskeysockets/baileys';
import type { BaileysLibrary, BaileysSocket } from '../../baileys-library';

type EventBatch = Partial<BaileysEventMap>;
type BatchHandler = (events: EventBatch) => void | Promise<void>;

import { boom } from '../../testing/kit';

export { boom };

/** What `initAuthCreds()` returns, byte sizes and all (the key bytes are fixed so tests can compare them). */
export function freshCreds(): AuthenticationCreds {
  const keyPair = (seed: number) => ({ private: Buffer.alloc(32, seed), public: Buffer.alloc(32, seed + 1) });
  return {
    noiseKey: keyPair(1),
    pairingEphemeralKeyPair: keyPair(3),
    signedIdentityKey: keyPair(5),
    signedPreKey: { keyPair: keyPair(7), signature: Buffer.alloc(64, 9), keyId: 1 },
    registrationId: 4242,
    advSecretKey: Buffer.alloc(32, 11).toString('base64'),
    processedHistoryMessages: [],
    nextPreKeyId: 1,
    firstUnuploadedPreKeyId: 1,
    accountSyncCounter: 0,
    accountSettings: { unarchiveChats: false },
    registered: false,
    pairingCode: undefined,
    lastPropHash: undefined,
    routingInfo: undefined,
    additionalData: undefined,
  };
}

/** What the network's pair-success stanza adds to the credentials (`configureSuccessfulPairing`). */
export function pairedCredsUpdate(deviceJid: string, lid: string): Partial<AuthenticationCreds> {
  return {
    account: {
      details: Buffer.from('device-details'),
      accountSignatureKey: Buffer.alloc(32, 21),
      accountSignature: Buffer.alloc(64, 22),
      deviceSignature: Buffer.alloc(64, 23),
    },
    me: { id: deviceJid, name: 'Ann Example', lid },
    signalIdentities: [{ identifier: { name: lid, deviceId: 0 }, identifierKey: Buffer.alloc(33, 24) }],
    platform: 'android',
  };
}

/**
 * Stands in for the socket `makeWASocket` returns: the event emitter (`ev.process`) and the methods the session calls,
 * behaving as Baileys 7 does (`connecting` on the next tick, credentials updated in place before listeners hear of it,
 * `end` emitting the close once and silencing the emitter).
 */
export class FakeSocket {
  private handlers: BatchHandler[] = [];
  private closed = false;
  readonly ev = {
    process: (handler: BatchHandler) => {
      this.handlers.push(handler);
      return () => (this.handlers = this.handlers.filter((other) => other !== handler));
    },
  };
  /**
   * What happens while the socket is ending: rc14's `end` awaits the WebSocket's close and its end handlers before it
   * emits the close and destroys the emitter, and work in flight (a pre-key upload's `creds.update`) still reports.
   */
  whileEnding: (() => void | Promise<void>) | undefined;
  readonly end = jest.fn((error: Error | undefined) => {
    if (this.closed) return Promise.resolve();
    this.closed = true;
    const finish = () => {
      this.emit('connection.update', { connection: 'close', lastDisconnect: { error, date: new Date() } });
      this.handlers = [];
    };
    if (this.whileEnding) return Promise.resolve(this.whileEnding()).then(finish);
    finish();
    return Promise.resolve();
  });
  readonly logout = jest.fn(() => {
    void this.end(boom('Intentional Logout', 401));
    return Promise.resolve();
  });
  readonly requestPairingCode = jest.fn((phone: string) => {
    this.emit('creds.update', { pairingCode: 'ABCD1234', me: { id: `${phone}@s.whatsapp.net`, name: '~' } });
    return Promise.resolve('ABCD1234');
  });
  readonly groupMetadata = jest.fn<Promise<GroupMetadata>, [string]>();
  /** Baileys wraps the key store it was given in its transaction layer; the key each transaction was asked under. */
  readonly transactionKeys: string[] = [];
  readonly authState = {
    keys: {
      transaction: <T>(work: () => Promise<T>, key: string): Promise<T> => {
        this.transactionKeys.push(key);
        return work();
      },
    },
  };

  constructor(readonly config: UserFacingSocketConfig) {
    process.nextTick(() =>
      this.emit('connection.update', { connection: 'connecting', receivedPendingNotifications: false, qr: undefined }),
    );
  }

  get creds(): AuthenticationCreds {
    return this.config.auth.creds;
  }

  get isClosed(): boolean {
    return this.closed;
  }

  /** One event, as Baileys' emitter hands it to `ev.process` listeners: a batch of one. */
  emit<E extends keyof BaileysEventMap>(event: E, data: BaileysEventMap[E]): void {
    if (event === 'creds.update') Object.assign(this.config.auth.creds, data);
    this.batch({ [event]: data });
  }

  /** A batch of several events, as the buffer flushes them. */
  batch(events: EventBatch): void {
    for (const handler of this.handlers) void handler(events);
  }

  update(update: Partial<ConnectionState>): void {
    this.emit('connection.update', update);
  }

  qr(ref: string): string {
    const code = `https://wa.me/settings/linked_devices#2@${ref},bm9pc2U=,aWRlbnRpdHk=,YWR2,1`;
    this.update({ qr: code });
    return code;
  }

  /** The phone scanned the code: credentials completed, then the network asks for a restart (515). */
  pairSuccess(deviceJid: string, lid: string): void {
    this.emit('creds.update', pairedCredsUpdate(deviceJid, lid));
    this.update({ isNewLogin: true, qr: undefined });
    void this.end(boom('Stream Errored (restart required)', 515));
  }

  /** Login accepted (`CB:success`): the network confirms the account's LID, then the link is open. */
  open(): void {
    const me = this.creds.me;
    if (me) this.emit('creds.update', { me: { ...me } });
    this.update({ connection: 'open' });
  }

  fail(statusCode: number, message: string): void {
    void this.end(boom(message, statusCode));
  }
}

export interface FakeLibrary {
  lib: BaileysLibrary;
  sockets: FakeSocket[];
  /** The socket made last. */
  socket(): FakeSocket;
}

export const HISTORY_SYNC_TYPE = {
  INITIAL_BOOTSTRAP: 0,
  INITIAL_STATUS_V3: 1,
  FULL: 2,
  RECENT: 3,
  PUSH_NAME: 4,
  NON_BLOCKING_DATA: 5,
  ON_DEMAND: 6,
} as const;

/** Marks what went through a `proto.*.fromObject`, so tests can tell converted values from raw ones. */
function converter(type: string) {
  return jest.fn((object: object) => ({ $proto: type, ...object }));
}

/** The parts of the Baileys package the session uses, with the values and shapes of 7.0.0-rc14. */
export function fakeLibrary(): FakeLibrary {
  const sockets: FakeSocket[] = [];
  const lib = {
    makeWASocket: jest.fn((config: UserFacingSocketConfig) => {
      const socket = new FakeSocket(config);
      sockets.push(socket);
      return socket as unknown as BaileysSocket;
    }),
    initAuthCreds: jest.fn(freshCreds),
    makeCacheableSignalKeyStore: jest.fn((store: object, _logger: unknown, cache: object) => ({ cacheable: true, store, cache })),
    Browsers: { ubuntu: (browser: string) => ['Ubuntu', browser, '22.04.4'] },
    DisconnectReason: {
      connectionClosed: 428,
      connectionLost: 408,
      connectionReplaced: 440,
      timedOut: 408,
      loggedOut: 401,
      badSession: 500,
      restartRequired: 515,
      multideviceMismatch: 411,
      forbidden: 403,
      unavailableService: 503,
    },
    proto: {
      Message: {
        fromObject: converter('Message'),
        AppStateSyncKeyData: { fromObject: converter('AppStateSyncKeyData') },
        HistorySyncType: { ...HISTORY_SYNC_TYPE, NO_HISTORY: 7, MESSAGE_ACCESS_STATUS: 8 },
      },
      WebMessageInfo: { fromObject: converter('WebMessageInfo') },
      HistorySync: { HistorySyncType: HISTORY_SYNC_TYPE },
    },
    fetchLatestWaWebVersion: jest.fn(() => Promise.resolve({ version: [2, 3000, 1099887766], isLatest: true })),
  } as unknown as BaileysLibrary;
  return { lib, sockets, socket: () => sockets[sockets.length - 1] };
}
