import { NetworkAuthRepository } from '@app/database';
import { RepositoryDatabase } from './repository-database';

describe('NetworkAuthRepository on PostgreSQL', () => {
  const db = new RepositoryDatabase();
  const auth = new NetworkAuthRepository(db.prisma, db.box);

  afterAll(() => db.close());

  /** The stored keys, decrypted, with whether each is stored encrypted (never as the plain value). */
  async function storedKeys(instanceId: string): Promise<{ type: string; key_id: string; value: string; sealed: boolean }[]> {
    const rows = await db.rows<{ type: string; key_id: string; value: string }>(
      'SELECT type, key_id, value FROM network_keys WHERE instance_id = $1 ORDER BY type, key_id',
      [instanceId],
    );
    return rows.map((row) => {
      const value = db.box.decrypt(row.value);
      return { type: row.type, key_id: row.key_id, value, sealed: row.value !== value && row.value.startsWith('v1.') };
    });
  }

  it('stores credentials encrypted, the last save winning, per instance', async () => {
    const [instance, other] = await db.instances(2);

    await auth.saveCredentials(instance, '{"me":"first"}');
    await auth.saveCredentials(instance, '{"me":"second"}');

    expect(await auth.credentials(instance)).toBe('{"me":"second"}');
    expect(await auth.credentials(other)).toBeNull();
    const [row] = await db.rows<{ data: string }>('SELECT data FROM network_credentials WHERE instance_id = $1', [instance]);
    expect(row.data).toMatch(/^v1\./);
    expect(db.box.decrypt(row.data)).toBe('{"me":"second"}');
  });

  it('upserts and deletes keys in one call, the last write of a key winning, without touching another instance', async () => {
    const [instance, other] = await db.instances(2);
    await auth.writeKeys(other, [{ type: 'session', id: 'a', value: 'other-a' }]);
    await auth.writeKeys(instance, [
      { type: 'session', id: 'a', value: 'a1' },
      { type: 'session', id: 'b', value: 'b1' },
      { type: 'pre-key', id: '1', value: 'p1' },
    ]);

    await auth.writeKeys(instance, [
      { type: 'session', id: 'a', value: 'a2' },
      { type: 'session', id: 'b', value: null },
      { type: 'pre-key', id: '2', value: 'p2' },
      { type: 'session', id: 'a', value: 'a3' },
      { type: 'pre-key', id: '1', value: null },
      { type: 'pre-key', id: '1', value: 'p1-again' },
    ]);

    expect(await storedKeys(instance)).toEqual([
      { type: 'pre-key', key_id: '1', value: 'p1-again', sealed: true },
      { type: 'pre-key', key_id: '2', value: 'p2', sealed: true },
      { type: 'session', key_id: 'a', value: 'a3', sealed: true },
    ]);
    expect(await storedKeys(other)).toEqual([{ type: 'session', key_id: 'a', value: 'other-a', sealed: true }]);
    expect(await auth.keys(instance, 'session', ['a', 'b', 'missing'])).toEqual(new Map([['a', 'a3']]));
    expect(await auth.keys(instance, 'session', [])).toEqual(new Map());
  });

  it('keeps every key of concurrent writes to overlapping keys', async () => {
    const [instance] = await db.instances(1);
    const ids = Array.from({ length: 30 }, (_, i) => String(i));

    // Two writers set every key (one forwards, one backwards) and delete each other's odd keys.
    await Promise.all([
      auth.writeKeys(
        instance,
        ids.map((id) => ({ type: 'session', id, value: Number(id) % 2 === 0 ? `x${id}` : null })),
      ),
      auth.writeKeys(
        instance,
        [...ids].reverse().map((id) => ({ type: 'sender-key', id, value: `y${id}` })),
      ),
      auth.writeKeys(instance, ids.map((id) => ({ type: 'session', id, value: Number(id) % 2 === 0 ? `x${id}` : null })).reverse()),
    ]);

    const stored = await storedKeys(instance);
    expect(stored.filter((key) => key.type === 'session').map((key) => [key.key_id, key.value])).toEqual(
      ids
        .filter((id) => Number(id) % 2 === 0)
        .sort()
        .map((id) => [id, `x${id}`]),
    );
    expect(stored.filter((key) => key.type === 'sender-key').map((key) => [key.key_id, key.value])).toEqual(
      [...ids].sort().map((id) => [id, `y${id}`]),
    );
  });

  it("clears one instance's credentials and keys only", async () => {
    const [instance, other] = await db.instances(2);
    for (const id of [instance, other]) {
      await auth.saveCredentials(id, `{"me":"${id}"}`);
      await auth.writeKeys(id, [{ type: 'session', id: 'a', value: id }]);
    }

    await auth.clear(instance);

    expect(await auth.credentials(instance)).toBeNull();
    expect(await storedKeys(instance)).toEqual([]);
    expect(await auth.credentials(other)).toBe(`{"me":"${other}"}`);
    expect(await storedKeys(other)).toEqual([{ type: 'session', key_id: 'a', value: other, sealed: true }]);
  });
});
