import { randomBytes } from 'node:crypto';
import { Client } from 'pg';
import { NetworkAuthRepository, PrismaService } from '@app/database';
import { loadAuthState, type AuthState } from '@app/messaging';
import { SecretBox } from '@app/security';
import { testConfig, testEnv } from './support/environment';

type Creds = { noiseKey: { private: Buffer; public: Buffer }; registered: boolean; me?: { id: string } };

const TYPES = ['pre-key', 'session', 'sender-key', 'app-state-sync-key', 'lid-mapping'] as const;

/** A value big enough that a torn write would show: a Buffer of 2 KiB and a counter that must match it. */
function value(tag: string): { tag: string; blob: Buffer; check: string } {
  const blob = randomBytes(2048);
  return { tag, blob, check: blob.subarray(0, 8).toString('hex') };
}

describe('network auth state in PostgreSQL', () => {
  let db: Client;
  const services: PrismaService[] = [];
  const instanceId = `ins_auth_${randomBytes(6).toString('hex')}`;
  const fresh = (): Creds => ({ noiseKey: { private: randomBytes(32), public: randomBytes(32) }, registered: false });

  /** Each "worker" has its own connection pool, as separate processes would. */
  function worker(): NetworkAuthRepository {
    const config = testConfig();
    const prisma = new PrismaService(config);
    services.push(prisma);
    return new NetworkAuthRepository(prisma, new SecretBox(config.encryptionKey));
  }

  beforeAll(async () => {
    db = new Client({ connectionString: testEnv().DATABASE_URL });
    await db.connect();
    const customerId = `cus_auth_${randomBytes(6).toString('hex')}`;
    await db.query('INSERT INTO customers (id, name) VALUES ($1, $2)', [customerId, 'Auth Co']);
    await db.query('INSERT INTO instances (id, customer_id, name, shard, updated_at) VALUES ($1, $2, $3, 0, now())', [
      instanceId,
      customerId,
      'auth',
    ]);
  });

  afterAll(async () => {
    await db.query('DELETE FROM instances WHERE id = $1', [instanceId]);
    await db.end();
    await Promise.all(services.map((service) => service.onModuleDestroy()));
  });

  it('keeps every write of concurrent set calls (with deletes) whole, and a second worker reads the same state', async () => {
    const first = await loadAuthState<Creds>({ instanceId, store: worker(), initCredentials: fresh });
    const expected = new Map<string, ReturnType<typeof value> | null>();
    const key = (type: string, id: string) => `${type}/${id}`;

    // Keys written first, so the concurrent round can delete some of them.
    const seeded: Record<string, Record<string, unknown>> = {};
    for (const type of TYPES) {
      seeded[type] = {};
      for (let i = 0; i < 40; i++) {
        const v = value(`seed-${type}-${i}`);
        seeded[type][`seed-${i}`] = v;
        expected.set(key(type, `seed-${i}`), v);
      }
    }
    await first.state.keys.set(seeded);

    // 40 concurrent set calls: each writes 25 keys of its own and deletes 3 seeded keys; reads run alongside.
    const calls = Array.from({ length: 40 }, (_, call) => {
      const data: Record<string, Record<string, unknown>> = {};
      for (let i = 0; i < 25; i++) {
        const type = TYPES[(call + i) % TYPES.length];
        const v = value(`call-${call}-${i}`);
        (data[type] ??= {})[`c${call}-${i}`] = v;
        expected.set(key(type, `c${call}-${i}`), v);
      }
      for (let d = 0; d < 3; d++) {
        const type = TYPES[(call + d) % TYPES.length];
        const id = `seed-${(call * 3 + d) % 40}`;
        (data[type] ??= {})[id] = null;
        expected.set(key(type, id), null);
      }
      return data;
    });
    const reads = Array.from({ length: 30 }, (_, i) => first.state.keys.get(TYPES[i % TYPES.length], [`seed-${i}`, `c${i}-0`]));
    const readResults = await Promise.all([...calls.map((data) => first.state.keys.set(data)), ...reads]);
    // Every concurrent read saw whole values only.
    for (const result of readResults.slice(calls.length) as Record<string, ReturnType<typeof value>>[]) {
      for (const found of Object.values(result)) expect(found.check).toBe(found.blob.subarray(0, 8).toString('hex'));
    }

    Object.assign(first.state.creds, { registered: true, me: { id: '447700900123:7@s.whatsapp.net' } });
    await first.saveCreds();

    const second = await loadAuthState<Creds>({ instanceId, store: worker(), initCredentials: fresh });
    expect(second.state.creds).toEqual(first.state.creds);
    for (const type of TYPES) {
      const ids = [...expected.keys()].filter((k) => k.startsWith(`${type}/`)).map((k) => k.slice(type.length + 1));
      const found = await second.state.keys.get(type, ids);
      const wanted = Object.fromEntries(
        ids.filter((id) => expected.get(key(type, id)) !== null).map((id) => [id, expected.get(key(type, id))]),
      );
      expect(found).toEqual(wanted);
    }
    const { rows } = await db.query<{ n: number }>('SELECT count(*)::int AS n FROM network_keys WHERE instance_id = $1', [instanceId]);
    expect(rows[0].n).toBe([...expected.values()].filter((v) => v !== null).length);
  });

  it('lets concurrent writers of the same key leave exactly one of their values', async () => {
    const auth = await loadAuthState<Creds>({ instanceId, store: worker(), initCredentials: fresh });
    const values = Array.from({ length: 20 }, (_, i) => value(`race-${i}`));
    await Promise.all(values.map((v) => auth.state.keys.set({ session: { race: v } })));
    const found = (await auth.state.keys.get('session', ['race'])).race as ReturnType<typeof value>;
    expect(values.map((v) => v.tag)).toContain(found.tag);
    expect(found).toEqual(values.find((v) => v.tag === found.tag));
  });

  it('stores nothing in plain text', async () => {
    const auth: AuthState<Creds> = await loadAuthState<Creds>({ instanceId, store: worker(), initCredentials: fresh });
    await auth.state.keys.set({ 'lid-mapping': { '447700900123': '123456789012345' } });
    await auth.saveCreds();
    const keys = await db.query<{ value: string }>('SELECT value FROM network_keys WHERE instance_id = $1', [instanceId]);
    const creds = await db.query<{ data: string }>('SELECT data FROM network_credentials WHERE instance_id = $1', [instanceId]);
    const stored = [...keys.rows.map((row) => row.value), creds.rows[0].data].join('\n');
    expect(stored).not.toContain('123456789012345');
    expect(stored).not.toContain('noiseKey');
    expect(stored).not.toContain('Buffer');
  });

  it('forgets credentials and keys on logout', async () => {
    const auth = await loadAuthState<Creds>({ instanceId, store: worker(), initCredentials: fresh });
    await auth.clear();
    const { rows } = await db.query<{ n: number }>(
      'SELECT (SELECT count(*) FROM network_keys WHERE instance_id = $1)::int + (SELECT count(*) FROM network_credentials WHERE instance_id = $1)::int AS n',
      [instanceId],
    );
    expect(rows[0].n).toBe(0);
    const next = await loadAuthState<Creds>({ instanceId, store: worker(), initCredentials: fresh });
    expect(next.state.creds.registered).toBe(false);
  });
});
