import type { SocketConfig } from '@whiskeysockets/baileys';
import type { Dispatcher } from 'undici';
import type { BaileysLibrary } from '../baileys-library';

export type BaileysLibraryLoader = () => Promise<BaileysLibrary>;

/** Baileys' logger interface, which a pino logger satisfies. */
export type BaileysLogger = SocketConfig['logger'];

export interface BaileysSettings {
  /** Where sockets connect (`BAILEYS_WS_URL`): WhatsApp Web, or in tests an address that never answers. */
  webSocketUrl: string;
  /** How long a pair-code request waits for the first QR code: only then does the network accept the request. */
  firstQrWaitMs: number;
  /** How long a logout waits for a link that is still opening, so that the phone unlinks the device too. */
  openWaitMs: number;
  /** What Baileys fetches media and history blobs with; undefined for Node's default (only the fake-network seam sets it). */
  mediaDispatcher?: Dispatcher;
  /** The same for an instance behind a proxy: wraps the proxy's dispatcher (only the fake-network seam sets it). */
  routeMedia?: (through: Dispatcher) => Dispatcher;
  /** How long after its last failed copy an undecryptable message is final (`UNDECRYPTABLE_AFTER_SECONDS`). */
  undecryptableAfterMs: number;
}

/** Both waits stay under the API's 10 s command deadline, which also covers loading the credentials and connecting. */
export const DEFAULT_BAILEYS_WAITS = { firstQrWaitMs: 7_000, openWaitMs: 5_000 } as const;
