import type { EventType } from '@app/contracts';
import { EventLogRepository, type StoredEvent } from '@app/database';
import { RepositoryDatabase } from './repository-database';
import { deliveryRows, eventRows, type EventRow } from './stored-rows';

describe('EventLogRepository on PostgreSQL', () => {
  const db = new RepositoryDatabase();
  const log = new EventLogRepository(db.prisma);

  afterAll(() => db.close());

  const rowOf = (stored: StoredEvent): EventRow => ({
    id: stored.envelope.eventId,
    instance_id: stored.envelope.instanceId,
    seq: String(stored.seq),
    event_type: stored.envelope.eventType,
    received_at: new Date(stored.envelope.receivedAt),
    data: stored.envelope.eventData,
  });

  describe('append', () => {
    it('stores the event with the next sequence number and its delivery in the same commit when asked', async () => {
      const [instance] = await db.instances(1);
      const receivedAt = new Date('2026-11-20T10:11:12.345Z');

      const delivered = await log.append(instance, 'message', { id: 'wamid-1', text: 'hi' }, { deliver: true, receivedAt });
      const kept = await log.append(instance, 'chat_presence', { chat: 'x' }, { deliver: false, receivedAt });

      expect(delivered).toEqual({
        seq: 1n,
        envelope: {
          eventId: expect.stringMatching(new RegExp(`^evt_${receivedAt.getTime()}_[0-9a-f]{16}$`)),
          instanceId: instance,
          eventType: 'message',
          receivedAt: receivedAt.toISOString(),
          eventData: { id: 'wamid-1', text: 'hi' },
        },
      });
      expect(kept?.seq).toBe(2n);
      expect(await eventRows(db, instance)).toEqual([rowOf(delivered as StoredEvent), rowOf(kept as StoredEvent)]);
      expect(await deliveryRows(db, instance)).toEqual([
        { event_id: delivered?.envelope.eventId, instance_id: instance, state: 'pending', attempts: 0, schedule_step: 0, last_error: null },
      ]);
    });

    it('numbers concurrent appends of several instances per instance, in hand-over order, and skips an instance that is gone', async () => {
      const [first, second] = await db.instances(2);
      const events = (tag: string, count: number): { eventType: EventType; data: Record<string, unknown> }[] =>
        Array.from({ length: count }, (_, i) => ({ eventType: 'message', data: { tag, i } }));

      const results = await Promise.all([
        log.appendMany(first, events('a', 3), { deliver: true }),
        log.appendMany(second, events('b', 2), { deliver: false }),
        log.appendMany('ins_repo_missing', events('gone', 2), { deliver: true }),
        log.appendMany(first, events('c', 2), { deliver: false }),
      ]);

      expect(results.map((stored) => stored?.map((event) => [event.seq, event.envelope.eventData]) ?? null)).toEqual([
        [
          [1n, { tag: 'a', i: 0 }],
          [2n, { tag: 'a', i: 1 }],
          [3n, { tag: 'a', i: 2 }],
        ],
        [
          [1n, { tag: 'b', i: 0 }],
          [2n, { tag: 'b', i: 1 }],
        ],
        null,
        [
          [4n, { tag: 'c', i: 0 }],
          [5n, { tag: 'c', i: 1 }],
        ],
      ]);
      const [ofA, ofB, , ofC] = results as StoredEvent[][];
      expect(await eventRows(db, first)).toEqual([...ofA, ...ofC].map(rowOf));
      expect(await eventRows(db, second)).toEqual(ofB.map(rowOf));
      expect(await eventRows(db, 'ins_repo_missing')).toEqual([]);
      expect((await deliveryRows(db, first)).map((row) => row.event_id)).toEqual(ofA.map((event) => event.envelope.eventId));
      expect(await deliveryRows(db, second)).toEqual([]);
      expect(
        await db.rows(
          'SELECT instance_id AS id, last_seq::text AS last_seq FROM event_counters WHERE instance_id = ANY($1::text[]) ORDER BY last_seq',
          [[first, second]],
        ),
      ).toEqual([
        { id: second, last_seq: '2' },
        { id: first, last_seq: '5' },
      ]);
    });
  });

  describe('reading', () => {
    it('reads windows of one instance by sequence range, order and type', async () => {
      const [instance, other] = await db.instances(2);
      const types: EventType[] = ['message', 'message_status', 'message', 'contact', 'message'];
      const stored = (await log.appendMany(
        instance,
        types.map((eventType, i) => ({ eventType, data: { i } })),
      )) as StoredEvent[];
      await log.append(other, 'message', { i: 99 });

      expect(await log.list(instance, 0n, 100)).toEqual(stored);
      expect(await log.list(instance, 2n, 2)).toEqual(stored.slice(2, 4));
      expect(await log.list(instance, 0n, 100, ['message'])).toEqual([stored[0], stored[2], stored[4]]);
      expect(await log.window(instance, { beforeSeq: 5n, order: 'desc', limit: 3 })).toEqual([stored[3], stored[2], stored[1]]);
      expect(
        await log.window(instance, { afterSeq: 1n, beforeSeq: 4n, order: 'asc', limit: 10, eventTypes: ['message', 'contact'] }),
      ).toEqual([stored[2]]);
    });

    it("tells whether someone else's message with an id reached this instance", async () => {
      const [instance, other] = await db.instances(2);
      await log.append(instance, 'message', { id: 'from-them', sender: { isMe: false } });
      await log.append(instance, 'message', { id: 'from-me', sender: { isMe: true } });
      await log.append(instance, 'message_status', { id: 'status-only' });

      expect(await log.receivedMessage(instance, 'from-them')).toBe(true);
      expect(await log.receivedMessage(instance, 'from-me')).toBe(false);
      expect(await log.receivedMessage(instance, 'status-only')).toBe(false);
      expect(await log.receivedMessage(other, 'from-them')).toBe(false);
    });
  });
});
