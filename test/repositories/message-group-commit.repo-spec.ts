import { Pool } from 'pg';
import {
  GroupCommitMismatch,
  MessageGroupCommit,
  type GroupCommitMessage,
} from '../../libs/database/src/repositories/message-group-commit';
import { testEnv } from '../support/environment';
import { RepositoryDatabase, uniqueId } from './repository-database';

describe('MessageGroupCommit on PostgreSQL', () => {
  const db = new RepositoryDatabase();
  // A second API replica: its own pool and its own batcher.
  const otherReplicaPool = new Pool({ connectionString: testEnv().DATABASE_URL, max: 4 });

  afterAll(async () => {
    await otherReplicaPool.end();
    await db.close();
  });

  const message = (text: string, fields: Partial<GroupCommitMessage> = {}): GroupCommitMessage => ({
    id: uniqueId('msg'),
    kind: 'text',
    chatJid: '1@s.whatsapp.net',
    payload: { text },
    ...fields,
  });

  function stored(instanceId: string): Promise<{ id: string; seq: string; text: string }[]> {
    return db.rows<{ id: string; seq: string; text: string }>(
      `SELECT id, seq::text AS seq, payload->>'text' AS text FROM messages WHERE instance_id = $1 ORDER BY messages.seq`,
      [instanceId],
    );
  }

  it('stores a batch in arrival order, answers a repeated key within the batch from its first request, and fails only refused data', async () => {
    const [instance] = await db.instances(1);
    const group = new MessageGroupCommit(db.prisma.pool);
    const first = message('first', { idempotencyKey: 'k', requestHash: 'h' });
    const same = message('first', { idempotencyKey: 'k', requestHash: 'h' });
    const different = message('other', { idempotencyKey: 'k', requestHash: 'x' });
    const bad = message('nul \u0000 byte');
    const last = message('last');

    const results = await Promise.allSettled([first, same, different, bad, last].map((m) => group.accept(instance, m)));

    expect(results.map((result): unknown => (result.status === 'fulfilled' ? result.value : result.reason))).toEqual([
      { id: first.id, replayed: false },
      { id: first.id, replayed: true },
      expect.any(GroupCommitMismatch),
      expect.objectContaining({ code: '22P05' }),
      { id: last.id, replayed: false },
    ]);
    const rows = await stored(instance);
    expect(rows.map((row) => [row.id, row.text])).toEqual([
      [first.id, 'first'],
      [last.id, 'last'],
    ]);
    expect(Number(rows[0].seq)).toBeLessThan(Number(rows[1].seq));
  });

  it('keeps each replica in arrival order and every seq unique when two replicas accept for one instance', async () => {
    const [instance] = await db.instances(1);
    const replicas = [new MessageGroupCommit(db.prisma.pool, { maxRows: 7 }), new MessageGroupCommit(otherReplicaPool, { maxRows: 5 })];

    await Promise.all(
      replicas.map((replica, r) => Promise.all(Array.from({ length: 60 }, (_, i) => replica.accept(instance, message(`r${r}-${i}`))))),
    );

    const rows = await stored(instance);
    expect(rows.map((row) => row.seq)).toEqual(Array.from({ length: 120 }, (_, i) => String(i + 1)));
    for (const r of [0, 1]) {
      expect(rows.filter((row) => row.text.startsWith(`r${r}-`)).map((row) => row.text)).toEqual(
        Array.from({ length: 60 }, (_, i) => `r${r}-${i}`),
      );
    }
    expect(await db.rows('SELECT last_seq::text AS last_seq FROM message_counters WHERE instance_id = $1', [instance])).toEqual([
      { last_seq: '120' },
    ]);
  });
});
