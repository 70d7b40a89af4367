import { FencedOutError, type Fence, type NetworkKeyWrite } from '@app/database';
import { loadAuthState } from './auth-state';
import { bufferJson } from './buffer-json';
import { MemoryAuthStore } from './testing/memory-auth-store';

/** The in-memory store, also recording every key batch and credentials save; its first save is slow. */
class MemoryStore extends MemoryAuthStore {
  readonly writes: NetworkKeyWrite[][] = [];
  readonly credentialSaves: string[] = [];

  override async saveCredentials(instanceId: string, json: string): Promise<void> {
    // The first save is slow: a later save must still land after it.
    if (this.credentialSaves.length === 0) await new Promise((resolve) => setTimeout(resolve, 20));
    this.credentialSaves.push(json);
    await super.saveCredentials(instanceId, json);
  }

  override writeKeys(instanceId: string, writes: NetworkKeyWrite[]): Promise<void> {
    this.writes.push(writes);
    return super.writeKeys(instanceId, writes);
  }
}

const fresh = () => ({
  noiseKey: { private: Buffer.from([1, 2, 3]), public: Buffer.from([4, 5]) },
  registered: false,
  me: undefined as unknown,
});

describe('bufferJson', () => {
  it('round-trips Buffers and Uint8Arrays in the form Baileys stores them', () => {
    const value = { a: Buffer.from('hello'), b: new Uint8Array([0, 255]), nested: [{ c: Buffer.alloc(0) }], n: 1, s: 'x' };
    const text = bufferJson.stringify(value);
    expect(JSON.parse(text)).toEqual({
      a: { type: 'Buffer', data: 'aGVsbG8=' },
      b: { type: 'Buffer', data: 'AP8=' },
      nested: [{ c: { type: 'Buffer', data: '' } }],
      n: 1,
      s: 'x',
    });
    expect(bufferJson.parse(text)).toEqual({ ...value, b: Buffer.from([0, 255]) });
  });
});

describe('loadAuthState', () => {
  it('starts from fresh credentials, then saves and reloads them whole', async () => {
    const store = new MemoryStore();
    const first = await loadAuthState({ instanceId: 'ins_1', store, initCredentials: fresh });
    expect(first.state.creds).toEqual(fresh());
    Object.assign(first.state.creds, { registered: true, me: { id: '447700900123:4@s.whatsapp.net' } });
    await first.saveCreds();
    const second = await loadAuthState({ instanceId: 'ins_1', store, initCredentials: fresh });
    expect(second.state.creds).toEqual({ ...fresh(), registered: true, me: { id: '447700900123:4@s.whatsapp.net' } });
  });

  it('saves credentials in order even when an earlier save is slower', async () => {
    const store = new MemoryStore();
    const auth = await loadAuthState({ instanceId: 'ins_1', store, initCredentials: fresh });
    const first = auth.saveCreds();
    Object.assign(auth.state.creds, { registered: true });
    const second = auth.saveCreds();
    await Promise.all([first, second]);
    expect(store.credentialSaves.map((json) => (JSON.parse(json) as { registered: boolean }).registered)).toEqual([false, true]);
    expect((JSON.parse(store.creds ?? '{}') as { registered: boolean }).registered).toBe(true);
  });

  it('writes one set call as one batch, deletes nulls, and answers only the keys it has', async () => {
    const store = new MemoryStore();
    const { state } = await loadAuthState({ instanceId: 'ins_1', store, initCredentials: fresh });
    await state.keys.set({ session: { a: Buffer.from('A'), b: Buffer.from('B') }, 'pre-key': { '1': { public: Buffer.from([9]) } } });
    await state.keys.set({ session: { a: null }, 'pre-key': undefined });
    expect(
      store.writes.map((batch) => batch.map((write) => `${write.type}/${write.id}:${write.value === null ? 'delete' : 'put'}`)),
    ).toEqual([['session/a:put', 'session/b:put', 'pre-key/1:put'], ['session/a:delete']]);
    expect(await state.keys.get('session', ['a', 'b', 'c'])).toEqual({ b: Buffer.from('B') });
    expect(await state.keys.get('pre-key', ['1'])).toEqual({ '1': { public: Buffer.from([9]) } });
  });

  it('revives stored values by type (app-state sync keys become protobuf objects)', async () => {
    const store = new MemoryStore();
    const revive = (type: string, value: unknown) => (type === 'app-state-sync-key' ? { revived: value } : value);
    const { state } = await loadAuthState({ instanceId: 'ins_1', store, initCredentials: fresh, revive });
    await state.keys.set({ 'app-state-sync-key': { k: { keyData: Buffer.from([1]) } }, session: { s: Buffer.from([2]) } });
    expect(await state.keys.get('app-state-sync-key', ['k'])).toEqual({ k: { revived: { keyData: Buffer.from([1]) } } });
    expect(await state.keys.get('session', ['s'])).toEqual({ s: Buffer.from([2]) });
  });

  it('clears credentials and keys on logout', async () => {
    const store = new MemoryStore();
    const auth = await loadAuthState({ instanceId: 'ins_1', store, initCredentials: fresh });
    await auth.saveCreds();
    await auth.state.keys.set({ session: { a: Buffer.from('A') } });
    await auth.clear();
    expect(store.creds).toBeNull();
    expect(store.rows.size).toBe(0);
  });

  it('clears only after a credential save still in flight, which would otherwise bring them back', async () => {
    const store = new MemoryStore();
    const auth = await loadAuthState({ instanceId: 'ins_1', store, initCredentials: fresh });
    void auth.saveCreds();
    await auth.clear();
    expect(store.credentialSaves).toHaveLength(1);
    expect(store.creds).toBeNull();
  });

  it('flushes: settles once every save asked for so far is written, also after a failed one', async () => {
    const store = new MemoryStore();
    const auth = await loadAuthState({ instanceId: 'ins_1', store, initCredentials: fresh });
    const saveCredentials = store.saveCredentials.bind(store);
    jest.spyOn(store, 'saveCredentials').mockRejectedValueOnce(new Error('connection lost')).mockImplementation(saveCredentials);
    auth.saveCreds().catch(() => undefined);
    Object.assign(auth.state.creds, { nextPreKeyId: 61 });
    void auth.saveCreds();
    await auth.flush();
    expect((JSON.parse(store.creds ?? '{}') as { nextPreKeyId: number }).nextPreKeyId).toBe(61);
  });
});

describe('loadAuthState under a shard lease', () => {
  const fence = { shard: 3, token: 41 };

  /** A store that refuses every write once the lease has passed on, as PostgreSQL does (FencedOutError). */
  class FencedStore extends MemoryAuthStore {
    readonly fences: (Fence | undefined)[] = [];
    passedOn = false;

    override saveCredentials(instanceId: string, json: string, given?: Fence): Promise<void> {
      this.fences.push(given);
      return this.passedOn ? Promise.reject(new FencedOutError(fence)) : super.saveCredentials(instanceId, json);
    }

    override writeKeys(instanceId: string, writes: NetworkKeyWrite[], given?: Fence): Promise<void> {
      this.fences.push(given);
      return this.passedOn ? Promise.reject(new FencedOutError(fence)) : super.writeKeys(instanceId, writes);
    }
  }

  it('passes the fence with every credential and key write, and reports each refused one while rejecting it', async () => {
    const store = new FencedStore();
    const refusals: string[] = [];
    const auth = await loadAuthState({
      instanceId: 'ins_a',
      store,
      initCredentials: fresh,
      fence,
      onFencedOut: () => refusals.push('refused'),
    });
    await auth.saveCreds();
    await auth.state.keys.set({ session: { a: { n: 1 } } });
    expect(refusals).toEqual([]);

    store.passedOn = true;
    await expect(auth.saveCreds()).rejects.toEqual(new FencedOutError(fence));
    await expect(auth.state.keys.set({ session: { a: { n: 2 } } })).rejects.toEqual(new FencedOutError(fence));
    expect(store.fences).toEqual([fence, fence, fence, fence]);
    expect(refusals).toEqual(['refused', 'refused']);
    expect(await auth.state.keys.get('session', ['a'])).toEqual({ a: { n: 1 } });
  });
});
