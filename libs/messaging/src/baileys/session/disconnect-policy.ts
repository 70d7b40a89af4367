import type { CloseReason } from '../../driver';

/** Disconnect codes as Baileys' `DisconnectReason` numbers them (checked against the library in the unit tests). */
export const DISCONNECT = {
  loggedOut: 401,
  forbidden: 403,
  /** Not in Baileys' enum: the network refuses the client's WhatsApp Web version. */
  versionRefused: 405,
  connectionLost: 408,
  multideviceMismatch: 411,
  connectionClosed: 428,
  connectionReplaced: 440,
  badSession: 500,
  unavailableService: 503,
  restartRequired: 515,
} as const;

/** Baileys' own words when nobody scanned any of the QR codes on offer. */
const QR_ATTEMPTS_ENDED = 'QR refs attempts ended';

/** A restart the network asks for is made at once, but not more often than this within the window (no tight loop). */
export const QUICK_RESTARTS = { max: 3, windowMs: 60_000 };
/** A link taken over while this worker holds the lease is retried, but not more often than this within the window. */
export const REPLACEMENTS = { max: 3, windowMs: 10 * 60_000 };

export interface CloseFacts {
  /** `lastDisconnect.error.output.statusCode`; undefined for an error that is not a Boom. */
  code: number | undefined;
  message: string;
  /** The credentials belong to a device the network linked (not a pairing in progress). */
  paired: boolean;
  holdsLease: boolean;
  /** Quick restarts already made within QUICK_RESTARTS.windowMs. */
  recentRestarts: number;
  /** Takeovers already seen within REPLACEMENTS.windowMs, this one not counted. */
  recentReplacements: number;
}

export type CloseDecision =
  | { action: 'restart' }
  | {
      action: 'report';
      reason: CloseReason;
      detail: string;
      /** The device is gone: delete its credentials, keys and kept messages before reporting. */
      forgetCredentials?: true;
      /** Fetch the current WhatsApp Web version for the next attempts. */
      refreshVersion?: true;
    };

/** What to do when a socket closes, by its disconnect code (the reconnect table). */
export function decideOnClose(facts: CloseFacts): CloseDecision {
  const { code, message, paired } = facts;
  const described = `${message} (${code ?? 'no code'})`;
  switch (code) {
    case DISCONNECT.restartRequired:
      if (facts.recentRestarts < QUICK_RESTARTS.max) return { action: 'restart' };
      return { action: 'report', reason: 'network', detail: `restart requested repeatedly: ${described}` };
    case DISCONNECT.loggedOut:
      return paired
        ? { action: 'report', reason: 'logged_out', detail: 'user_logged_out', forgetCredentials: true }
        : {
            action: 'report',
            reason: 'pairing_failed',
            detail: `the network refused the new device: ${described}`,
            forgetCredentials: true,
          };
    case DISCONNECT.forbidden:
    case DISCONNECT.multideviceMismatch: {
      const detail =
        code === DISCONNECT.forbidden
          ? `the network refused the account (banned or restricted): ${described}`
          : `multi-device mismatch, pair the device again: ${described}`;
      return { action: 'report', reason: paired ? 'refused' : 'pairing_failed', detail };
    }
    case DISCONNECT.connectionReplaced:
      if (facts.holdsLease && facts.recentReplacements < REPLACEMENTS.max)
        return { action: 'report', reason: 'network', detail: `taken over while this worker holds the instance: ${described}` };
      return { action: 'report', reason: 'replaced', detail: 'connection replaced' };
    case DISCONNECT.versionRefused:
      return {
        action: 'report',
        reason: 'outdated',
        detail: `the network refused this client version: ${described}`,
        refreshVersion: true,
      };
    case DISCONNECT.connectionLost:
      if (!paired && message === QR_ATTEMPTS_ENDED)
        return { action: 'report', reason: 'pairing_timeout', detail: 'no QR code was scanned in time' };
      return { action: 'report', reason: 'network', detail: described };
    default:
      // 428, 500, 503 and whatever else the network or the WebSocket reports: transient until proven otherwise.
      return { action: 'report', reason: 'network', detail: described };
  }
}
