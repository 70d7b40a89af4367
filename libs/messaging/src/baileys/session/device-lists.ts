import type { BinaryNode } from '@whiskeysockets/baileys';
import type { BaileysLibrary, BaileysSocket } from '../baileys-library';
import { ExpiringCache } from './expiring-cache';

/** rc14 `DEFAULT_CACHE_TTLS.USER_DEVICES`: how long Baileys believes a device list it fetched. */
const TTL_MS = 5 * 60_000;
const MAX_USERS = 10_000;

interface Logger {
  warn(object: object, message: string): void;
}

/**
 * Baileys' cache of each person's devices (`userDevicesCache`), keyed by user: the digits of a phone number or of a LID.
 * rc14 applies a `devices` notification (a companion linked or unlinked) only to the list kept under the identity the
 * notification names (`messages-recv.js` handleDevicesNotification). A network that names people by LID announces
 * device changes from the LID, while a send to a phone number reads the list kept under the number: for up to five
 * minutes that list lacks a companion linked since (it never gets our messages) or keeps one unlinked. So a devices
 * notification also drops the list kept under the person's other identity, and the next send there asks the network.
 */
export class DeviceLists {
  readonly cache: ExpiringCache;

  constructor(now: () => number = Date.now) {
    this.cache = new ExpiringCache(TTL_MS, MAX_USERS, now);
  }

  /** Follows the socket's `devices` notifications (Baileys handles them itself as well). */
  watch(lib: BaileysLibrary, socket: BaileysSocket, log: Logger): void {
    const ws = (socket as Partial<BaileysSocket>).ws;
    ws?.on?.('CB:notification,type:devices', (node: BinaryNode) => void this.changed(lib, socket, node.attrs.from, log));
  }

  /** Drops the list kept under the other identity of the person whose devices changed. */
  async changed(lib: BaileysLibrary, socket: BaileysSocket, from: string | undefined, log: Logger): Promise<void> {
    const user = from ? lib.jidNormalizedUser(from) : '';
    if (!user) return;
    try {
      const otherUser = lib.isLidUser(user)
        ? await phoneUserOf(lib, socket, user)
        : lib.isPnUser(user)
          ? await lidUserOf(lib, socket, user)
          : undefined;
      if (otherUser) this.cache.del(otherUser);
    } catch (error) {
      log.warn({ err: error, jid: user }, 'device list of the other identity not dropped');
    }
  }
}

/** The phone-number user behind a LID, from Baileys' mapping store (which never asks the network for LID → PN). */
async function phoneUserOf(lib: BaileysLibrary, socket: BaileysSocket, lid: string): Promise<string | undefined> {
  const pn = await socket.signalRepository.lidMapping.getPNForLID(lid);
  return pn ? lib.jidDecode(pn)?.user : undefined;
}

/**
 * The LID user Baileys stored for a phone number (`lid-mapping` key), read locally: its own PN → LID lookup would ask
 * the network about a number it does not know, and a notification handler must not.
 */
async function lidUserOf(lib: BaileysLibrary, socket: BaileysSocket, pn: string): Promise<string | undefined> {
  const pnUser = lib.jidDecode(pn)?.user;
  if (!pnUser) return undefined;
  const { [pnUser]: lidUser } = await socket.authState.keys.get('lid-mapping', [pnUser]);
  return typeof lidUser === 'string' && lidUser ? lidUser : undefined;
}
