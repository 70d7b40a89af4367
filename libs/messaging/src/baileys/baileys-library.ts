import type * as Baileys from '@whiskeysockets/baileys';

/**
 * The Baileys package at run time. It is ESM-only: Node 20 loads it with `require`, Jest's module loader cannot, so
 * everything that needs its functions receives this object (a fake in unit tests) instead of importing it.
 */
export type BaileysLibrary = typeof Baileys;
export type BaileysSocket = Baileys.WASocket;
export type BaileysEvents = Baileys.BaileysEventMap;
export type WAMessage = Baileys.WAMessage;
export type WAMessageKey = Baileys.WAMessageKey;
export type WAProto = typeof Baileys.proto;

let library: Promise<BaileysLibrary> | undefined;

/** Loads the package once per process. */
export function loadBaileys(): Promise<BaileysLibrary> {
  library ??= import('@whiskeysockets/baileys');
  return library;
}
