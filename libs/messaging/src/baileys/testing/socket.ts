import { EventEmitter } from 'node:events';
import type { AuthenticationCreds, BaileysEventMap, ConnectionState, GroupMetadata, UserFacingSocketConfig } from '@whiskeysockets/baileys';
import type { BaileysSocket, WAMessage } from '../baileys-library';
import { boom } from './kit';
import { lidMappingStore } from './rc14';

type EventBatch = Partial<BaileysEventMap>;
type BatchHandler = (events: EventBatch) => void | Promise<void>;

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

export interface FakeSocketOptions {
  /** The config `makeWASocket` was given; its credentials are the socket's. */
  config?: UserFacingSocketConfig;
  /** The account, as `sock.user` and `authState.creds.me` report it after pairing. */
  me?: { id: string; lid?: string; name?: string };
  /** The LID/phone pairs (LID → phone JID) Baileys' LID mapping store knows: rc14's own store answers from them. */
  knownPairs?: Record<string, string>;
  /** Baileys' stored `lid-mapping` keys (phone-number user → LID user), as the auth state's key store holds them. */
  storedLidMappings?: Record<string, string>;
}

/**
 * The one stand-in for the socket `makeWASocket` returns, behaving as Baileys 7.0.0-rc14's does: the event emitter
 * (`ev.process`; a batch is handed to every listener as the event buffer flushes it), the send and chat methods as
 * stubs that answer like Baileys, the LID mapping store (rc14's own), the auth state's key store, and the connection's
 * life (`connecting` on the next tick, credentials updated in place before listeners hear of it, `end` emitting the
 * close once and silencing the emitter).
 */
export class FakeSocket {
  private handlers: BatchHandler[] = [];
  private closed = false;
  readonly config: UserFacingSocketConfig;
  readonly user: { id: string; lid?: string } | undefined;
  /** The LIDs each `getPNsForLIDs` call asked for. */
  readonly lookedUp: string[][] = [];
  /** Baileys wraps the key store it was given in its transaction layer; the key each transaction was asked under. */
  readonly transactionKeys: string[] = [];
  readonly authState: {
    creds: Partial<AuthenticationCreds>;
    keys: {
      get(type: string, ids: string[]): Promise<Record<string, string>>;
      transaction<T>(work: () => Promise<T>, key: string): Promise<T>;
    };
  };
  readonly signalRepository: { lidMapping: ReturnType<typeof lidMappingStore> };

  /** rc14's WebSocket client: an emitter of `CB:<tag>,<attr>:<value>` events, one per stanza the server sent. */
  readonly ws = new EventEmitter();

  readonly ev = {
    process: (handler: BatchHandler) => {
      this.handlers.push(handler);
      return () => (this.handlers = this.handlers.filter((other) => other !== handler));
    },
  };

  readonly sendMessage = jest.fn<Promise<WAMessage | undefined>, Parameters<BaileysSocket['sendMessage']>>();
  readonly relayMessage = jest.fn<Promise<string>, Parameters<BaileysSocket['relayMessage']>>((_jid, _message, options) =>
    Promise.resolve(options.messageId ?? 'GENERATED'),
  );
  readonly chatModify = jest.fn<Promise<void>, Parameters<BaileysSocket['chatModify']>>(() => Promise.resolve());
  readonly appPatch = jest.fn<Promise<void>, Parameters<BaileysSocket['appPatch']>>(() => Promise.resolve());
  readonly readMessages = jest.fn<Promise<void>, Parameters<BaileysSocket['readMessages']>>(() => Promise.resolve());
  readonly sendReceipts = jest.fn<Promise<void>, Parameters<BaileysSocket['sendReceipts']>>(() => Promise.resolve());
  readonly groupMetadata = jest.fn<Promise<GroupMetadata>, [string]>();

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

  /** A socket as `makeWASocket` makes it: it reports `connecting` on the next tick. */
  static connecting(config: UserFacingSocketConfig): FakeSocket {
    const socket = new FakeSocket({ config });
    process.nextTick(() =>
      socket.emit('connection.update', { connection: 'connecting', receivedPendingNotifications: false, qr: undefined }),
    );
    return socket;
  }

  constructor(options: FakeSocketOptions = {}) {
    this.config = options.config ?? ({ auth: { creds: options.me ? { me: options.me } : {} } } as UserFacingSocketConfig);
    this.user = options.me ? { id: options.me.id, ...(options.me.lid ? { lid: options.me.lid } : {}) } : undefined;
    const stored = options.storedLidMappings ?? {};
    this.authState = {
      creds: this.config.auth.creds,
      keys: {
        get: (type, ids) =>
          Promise.resolve(type === 'lid-mapping' ? Object.fromEntries(ids.filter((id) => stored[id]).map((id) => [id, stored[id]])) : {}),
        transaction: (work, key) => {
          this.transactionKeys.push(key);
          return work();
        },
      },
    };
    const pairs = Object.entries(options.knownPairs ?? {}).map(([lid, pn]) => ({ lid, pn }));
    const lidMapping = lidMappingStore(pairs);
    const getPNsForLIDs = lidMapping.getPNsForLIDs.bind(lidMapping);
    lidMapping.getPNsForLIDs = (lids: string[]) => {
      this.lookedUp.push(lids);
      return getPNsForLIDs(lids);
    };
    this.signalRepository = { lidMapping };
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

  /** A batch of several events, as the buffer flushes them (the emitter does not wait for its listeners). */
  batch(events: EventBatch): void {
    void this.handOver(events);
  }

  /** A batch handed to every listener in turn; settles once each has handled it. */
  async handOver(events: EventBatch): Promise<void> {
    for (const handler of this.handlers) await handler(events);
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
