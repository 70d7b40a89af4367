import type { NormalisedEvent, OperationArgs, OperationName, OperationResult, OutboundMessage, StoreFacts } from '@app/contracts';
import type { Fence } from '@app/database';

/** Why a link went down; decides what the session manager does next. */
export type CloseReason =
  | 'network' // transient: reconnect with backoff
  | 'logged_out' // unlinked (from the phone or by us): credentials gone, instance unpaired
  | 'pairing_timeout' // nobody scanned the QR in time
  | 'pairing_failed' // the phone tried to pair and the network refused it
  | 'replaced' // another connection took over this identity
  | 'refused' // the network refuses this device (account banned or restricted, multi-device mismatch): no reconnect
  | 'outdated' // the network refused this client's version: reconnect, but only after a long backoff
  | 'proxy_unreachable' // the instance's proxy did not answer (or refused the TCP connection): reconnect after a long backoff
  | 'proxy_auth_failed' // the proxy refused the credentials: as above, the operator's move
  | 'proxy_refused' // the proxy would not open the tunnel to the network: as above
  | 'stopped'; // we closed it ourselves

export interface SessionIdentity {
  instanceId: string;
  customerId: string;
  /** The worker's shard lease for the instance: the session's credential and key writes are fenced with it. */
  fence?: Fence;
}

/** What a driver reports back; the worker turns these into status changes and gateway events. */
export interface SessionHooks {
  qr(code: string): void;
  opened(info: { deviceId: string; isNewLogin: boolean }): void;
  /**
   * The link closed. `detail`: for `logged_out` the reason code of the `logged_out` event (`user_logged_out`,
   * `api_logout`, ...); for `pairing_failed`, `replaced` and `refused` the error of `login_error`, with the device
   * concerned; otherwise what happened, for the logs.
   */
  closed(reason: CloseReason, detail?: string, deviceId?: string): void;
  /** A network happening, built with `normalise` so every driver's events have the same payloads. */
  event(event: NormalisedEvent): void;
  /** Facts about people and chats that are not events themselves; kept in the store, in order with the events. */
  learned(facts: StoreFacts): void;
  /** Whether the instance wants the network's chat history now (its effective `historySync` setting). */
  historySyncEnabled(): Promise<boolean>;
  /**
   * The outbound proxy URL the instance's effective settings name (or the deployment's `OUTBOUND_PROXY_URL`), asked
   * before every connection; undefined (or no hook) for direct.
   */
  networkProxy?(): Promise<string | undefined>;
  /** Whether this worker still holds the lease on the instance; a link taken over by another connection is retried only then. */
  holdsLease(): boolean;
  /** PostgreSQL refused one of the session's fenced writes: the lease has passed to another worker. */
  fencedOut?(): void;
}

/** One instance's connection to the network. Outcomes arrive through the hooks, not the return values. */
export interface NetworkSession {
  /** Starts connecting: with stored credentials the link opens; without, pairing starts and QR codes follow. */
  connect(): Promise<void>;
  /** Closes the link and keeps the credentials (shard handover, shutdown, restart). */
  close(): Promise<void>;
  /** Unlinks the device from the account and forgets the credentials. */
  logout(): Promise<void>;
  /** The QR code currently on offer while pairing, if any. */
  currentQr(): string | undefined;
  /** Pairing by phone number instead of QR: returns the 8-character code to type on the phone. */
  requestPairCode(phone: string): Promise<string>;
  /**
   * Hands one message or message operation to the network. Resolves once the network took it (or, `unconfirmed`, once
   * its stanza was written and no acknowledgement came); throws PermanentSendError when it never will, anything else
   * when it may later (the row stays pending).
   */
  send(message: OutboundMessage): Promise<SentMessage>;
  /**
   * Carries out a network operation (chat settings, groups, contacts, profile, ...) and answers with the network's
   * result. Throws AppError for what the API reports as such (`forbidden: ...`, `not found`, validation); the
   * events the operation causes arrive through the hooks before it resolves.
   */
  perform<N extends OperationName>(name: N, args: OperationArgs<N>): Promise<OperationResult<N>>;
  /** Emits the chat history the network holds as `message_history_sync` events (the caller checked `historySync`). */
  flushHistory(): Promise<void>;
}

/** What the network reports back for a send. */
export interface SentMessage {
  /** The network's own `message` event for a new message (`sender.isMe`); absent for operations on other messages. */
  ownMessage?: Extract<NormalisedEvent, { eventType: 'message' }>;
  /**
   * Set when the stanza was written but the network's server never acknowledged it; says why. The send is recorded
   * `unconfirmed` (not `sent`) and never sent again; a later ack or the recipient's receipt settles it.
   */
  unconfirmed?: string;
}

export interface NetworkDriver {
  readonly kind: 'sandbox' | 'baileys';
  createSession(identity: SessionIdentity, hooks: SessionHooks): NetworkSession;
}
