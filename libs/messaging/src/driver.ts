import type { EventType, OutboundMessage } from '@app/contracts';

/** Why a link went down; decides what the session manager does next. */
export type CloseReason =
  | 'network' // transient: reconnect with backoff
  | 'logged_out' // unlinked (from the phone or by us): credentials gone, instance unpaired
  | 'pairing_timeout' // nobody scanned the QR in time
  | 'replaced' // another connection took over this identity
  | 'stopped'; // we closed it ourselves

export interface SessionIdentity {
  instanceId: string;
  customerId: string;
}

/** What a driver reports back; the worker turns these into status changes and gateway events. */
export interface SessionHooks {
  qr(code: string): void;
  opened(info: { deviceId: string; isNewLogin: boolean }): void;
  closed(reason: CloseReason, detail?: string): void;
  event(eventType: EventType, data: Record<string, unknown>): void;
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
   * Hands one message or message operation to the network. Resolves once the network took it; throws
   * PermanentSendError when it never will, anything else when it may later (the row stays pending).
   */
  send(message: OutboundMessage): Promise<void>;
  /** Re-emits the chat history the network holds, as `message_history_sync` events. */
  flushHistory(): Promise<void>;
}

export interface NetworkDriver {
  readonly kind: 'sandbox' | 'baileys';
  createSession(identity: SessionIdentity, hooks: SessionHooks): NetworkSession;
}
