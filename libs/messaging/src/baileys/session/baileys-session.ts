import { AppError, type OperationArgs, type OperationName, type OperationResult, type OutboundMessage } from '@app/contracts';
import type { NetworkMessageRepository } from '@app/database';
import type {
  AuthenticationCreds,
  BaileysEventMap,
  ConnectionState,
  GroupMetadata,
  SignalKeyStore,
  UserFacingSocketConfig,
  WAMessageKey,
  proto,
} from '@whiskeysockets/baileys';
import type { NetworkSession, SentMessage, SessionHooks, SessionIdentity } from '../../driver';
import { loadAuthState, type AuthState, type AuthStore } from '../auth-state';
import { normalise } from '../../events/normalise';
import { RecentIds } from '../inbound/recent-ids';
import { UndecryptableWatch, type UndecryptableOutcome } from '../inbound/undecryptable-watch';
import { ACK_WAIT_MS, ServerAcks } from '../outbound/server-acks';
import type { BaileysContext, BaileysInboundPort, BaileysOperationsPort, BaileysSenderPort, InboundSink } from '../baileys-context';
import type { BaileysLibrary, BaileysSocket, WAMessage } from '../baileys-library';
import { CallOrigins } from '../call-origins';
import { GroupActors } from '../group-actors';
import { bufferJson } from '../buffer-json';
import { serialiseSignalTransactions } from './signal-transactions';
import type { BaileysLibraryLoader, BaileysLogger, BaileysSettings } from './baileys-settings';
import { Condition } from './condition';
import { decideOnClose, DISCONNECT, QUICK_RESTARTS, REPLACEMENTS, type CloseDecision } from './disconnect-policy';
import { ExpiringCache } from './expiring-cache';
import { DeviceLists } from './device-lists';
import { GroupMetadataCache } from './group-metadata-cache';
import { NetworkRoute } from './network-route';
import { SignalKeyCache } from './signal-key-cache';
import type { WebVersion } from './web-version';

/** What a session needs besides its identity and hooks; the driver hands the same ports and stores to every session. */
export interface BaileysSessionDeps {
  library: BaileysLibraryLoader;
  auth: AuthStore;
  messages: NetworkMessageRepository;
  inbound: BaileysInboundPort;
  sender: BaileysSenderPort;
  operations: BaileysOperationsPort;
  settings: BaileysSettings;
  logger: BaileysLogger;
  version: WebVersion;
  now?: () => number;
  /** Counts what became of messages that failed to decrypt (the worker's `/metrics`). */
  observeUndecryptable?: (outcome: UndecryptableOutcome) => void;
}

type Phase = 'idle' | 'connecting' | 'open' | 'closed';

type LoadedAuth = AuthState<AuthenticationCreds> & { keys: SignalKeyStore };

/** As many messages per chat as `flush-history` promises. */
const HISTORY_PER_CHAT = 500;
const KEY_CACHE = { ttlMs: 5 * 60_000, maxEntries: 5_000 };
const RETRY_COUNTS = { ttlMs: 60 * 60_000, maxEntries: 10_000 };
/**
 * Retry receipts (ours and our recipients'), per message and device. A client asks at most 5 times: rc14's own
 * `sendRetryRequest` stops there (`MessageRetryManager.hasExceededMaxRetries`). Baileys counts each
 * retry receipt it answers twice (`updateSendMessageAgainCount` in `handleReceipt` and again in `sendMessagesAgain`,
 * messages-recv.js), so with its setting at 5 only a recipient's first 2 requests were answered and its 3rd to 5th left
 * it on "Waiting for this message". The setting is therefore twice the requests to answer, and the socket's retry
 * manager, which limits the requests this device sends, is set back to the 5 a client makes.
 */
const RETRY_REQUESTS = 5;
/** How long a retry request for a send of ours whose echo is not kept yet waits for it, and how often it looks. */
const ECHO_WAIT = { totalMs: 5_000, stepMs: 200 };
/** Messages watched for a decryptable copy at once, per instance; beyond it the oldest is reported at once. */
const UNDECRYPTABLE_WATCHED = 1_000;

/** Linked by the network: pairing stores the signed device identity, which a pairing in progress does not have. */
function linked(creds: AuthenticationCreds): boolean {
  return Boolean(creds.account);
}

/**
 * A pair-code request names the phone (`me`) before the phone confirms; credentials left like that would try to log in
 * as a device the network never linked.
 */
function unfinishedPairing(creds: AuthenticationCreds): boolean {
  return !linked(creds) && creds.me !== undefined;
}

const delay = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

/** `447700900123:4@s.whatsapp.net` (a device) → `447700900123@s.whatsapp.net` (its user). */
function userJid(jid: string): string {
  const [user, server] = jid.split('@');
  return `${user.split(':')[0]}@${server}`;
}

function statusCodeOf(error: Error | undefined): number | undefined {
  return (error as { output?: { statusCode?: number } } | undefined)?.output?.statusCode;
}

/**
 * One real instance's link to the network through Baileys: one socket at a time, replaced by a new one on every
 * reconnect, with caches and credentials that outlive the sockets. Decides by disconnect code whether to restart at
 * once, to hand the reconnect (with backoff) to the worker, or to stop.
 */
export class BaileysSession implements NetworkSession {
  private readonly log: BaileysLogger;
  private readonly now: () => number;
  private readonly changes = new Condition();
  private readonly groups: GroupMetadataCache;
  /** Outlives sockets: retry counts lost on a reconnect would start decrypt-retry loops over. */
  private readonly retryCounts: ExpiringCache;
  /** Outlives sockets, and is emptied with the credentials so a new pairing never reads the old keys. */
  private readonly keyCache: SignalKeyCache;
  /** Outlives sockets: Baileys echoes our sends back (also after a reconnect), and inbound mapping must know them. */
  private readonly sent = new RecentIds();
  /**
   * Sends waiting for the server's ack of their stanza (a reconnect ends the wait: that socket's acks never come). An
   * ack after the wait confirms an `unconfirmed` send: reported as `message_status` sent, which the worker records
   * only for a send it recorded unconfirmed.
   */
  private readonly acks = new ServerAcks(ACK_WAIT_MS, (id, chatJid) =>
    this.hooks.event(normalise.messageStatus({ id, chatId: chatJid, status: 'sent' })),
  );
  /** Outlives sockets: a call offered just before a reconnect can still be rejected after it. */
  private readonly calls = new CallOrigins();
  /** Outlives sockets: the resend of a message that failed to decrypt may come after a reconnect. */
  private readonly undecryptable: UndecryptableWatch;
  private readonly groupActors = new GroupActors();
  private lib: BaileysLibrary | undefined;
  private auth: LoadedAuth | undefined;
  private socket: BaileysSocket | undefined;
  /** How the current socket reaches the network (its proxy, if any); replaced with every socket. */
  private route: NetworkRoute | undefined;
  private phase: Phase = 'idle';
  private qr: string | undefined;
  /** Pairing succeeded on a socket that then had to restart: the next open is the new login. */
  private newLogin = false;
  /** A new login whose first sync (the network's offline backlog) has not been delivered yet. */
  private awaitingFirstSync = false;
  private stopped = false;
  /** Bumped by close and logout, so that a connect still loading cannot start a socket after them. */
  private generation = 0;
  private opening: Promise<void> | undefined;
  private inboundQueue: Promise<void> = Promise.resolve();
  private readonly restarts: number[] = [];
  private readonly replacements: number[] = [];

  constructor(
    readonly identity: SessionIdentity,
    private readonly hooks: SessionHooks,
    private readonly deps: BaileysSessionDeps,
  ) {
    this.now = deps.now ?? Date.now;
    this.log = deps.logger.child({ instanceId: identity.instanceId });
    this.groups = new GroupMetadataCache(this.now);
    this.retryCounts = new ExpiringCache(RETRY_COUNTS.ttlMs, RETRY_COUNTS.maxEntries, this.now);
    this.keyCache = new SignalKeyCache(KEY_CACHE.ttlMs, KEY_CACHE.maxEntries, this.now);
    this.undecryptable = new UndecryptableWatch({
      finalAfterMs: deps.settings.undecryptableAfterMs,
      // The first copy, then one more per retry receipt sent.
      maxFailedCopies: RETRY_REQUESTS + 1,
      maxWatched: UNDECRYPTABLE_WATCHED,
      emit: (event) => {
        if (!this.stopped) this.hooks.event(event);
      },
      observe: (outcome) => deps.observeUndecryptable?.(outcome),
    });
  }

  /** Starts a socket unless one is connecting or open already: never two sockets for one identity. */
  connect(): Promise<void> {
    this.stopped = false;
    return this.openSocket();
  }

  /**
   * Ends the socket and returns once the credentials are stored: the caller releases the instance's lease next, and
   * the worker that takes it over must load credentials that know every key the socket wrote (pre-key ids above all).
   */
  async close(): Promise<void> {
    // Nothing asks for those messages again once the socket is gone: they are final now.
    this.undecryptable.flush();
    this.stop();
    const socket = this.detach();
    if (socket) await socket.end(undefined);
    this.route?.close();
    await this.auth?.flush();
  }

  async logout(): Promise<void> {
    // A link still opening is given a moment, so that the phone unlinks the device too.
    if (this.phase === 'connecting' && this.auth && linked(this.auth.state.creds))
      await this.changes.until(() => this.phase !== 'connecting', this.deps.settings.openWaitMs);
    this.stop();
    const open = this.phase === 'open';
    const socket = this.detach();
    if (socket && open) {
      try {
        await socket.logout();
      } catch (error) {
        this.log.warn({ err: error }, 'the network did not take the logout; the device is forgotten here anyway');
      }
    }
    if (socket) await socket.end(undefined);
    await this.forget();
    this.hooks.closed('logged_out', 'api_logout');
  }

  currentQr(): string | undefined {
    return this.qr;
  }

  async requestPairCode(phone: string): Promise<string> {
    if (this.phase === 'open' || (this.auth && linked(this.auth.state.creds))) throw new AppError('device_already_paired');
    if (!this.socket) await this.connect();
    // The network takes a pair-code request only from a socket it registered, which the first QR code announces.
    await this.changes.until(() => this.qr !== undefined || this.phase !== 'connecting', this.deps.settings.firstQrWaitMs);
    // Read again: the phase may have moved on while waiting.
    if ((this.phase as Phase) === 'open') throw new AppError('device_already_paired');
    const socket = this.socket;
    if (!socket || this.qr === undefined) throw new AppError('instance_unavailable');
    let code: string;
    try {
      code = await socket.requestPairingCode(phone.replace(/\D/g, ''));
    } catch (error) {
      this.log.warn({ err: error }, 'pair code request failed');
      throw new AppError('instance_unavailable');
    }
    return `${code.slice(0, 4)}-${code.slice(4)}`;
  }

  async send(message: OutboundMessage): Promise<SentMessage> {
    return this.deps.sender.send(this.openContext(), message);
  }

  async perform<N extends OperationName>(name: N, args: OperationArgs<N>): Promise<OperationResult<N>> {
    return this.deps.operations.perform(this.openContext(), name, args);
  }

  /**
   * The history the network gave this instance is what it keeps of it: it goes through inbound mapping again as an
   * on-demand history sync, the form in which the network answers a request for history.
   */
  async flushHistory(): Promise<void> {
    const context = this.openContext();
    const records = await this.deps.messages.recentPerChat(this.identity.instanceId, HISTORY_PER_CHAT);
    if (records.length === 0) return;
    const { proto } = context.lib;
    const history: BaileysEventMap['messaging-history.set'] = {
      chats: [],
      contacts: [],
      messages: records.map((record) => proto.WebMessageInfo.fromObject(bufferJson.parse<WAMessage>(record.data)) as WAMessage),
      syncType: proto.HistorySync.HistorySyncType.ON_DEMAND,
      isLatest: false,
    };
    await this.forward(context, { 'messaging-history.set': history });
  }

  private openSocket(): Promise<void> {
    if (this.socket) return Promise.resolve();
    this.opening ??= this.startSocket().finally(() => (this.opening = undefined));
    return this.opening;
  }

  private async startSocket(): Promise<void> {
    const generation = this.generation;
    const lib = (this.lib ??= await this.deps.library());
    const auth = await this.authState(lib);
    const historySync = await this.hooks.historySyncEnabled();
    const proxyUrl = await this.hooks.networkProxy?.();
    if (generation !== this.generation || this.socket) return;
    this.route?.close();
    const route = (this.route = proxyUrl ? NetworkRoute.through(proxyUrl, this.deps.settings) : NetworkRoute.direct(this.deps.settings));
    const deviceLists = new DeviceLists(this.now);
    const socket = lib.makeWASocket(this.socketOptions(lib, auth, historySync, deviceLists, route));
    serialiseSignalTransactions(socket.authState.keys);
    // rc14 declares the limit private; it is read on every request (`hasExceededMaxRetries`), see RETRY_REQUESTS.
    if (socket.messageRetryManager)
      (socket.messageRetryManager as unknown as { maxMsgRetryCount: number }).maxMsgRetryCount = RETRY_REQUESTS;
    deviceLists.watch(lib, socket, this.log);
    this.groupActors.watch(socket);
    this.socket = socket;
    this.phase = 'connecting';
    this.qr = undefined;
    socket.ev.process((events) => this.onEvents(socket, auth, events));
    // Every ack of our message stanzas, the server's taking one as well as its refusal (Baileys itself only reads
    // refusals, in `handleBadAck`, and reports them after the send has returned).
    socket.ws.on('CB:ack,class:message', (node: { attrs: { id?: string; error?: string } }) => this.acks.received(node.attrs));
    this.changes.notify();
  }

  private socketOptions(
    lib: BaileysLibrary,
    auth: LoadedAuth,
    historySync: boolean,
    deviceLists: DeviceLists,
    route: NetworkRoute,
  ): UserFacingSocketConfig {
    const version = this.deps.version.current();
    return {
      auth: { creds: auth.state.creds, keys: auth.keys },
      logger: this.log,
      browser: lib.Browsers.ubuntu('Chrome'),
      waWebSocketUrl: this.deps.settings.webSocketUrl,
      ...(version ? { version } : {}),
      // The phone keeps its notifications only while no other device of the account is online.
      markOnlineOnConnect: false,
      syncFullHistory: historySync,
      // The recent history always: it carries the LID mappings Baileys needs. The full archive only when wanted.
      shouldSyncHistoryMessage: ({ syncType }) => historySync || syncType !== lib.proto.Message.HistorySyncType.FULL,
      emitOwnEvents: true,
      fireInitQueries: true,
      getMessage: (key) => this.storedMessage(lib, key),
      cachedGroupMetadata: (jid) => this.groupMetadata(jid),
      msgRetryCounterCache: this.retryCounts,
      ...(route.agent ? { agent: route.agent } : {}),
      ...(route.fetchAgent ? { fetchAgent: route.fetchAgent } : {}),
      ...(route.dispatcher ? { options: { dispatcher: route.dispatcher } } : {}),
      maxMsgRetryCount: RETRY_REQUESTS * 2,
      // Ours, so that a device-list change named by one identity also reaches the list kept under the other.
      userDevicesCache: deviceLists.cache,
      // rc14 applies app-state patches without checking their MACs unless asked (`appStateMacVerification` defaults
      // to false), so a patch that is corrupt or not the account's own would still become a chat change. WhatsApp Web
      // and whatsmeow refuse a patch whose patch MAC does not verify; with this on, Baileys skips it (a warning in the
      // log, no event) and the instance stays connected.
      appStateMacVerification: { patch: true, snapshot: true },
    };
  }

  private async authState(lib: BaileysLibrary): Promise<LoadedAuth> {
    if (this.auth && !unfinishedPairing(this.auth.state.creds)) return this.auth;
    let auth = await this.loadAuth(lib);
    if (unfinishedPairing(auth.state.creds)) {
      await auth.clear();
      this.keyCache.flushAll();
      auth = await this.loadAuth(lib);
    }
    this.auth = auth;
    return auth;
  }

  private async loadAuth(lib: BaileysLibrary): Promise<LoadedAuth> {
    const auth = await loadAuthState<AuthenticationCreds>({
      instanceId: this.identity.instanceId,
      store: this.deps.auth,
      fence: this.identity.fence,
      onFencedOut: () => {
        this.log.warn('a credential or key write was refused: this worker no longer holds the lease, closing');
        this.hooks.fencedOut?.();
      },
      initCredentials: () => lib.initAuthCreds(),
      revive: (type, value) => (type === 'app-state-sync-key' ? lib.proto.Message.AppStateSyncKeyData.fromObject(value as object) : value),
    });
    const keys = lib.makeCacheableSignalKeyStore(auth.state.keys as unknown as SignalKeyStore, this.log, this.keyCache);
    return { ...auth, keys };
  }

  /**
   * For retry receipts: the message as sent, or undefined when it is not kept (Baileys then cannot resend it). Any kept
   * message is served, however old: a recipient asks when it meets the copy it cannot decrypt, which for a phone that was
   * offline is when it comes back (the server keeps undelivered messages up to 30 days), and one left without an answer
   * stays on "Waiting for this message". A phone answers from its own message store; whatsmeow leaves it to its
   * `GetMessageForRetry` callback with no age limit of its own. The bound is the kept copies themselves
   * (`NETWORK_RETENTION_HOURS`, 72 h by default), and the retry counter: at most `RETRY_REQUESTS` answers per message
   * and device.
   */
  private async storedMessage(lib: BaileysLibrary, key: WAMessageKey): Promise<proto.IMessage | undefined> {
    if (!key.id) return undefined;
    try {
      const instanceId = this.identity.instanceId;
      const id = key.id;
      // The receipt may name the chat by its other identity (LID or phone number) than the one it was stored under.
      const find = async () =>
        (key.remoteJid ? await this.deps.messages.find(instanceId, id, key.remoteJid) : null) ??
        (await this.deps.messages.find(instanceId, id));
      let record = await find();
      // A send of ours is kept when Baileys' echo of it has been through inbound mapping, and a recipient may ask
      // before that. Baileys' own cache of recent sends does not help when the receipt names the chat by the other
      // identity (it is keyed by the JID sent to): the request waits a moment for the echo (Baileys buffers events).
      for (let waited = 0; !record && this.sent.has(id) && waited < ECHO_WAIT.totalMs; waited += ECHO_WAIT.stepMs) {
        await Promise.all([this.inboundQueue, delay(ECHO_WAIT.stepMs)]);
        record = await find();
      }
      const message = record ? bufferJson.parse<WAMessage>(record.data).message : undefined;
      if (!record || !message) return undefined;
      return lib.proto.Message.fromObject(message);
    } catch (error) {
      this.log.error({ err: error, id: key.id }, 'stored message not read');
      return undefined;
    }
  }

  private async groupMetadata(jid: string): Promise<GroupMetadata | undefined> {
    const cached = this.groups.get(jid);
    if (cached) return cached;
    const socket = this.socket;
    if (!socket) return undefined;
    try {
      const metadata = await socket.groupMetadata(jid);
      this.groups.set(metadata);
      await this.learnMemberPairs(this.lib, socket, metadata);
      return metadata;
    } catch (error) {
      // Baileys asks the network itself next, and a send fails with the network's own error.
      this.log.warn({ err: error, jid }, 'group metadata not fetched');
      return undefined;
    }
  }

  /**
   * A LID-addressed group's metadata names each member by LID with the phone number alongside, and rc14 stores none of
   * these pairs (`extractGroupMetadata`: "TODO: Store LID MAPPINGS"). Without them a later group change (a `w:gp2`
   * notification: rc14 keeps only its LID `participant`, the proto key drops `participant_pn`) names its author by LID
   * alone. Stored in Baileys' own mapping store, every later event of these members is named by phone number.
   */
  private async learnMemberPairs(lib: BaileysLibrary | undefined, socket: BaileysSocket, metadata: GroupMetadata): Promise<void> {
    if (!lib) return;
    const pairs = metadata.participants.flatMap(({ id, lid, phoneNumber }) => {
      const pair = { lid: lib.isLidUser(id) ? id : lid, pn: lib.isPnUser(id) ? id : phoneNumber };
      return pair.lid && pair.pn ? [{ lid: pair.lid, pn: pair.pn }] : [];
    });
    if (pairs.length === 0) return;
    try {
      await socket.signalRepository.lidMapping.storeLIDPNMappings(pairs);
    } catch (error) {
      this.log.warn({ err: error, jid: metadata.id }, "group members' LID pairs not stored");
    }
  }

  /** Never throws: Baileys calls this from an event emitter, where a rejection would go unhandled. */
  private onEvents(socket: BaileysSocket, auth: LoadedAuth, events: Partial<BaileysEventMap>): void {
    try {
      // Whichever socket reports it, even one being ended: rc14 writes keys first and reports the credentials that
      // go with them afterwards (pre-key ids, routing info, `me.lid`), and Baileys has already applied the update
      // to these credentials in place. Only credentials of a device that was forgotten are not saved again.
      if (events['creds.update'] && auth === this.auth) {
        auth.saveCreds().catch((error: unknown) => this.log.error({ err: error }, 'credentials not saved'));
      }
      if (socket !== this.socket) return;
      this.groups.apply(events);
      const { 'connection.update': update, 'creds.update': _credentials, ...happenings } = events;
      const closing = update?.connection === 'close';
      if (update && !closing) this.onConnectionUpdate(socket, update);
      if (Object.keys(happenings).length > 0) {
        const context = this.contextOf(socket, auth);
        if (context) void this.forward(context, happenings);
        else this.log.warn({ events: Object.keys(happenings) }, 'events before the account was known were dropped');
      }
      if (update && closing) this.onConnectionUpdate(socket, update);
    } catch (error) {
      this.log.error({ err: error }, 'socket events not handled');
    }
  }

  /** Batches reach inbound mapping one after the other, in the order the socket emitted them. */
  private forward(context: BaileysContext, events: Partial<BaileysEventMap>): Promise<void> {
    this.inboundQueue = this.inboundQueue
      .then(async () => {
        // The phone pushes its recent history whatever the setting (Baileys needs its LID mappings, and we keep its
        // messages and contacts): only an instance whose effective `historySync` is on is told of it, as on the sandbox.
        const reportsHistory = !events['messaging-history.set'] || (await this.hooks.historySyncEnabled());
        const sink: InboundSink = {
          event: (event) => {
            if (!this.stopped && (reportsHistory || event.eventType !== 'message_history_sync')) this.hooks.event(event);
          },
          learned: (facts) => {
            if (!this.stopped) this.hooks.learned(facts);
          },
        };
        await this.deps.inbound.process(context, events, sink);
      })
      .catch((error: unknown) => this.log.error({ err: error, events: Object.keys(events) }, 'inbound events not processed'));
    return this.inboundQueue;
  }

  private onConnectionUpdate(socket: BaileysSocket, update: Partial<ConnectionState>): void {
    if (update.isNewLogin) this.newLogin = true;
    if ('qr' in update) {
      this.qr = update.qr;
      if (update.qr) this.hooks.qr(update.qr);
    }
    if (update.connection === 'open') this.onOpen();
    else if (update.connection === 'close') this.onClose(update.lastDisconnect?.error);
    if (update.receivedPendingNotifications && this.awaitingFirstSync) void this.firstSyncDone();
    this.changes.notify();
  }

  /** As on the sandbox: an instance that wants history learns that `flush-history` now has something to deliver. */
  private async firstSyncDone(): Promise<void> {
    this.awaitingFirstSync = false;
    if (await this.hooks.historySyncEnabled()) this.hooks.event(normalise.initialSyncFinished());
  }

  private onOpen(): void {
    const deviceId = this.auth?.state.creds.me?.id;
    if (!deviceId) throw new Error('the link opened without a device id');
    this.phase = 'open';
    this.qr = undefined;
    this.restarts.length = 0;
    const isNewLogin = this.newLogin;
    this.newLogin = false;
    this.awaitingFirstSync = isNewLogin;
    this.hooks.opened({ deviceId, isNewLogin });
  }

  private onClose(error: Error | undefined): void {
    // A socket whose link never opened, on a route whose proxy refused a tunnel: the proxy is why, whatever Baileys says.
    const proxyFailure = this.phase === 'open' ? undefined : this.route?.takeFailure();
    this.socket = undefined;
    this.acks.socketClosed();
    this.phase = 'closed';
    this.qr = undefined;
    const code = statusCodeOf(error);
    const now = this.now();
    const recent = (times: number[], windowMs: number) => times.filter((time) => now - time < windowMs).length;
    if (proxyFailure) {
      this.log.warn({ reason: proxyFailure.reason, error: proxyFailure.message }, 'connection closed: the proxy failed');
      void this.report({ action: 'report', reason: proxyFailure.reason, detail: proxyFailure.message });
      return;
    }
    const decision = decideOnClose({
      code,
      message: error?.message ?? 'connection closed',
      paired: this.auth ? linked(this.auth.state.creds) : false,
      holdsLease: this.hooks.holdsLease(),
      recentRestarts: recent(this.restarts, QUICK_RESTARTS.windowMs),
      recentReplacements: recent(this.replacements, REPLACEMENTS.windowMs),
    });
    if (code === DISCONNECT.connectionReplaced) this.replacements.push(now);
    this.log.warn(
      { code, error: error?.message, outcome: decision.action === 'restart' ? 'restart' : decision.reason },
      'connection closed',
    );
    if (decision.action === 'restart') {
      this.restarts.push(now);
      void this.restart();
    } else {
      void this.report(decision);
    }
  }

  /** The network asked for a new connection (after pairing, mostly): a new socket with the same credentials, now. */
  private async restart(): Promise<void> {
    try {
      await this.openSocket();
    } catch (error) {
      if (!this.stopped) this.hooks.closed('network', `restart failed: ${(error as Error).message}`);
    }
  }

  private async report(decision: Extract<CloseDecision, { action: 'report' }>): Promise<void> {
    const deviceId = this.auth?.state.creds.me?.id;
    try {
      if (decision.forgetCredentials) await this.forget();
      if (decision.refreshVersion && this.lib) await this.deps.version.refresh(this.lib, this.log);
    } catch (error) {
      this.log.error({ err: error }, 'cleanup after the close failed');
    }
    if (!this.stopped) this.hooks.closed(decision.reason, decision.detail, deviceId);
  }

  /** The device is gone: its credentials, keys and kept messages can never be used again. */
  private async forget(): Promise<void> {
    const instanceId = this.identity.instanceId;
    // Unset first: credential updates still arriving belong to a device that no longer exists and are not saved.
    const auth = this.auth;
    this.auth = undefined;
    this.keyCache.flushAll();
    this.retryCounts.flushAll();
    this.undecryptable.clear();
    this.groups.clear();
    await (auth ? auth.clear() : this.deps.auth.clear(instanceId));
    await this.deps.messages.forgetAll(instanceId);
  }

  private stop(): void {
    this.stopped = true;
    this.generation += 1;
  }

  /** Lets the current socket go: events it still emits are ignored from now on. */
  private detach(): BaileysSocket | undefined {
    const socket = this.socket;
    this.socket = undefined;
    this.phase = 'closed';
    this.qr = undefined;
    this.acks.socketClosed();
    this.changes.notify();
    return socket;
  }

  private contextOf(socket: BaileysSocket, auth: LoadedAuth): BaileysContext | undefined {
    const me = auth.state.creds.me;
    if (!me?.id || !this.lib) return undefined;
    return {
      instanceId: this.identity.instanceId,
      socket,
      lib: this.lib,
      selfJid: userJid(me.id),
      ...(me.lid ? { selfLid: userJid(me.lid) } : {}),
      messages: this.deps.messages,
      sent: this.sent,
      acks: this.acks,
      calls: this.calls,
      undecryptable: this.undecryptable,
      groupActors: this.groupActors,
      ...(this.route?.dispatcher ? { mediaDispatcher: this.route.dispatcher } : {}),
    };
  }

  private openContext(): BaileysContext {
    const context = this.phase === 'open' && this.socket && this.auth ? this.contextOf(this.socket, this.auth) : undefined;
    if (!context) throw new AppError('instance_unavailable');
    return context;
  }
}
