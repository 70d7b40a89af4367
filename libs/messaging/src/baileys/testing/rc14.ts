/*
 * Parts of the installed Baileys 7.0.0-rc14 itself, for specs that must see the values rc14 really produces.
 *
 * The package is ESM-only and its entry point reaches a WASM bridge, so Jest cannot load `@whiskeysockets/baileys`.
 * jest.config.js compiles the package's own files to CommonJS (as it does for request-filtering-agent), which lets
 * specs import the few modules whose imports stay small: the protobuf classes (`WAProto/index.js`), the JID helpers
 * (`lib/WABinary/jid-utils.js`) and the LID mapping store (`lib/Signal/lid-mapping.js`). The first import of
 * `WAProto` compiles 4 MB once (a few seconds; Jest caches it).
 */
import { proto } from '@whiskeysockets/baileys/WAProto/index.js';
import {
  areJidsSameUser,
  isJidGroup,
  isLidUser,
  isPnUser,
  jidDecode,
  jidNormalizedUser,
} from '@whiskeysockets/baileys/lib/WABinary/jid-utils.js';
import { LIDMappingStore } from '@whiskeysockets/baileys/lib/Signal/lid-mapping.js';
import type { BaileysSocket } from '../baileys-library';

export { proto, areJidsSameUser, isJidGroup, isLidUser, isPnUser, jidDecode, jidNormalizedUser, LIDMappingStore };

const quiet = { level: 'silent', child: () => quiet, trace: () => {}, debug: () => {}, info: () => {}, warn: () => {}, error: () => {} };

/**
 * rc14's LID mapping store over an in-memory key store that already holds the given pairs, as Baileys stores them
 * (`<pn user> → <lid user>` and `<lid user>_reverse → <pn user>`). It answers exactly as on a real socket: `getPNForLID`
 * gives `<digits>:0@s.whatsapp.net`. A phone number it does not know goes to `usync` (none by default: no answer).
 */
export function lidMappingStore(
  pairs: { lid: string; pn: string }[] = [],
  usync?: (jids: string[]) => Promise<{ lid: string; pn: string }[] | undefined>,
): LIDMappingStore {
  const rows = new Map<string, string>();
  for (const { lid, pn } of pairs) {
    const lidUser = jidDecode(lid)?.user as string;
    const pnUser = jidDecode(pn)?.user as string;
    rows.set(pnUser, lidUser);
    rows.set(`${lidUser}_reverse`, pnUser);
  }
  const keys = {
    get: (_type: string, ids: string[]) =>
      Promise.resolve(Object.fromEntries(ids.filter((id) => rows.has(id)).map((id) => [id, rows.get(id)]))),
    set: (data: { 'lid-mapping'?: Record<string, string | null> }) => {
      for (const [id, value] of Object.entries(data['lid-mapping'] ?? {})) {
        if (value) rows.set(id, value);
        else rows.delete(id);
      }
      return Promise.resolve();
    },
    isInTransaction: () => false,
    transaction: <T>(work: () => Promise<T>) => work(),
  };
  return new LIDMappingStore(keys as never, quiet, usync);
}

/** A socket's `signalRepository` whose LID mapping is rc14's own store. */
export function signalRepositoryWith(pairs: { lid: string; pn: string }[]): Pick<BaileysSocket, 'signalRepository'> {
  return { signalRepository: { lidMapping: lidMappingStore(pairs) } } as unknown as Pick<BaileysSocket, 'signalRepository'>;
}

/**
 * A WAMessage as rc14 hands it over: the content decoded into a protobuf object. Kept with `bufferJson` (the message
 * store's form), its bytes (`mediaKey`, `fileSha256`, ...) become base64 strings, because the object's own `toJSON`
 * runs before any replacer sees a Buffer.
 */
export function asReceived<T extends { message?: object | null }>(message: T): T {
  return { ...message, message: proto.Message.fromObject(message.message ?? {}) };
}
