import { Pool } from 'pg';
import { MessageRepository } from '@app/database';
import { OutcomeGroupCommit } from '../../libs/database/src/repositories/outcome-group-commit';
import { testEnv } from '../support/environment';
import { RepositoryDatabase, uniqueId } from './repository-database';
import { deliveryRows, eventRows } from './stored-rows';

describe('OutcomeGroupCommit on PostgreSQL', () => {
  const db = new RepositoryDatabase();
  const messages = new MessageRepository(db.prisma);
  // A second worker: its own pool and its own batcher, as another process would have.
  const otherWorkerPool = new Pool({ connectionString: testEnv().DATABASE_URL, max: 4 });

  afterAll(async () => {
    await otherWorkerPool.end();
    await db.close();
  });

  async function acceptAll(instanceId: string, count: number): Promise<string[]> {
    const ids = Array.from({ length: count }, () => uniqueId('msg'));
    for (const id of ids) await messages.accept(instanceId, { id, kind: 'text', chatJid: '1@s.whatsapp.net', payload: { text: id } });
    return ids;
  }

  const outcome = (instanceId: string, messageId: string, deliver = true) => ({
    instanceId,
    messageId,
    outcome: { status: 'sent' as const },
    events: [{ eventType: 'message_status' as const, data: { id: messageId, status: 'sent' } }],
    deliver,
  });

  it('fails only the outcome whose data PostgreSQL refuses; the others of its batch are recorded with their events', async () => {
    const [instance] = await db.instances(1);
    const [first, bad, last] = await acceptAll(instance, 3);
    const group = new OutcomeGroupCommit(db.prisma.pool);

    const results = await Promise.allSettled([
      group.record(outcome(instance, first)),
      group.record({ ...outcome(instance, bad), outcome: { status: 'failed', error: 'nul \u0000 byte' } }),
      group.record(outcome(instance, last)),
    ]);

    expect(results.map((result) => result.status)).toEqual(['fulfilled', 'rejected', 'fulfilled']);
    expect((results[1] as PromiseRejectedResult).reason).toMatchObject({ code: '22P05' });
    expect(
      await db.rows('SELECT id, status::text AS status FROM messages WHERE instance_id = $1 ORDER BY messages.seq', [instance]),
    ).toEqual([
      { id: first, status: 'sent' },
      { id: bad, status: 'accepted' },
      { id: last, status: 'sent' },
    ]);
    const events = await eventRows(db, instance);
    expect(events.map((row) => [row.seq, row.data.id])).toEqual([
      ['1', first],
      ['2', last],
    ]);
    expect((await deliveryRows(db, instance)).map((row) => row.event_id)).toEqual(events.map((row) => row.id));
  });

  it('moves an unconfirmed send on only from unconfirmed: a late outcome of a sent or accepted row writes nothing', async () => {
    const [instance] = await db.instances(1);
    const [written, taken, waiting] = await acceptAll(instance, 3);
    const group = new OutcomeGroupCommit(db.prisma.pool);
    const status = (messageId: string, value: 'sent' | 'unconfirmed') => ({
      ...outcome(instance, messageId),
      outcome: { status: value },
      events: [{ eventType: 'message_status' as const, data: { id: messageId, status: value } }],
    });
    await group.record(status(written, 'unconfirmed'));
    await group.record(status(taken, 'sent'));

    const late = (messageId: string) => group.record({ ...status(messageId, 'sent'), outcome: { status: 'sent', from: 'unconfirmed' } });
    expect((await late(written)).recorded).toBe(true);
    expect((await Promise.all([late(taken), late(waiting), late(written)])).map((result) => result.recorded)).toEqual([
      false,
      false,
      false,
    ]);
    expect(
      await db.rows(
        'SELECT id, status::text AS status, sent_at IS NOT NULL AS has_sent_at FROM messages WHERE instance_id = $1 ORDER BY messages.seq',
        [instance],
      ),
    ).toEqual([
      { id: written, status: 'sent', has_sent_at: true },
      { id: taken, status: 'sent', has_sent_at: true },
      { id: waiting, status: 'accepted', has_sent_at: false },
    ]);
    expect((await eventRows(db, instance)).map((row) => [row.seq, row.data])).toEqual([
      ['1', { id: written, status: 'unconfirmed' }],
      ['2', { id: taken, status: 'sent' }],
      ['3', { id: written, status: 'sent' }],
    ]);
  });

  it('records each outcome once when two workers race on the same messages, numbering events gaplessly', async () => {
    const instances = await db.instances(2);
    const accepted = await Promise.all(instances.map((instanceId) => acceptAll(instanceId, 25)));
    const workers = [new OutcomeGroupCommit(db.prisma.pool), new OutcomeGroupCommit(otherWorkerPool)];

    // Both workers record every outcome (a repeated dispatch), the second in the opposite instance order.
    const results = await Promise.all(
      workers.map((worker, w) => {
        const order = w === 0 ? [0, 1] : [1, 0];
        return Promise.all(order.flatMap((i) => accepted[i].map((messageId) => worker.record(outcome(instances[i], messageId)))));
      }),
    );

    const recorded = results.flat().filter((result) => result.recorded);
    expect(recorded).toHaveLength(50);
    expect(results.flat().filter((result) => !result.recorded)).toEqual(
      Array.from({ length: 50 }, () => ({ recorded: false, events: [] })),
    );
    for (const [i, instanceId] of instances.entries()) {
      const events = await eventRows(db, instanceId);
      expect(events.map((row) => row.seq)).toEqual(Array.from({ length: 25 }, (_, n) => String(n + 1)));
      expect(events.map((row) => row.data.id).sort()).toEqual([...accepted[i]].sort());
      expect(await db.rows("SELECT count(*)::int AS sent FROM messages WHERE instance_id = $1 AND status = 'sent'", [instanceId])).toEqual([
        { sent: 25 },
      ]);
    }
  });
});
