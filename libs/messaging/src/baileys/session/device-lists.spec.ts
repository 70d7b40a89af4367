import { EventEmitter } from 'node:events';
import type { BaileysLibrary, BaileysSocket } from '../baileys-library';
import { isLidUser, isPnUser, jidDecode, jidNormalizedUser, lidMappingStore } from '../testing/rc14';
import { DeviceLists } from './device-lists';

const lib = { isLidUser, isPnUser, jidDecode, jidNormalizedUser } as unknown as BaileysLibrary;
const ANN = { pn: '447700900123@s.whatsapp.net', lid: '123456789012345@lid' };
const devices = (user: string, ...ids: number[]) => ids.map((device) => ({ user, device }));

function harness(pairs = [ANN]) {
  const ws = new EventEmitter();
  // Baileys keeps a pair as `<pn user> → <lid user>` among the auth keys (and the reverse), which its store reads.
  const stored = Object.fromEntries(pairs.map(({ lid, pn }) => [jidDecode(pn)?.user, jidDecode(lid)?.user]));
  const keys = {
    get: (_type: string, ids: string[]) =>
      Promise.resolve(Object.fromEntries(ids.filter((id) => stored[id]).map((id) => [id, stored[id]]))),
  };
  const socket = { ws, authState: { keys }, signalRepository: { lidMapping: lidMappingStore(pairs) } } as unknown as BaileysSocket;
  const warnings: object[] = [];
  const lists = new DeviceLists(() => 0);
  lists.watch(lib, socket, { warn: (fields) => warnings.push(fields) });
  lists.cache.set('447700900123', devices('447700900123', 0, 1));
  lists.cache.set('123456789012345', devices('123456789012345', 0, 1));
  return { ws, socket, lists, warnings };
}

const settle = () => new Promise((resolve) => setImmediate(resolve));

describe('DeviceLists', () => {
  it("a devices notification from a LID drops the list kept under the person's phone number (Baileys updates the LID's)", async () => {
    const h = harness();
    h.ws.emit('CB:notification,type:devices', { tag: 'notification', attrs: { from: ANN.lid, type: 'devices' } });
    await settle();
    expect(h.lists.cache.get('447700900123')).toBeUndefined();
    expect(h.lists.cache.get('123456789012345')).toEqual(devices('123456789012345', 0, 1));
  });

  it("one from a phone number drops the list kept under the person's LID", async () => {
    const h = harness();
    await h.lists.changed(lib, h.socket, ANN.pn, { warn: () => undefined });
    expect(h.lists.cache.get('123456789012345')).toBeUndefined();
    expect(h.lists.cache.get('447700900123')).toEqual(devices('447700900123', 0, 1));
  });

  it('drops nothing for a person whose other identity is not known, and nothing for a notification without a sender', async () => {
    const h = harness([]);
    await h.lists.changed(lib, h.socket, ANN.lid, { warn: () => undefined });
    await h.lists.changed(lib, h.socket, undefined, { warn: () => undefined });
    expect([h.lists.cache.get('447700900123'), h.lists.cache.get('123456789012345')]).toEqual([
      devices('447700900123', 0, 1),
      devices('123456789012345', 0, 1),
    ]);
  });

  it('a failing mapping lookup is logged, never thrown', async () => {
    const h = harness();
    const failing = {
      signalRepository: { lidMapping: { getPNForLID: () => Promise.reject(new Error('store down')) } },
    } as unknown as BaileysSocket;
    const warnings: object[] = [];
    await h.lists.changed(lib, failing, ANN.lid, { warn: (fields) => warnings.push(fields) });
    expect(warnings).toEqual([{ err: new Error('store down'), jid: ANN.lid }]);
    expect(h.lists.cache.get('447700900123')).toEqual(devices('447700900123', 0, 1));
  });
});
