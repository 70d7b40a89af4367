import { IdempotencyMismatch, MessageRepository, type NewMessage } from '@app/database';
import { RepositoryDatabase, uniqueId } from './repository-database';
import { deliveryRows, eventRows } from './stored-rows';

interface MessageRow {
  id: string;
  instance_id: string;
  seq: string;
  kind: string;
  chat_jid: string;
  payload: Record<string, unknown>;
  status: string;
  error: string | null;
  idempotency_key: string | null;
  request_hash: string | null;
  sent_at: Date | null;
}

describe('MessageRepository on PostgreSQL', () => {
  const db = new RepositoryDatabase();
  const messages = new MessageRepository(db.prisma);

  afterAll(() => db.close());

  const newMessage = (text: string, fields: Pick<NewMessage, 'idempotencyKey' | 'requestHash'> = {}): NewMessage => ({
    id: uniqueId('msg'),
    kind: 'text',
    chatJid: '491701234567@s.whatsapp.net',
    payload: { text },
    ...fields,
  });

  function messageRows(instanceId: string): Promise<MessageRow[]> {
    return db.rows<MessageRow>(
      `SELECT id, instance_id, seq::text AS seq, kind, chat_jid, payload, status::text AS status, error, idempotency_key, request_hash,
              sent_at AT TIME ZONE 'UTC' AS sent_at
       FROM messages WHERE instance_id = $1 ORDER BY messages.seq`,
      [instanceId],
    );
  }

  const acceptedRow = (instanceId: string, message: NewMessage, seq: number): MessageRow => ({
    id: message.id,
    instance_id: instanceId,
    seq: String(seq),
    kind: message.kind,
    chat_jid: message.chatJid,
    // Stored with the wire version (docs/architecture.md, "Shapes on the wire and versions"); read back without it.
    payload: { v: 2, ...message.payload },
    status: 'accepted',
    error: null,
    idempotency_key: message.idempotencyKey ?? null,
    request_hash: message.requestHash ?? null,
    sent_at: null,
  });

  describe('accept', () => {
    it('numbers concurrent accepts in arrival order, each instance from its own counter', async () => {
      const [first, second] = await db.instances(2);
      const ofFirst = Array.from({ length: 30 }, (_, i) => newMessage(`first ${i}`));
      const ofSecond = Array.from({ length: 5 }, (_, i) => newMessage(`second ${i}`));

      const accepted = await Promise.all([
        ...ofFirst.map((message) => messages.accept(first, message)),
        ...ofSecond.map((message) => messages.accept(second, message)),
      ]);

      expect(accepted).toEqual([...ofFirst, ...ofSecond].map((message) => ({ id: message.id, replayed: false })));
      expect(await messageRows(first)).toEqual(ofFirst.map((message, i) => acceptedRow(first, message, i + 1)));
      expect(await messageRows(second)).toEqual(ofSecond.map((message, i) => acceptedRow(second, message, i + 1)));
    });

    it('answers a repeated idempotency key from the stored message, refuses it with another request, and keeps keys per instance', async () => {
      const [instance, other] = await db.instances(2);
      const original = newMessage('once', { idempotencyKey: 'key-1', requestHash: 'hash-a' });

      expect(await messages.accept(instance, original)).toEqual({ id: original.id, replayed: false });
      expect(await messages.accept(instance, newMessage('once', { idempotencyKey: 'key-1', requestHash: 'hash-a' }))).toEqual({
        id: original.id,
        replayed: true,
      });
      await expect(
        messages.accept(instance, newMessage('changed', { idempotencyKey: 'key-1', requestHash: 'hash-b' })),
      ).rejects.toBeInstanceOf(IdempotencyMismatch);
      const elsewhere = newMessage('once', { idempotencyKey: 'key-1', requestHash: 'hash-a' });
      expect(await messages.accept(other, elsewhere)).toEqual({ id: elsewhere.id, replayed: false });

      expect(await messageRows(instance)).toEqual([acceptedRow(instance, original, 1)]);
      expect(await messageRows(other)).toEqual([acceptedRow(other, elsewhere, 1)]);
    });
  });

  describe('pending and find', () => {
    it("lists an instance's accepted messages in acceptance order, and finds a message only through its own instance", async () => {
      const [instance, other] = await db.instances(2);
      const sent = newMessage('sent');
      // Twelve, so seq 10 and up would sort before 9 if compared as text.
      const waiting = Array.from({ length: 11 }, (_, i) => newMessage(`waiting ${i}`));
      for (const message of [sent, ...waiting]) await messages.accept(instance, message);
      await messages.accept(other, newMessage('other'));
      await messages.recordOutcome(instance, sent.id, { status: 'sent' }, []);

      expect(await messages.pending(instance, 100)).toEqual(
        waiting.map((message, i) => ({
          id: message.id,
          kind: 'text',
          chatJid: message.chatJid,
          payload: message.payload,
          seq: BigInt(i + 2),
          status: 'accepted',
          acceptedAt: expect.any(Date) as Date,
        })),
      );
      expect((await messages.pending(instance, 3)).map((message) => message.id)).toEqual(waiting.slice(0, 3).map((message) => message.id));
      expect(await messages.find(instance, sent.id)).toEqual({
        id: sent.id,
        kind: 'text',
        chatJid: sent.chatJid,
        payload: sent.payload,
        seq: 1n,
        status: 'sent',
      });
      expect(await messages.find(other, sent.id)).toBeNull();
      expect(await messages.statusCounts(instance)).toEqual({ sent: 1, accepted: 11 });
    });

    it('finds the instances of the given shards with messages pending since before the cutoff', async () => {
      const [onShard7] = await db.instances(1, 7);
      const [onShard8] = await db.instances(1, 8);
      await messages.accept(onShard7, newMessage('stale'));
      await messages.accept(onShard8, newMessage('stale elsewhere'));
      const later = new Date(Date.now() + 60_000);

      expect(await messages.instancesWithStalePending([7], later)).toEqual([onShard7]);
      expect(await messages.instancesWithStalePending([7], new Date(Date.now() - 60_000))).toEqual([]);
      expect(await messages.instancesWithStalePending([], later)).toEqual([]);
    });

    it("reads the previous release's payloads (no v), and returns rows it cannot read as unreadable, with the reason", async () => {
      const [instance] = await db.instances(1);
      const insert = (id: string, seq: number, kind: string, payload: object) =>
        db.rows('INSERT INTO messages (id, instance_id, seq, kind, chat_jid, payload) VALUES ($1, $2, $3, $4, $5, $6)', [
          id,
          instance,
          seq,
          kind,
          '491701234567@s.whatsapp.net',
          JSON.stringify(payload),
        ]);
      await insert('m1', 1, 'text', { text: 'previous release' });
      await insert('m2', 2, 'text', { text: 7 });
      await insert('m3', 3, 'text', { v: 3, text: 'newer' });
      await insert('m4', 4, 'hologram', { text: 'unknown kind' });
      const rows = await messages.pending(instance, 10);
      expect(rows[0]).toMatchObject({ id: 'm1', kind: 'text', payload: { text: 'previous release' } });
      expect(
        rows.slice(1).map((row) => ('unreadable' in row ? [row.id, row.unreadable.reason, row.unreadable.unknownVersion] : row.id)),
      ).toEqual([
        ['m2', 'text: Invalid input: expected string, received number', undefined],
        ['m3', 'version 3 is newer than this process understands (2)', 3],
        ['m4', 'unknown kind hologram', undefined],
      ]);
      expect(await messages.find(instance, 'm2')).toMatchObject({ id: 'm2', status: 'accepted', unreadable: expect.any(Error) as Error });
    });
  });

  describe('recordOutcome', () => {
    it('records the outcome and appends its events with their deliveries in one commit, numbered after the log', async () => {
      const [instance] = await db.instances(1);
      const message = newMessage('hello');
      await messages.accept(instance, message);
      await db.rows('UPDATE event_counters SET last_seq = 41 WHERE instance_id = $1', [instance]);
      const events = [
        { eventType: 'message' as const, data: { id: message.id, step: 1 } },
        { eventType: 'message_status' as const, data: { id: message.id, status: 'sent' } },
      ];

      const result = await messages.recordOutcome(instance, message.id, { status: 'sent' }, events, { deliver: true });

      const receivedAt = result.events[0]?.envelope.receivedAt;
      expect(result).toEqual({
        recorded: true,
        events: events.map((event, i) => ({
          seq: BigInt(42 + i),
          envelope: {
            eventId: expect.stringMatching(/^evt_\d+_[0-9a-f]{16}$/),
            instanceId: instance,
            eventType: event.eventType,
            receivedAt,
            eventData: event.data,
          },
        })),
      });
      const eventIds = result.events.map((event) => event.envelope.eventId);
      expect(await messageRows(instance)).toEqual([
        { ...acceptedRow(instance, message, 1), status: 'sent', sent_at: new Date(receivedAt) },
      ]);
      expect(await eventRows(db, instance)).toEqual(
        events.map((event, i) => ({
          id: eventIds[i],
          instance_id: instance,
          seq: String(42 + i),
          event_type: event.eventType,
          received_at: new Date(receivedAt),
          data: event.data,
        })),
      );
      expect(await deliveryRows(db, instance)).toEqual(
        eventIds.map((eventId) => ({
          event_id: eventId,
          instance_id: instance,
          state: 'pending',
          attempts: 0,
          schedule_step: 0,
          last_error: null,
        })),
      );
      expect(await db.rows('SELECT last_seq::text AS last_seq FROM event_counters WHERE instance_id = $1', [instance])).toEqual([
        { last_seq: '43' },
      ]);
    });

    it('records a failure with its error and no deliveries when not asked to deliver', async () => {
      const [instance] = await db.instances(1);
      const message = newMessage('refused');
      await messages.accept(instance, message);

      const result = await messages.recordOutcome(instance, message.id, { status: 'failed', error: 'not on the network' }, [
        { eventType: 'message_status', data: { id: message.id, status: 'failed' } },
      ]);

      expect(result.recorded).toBe(true);
      expect(await messageRows(instance)).toEqual([
        { ...acceptedRow(instance, message, 1), status: 'failed', error: 'not on the network' },
      ]);
      expect((await eventRows(db, instance)).map((row) => [row.seq, row.event_type])).toEqual([['1', 'message_status']]);
      expect(await deliveryRows(db, instance)).toEqual([]);
    });

    it('writes nothing for a message no longer accepted or named through another instance', async () => {
      const [instance, other] = await db.instances(2);
      const message = newMessage('twice');
      await messages.accept(instance, message);
      const event = { eventType: 'message_status' as const, data: { id: message.id, status: 'sent' } };
      await messages.recordOutcome(instance, message.id, { status: 'sent' }, [event], { deliver: true });
      const before = {
        messages: await messageRows(instance),
        events: await eventRows(db, instance),
        deliveries: await deliveryRows(db, instance),
      };

      expect(await messages.recordOutcome(instance, message.id, { status: 'failed', error: 'late' }, [event], { deliver: true })).toEqual({
        recorded: false,
        events: [],
      });
      const stranger = newMessage('not yours');
      await messages.accept(instance, stranger);
      expect(await messages.recordOutcome(other, stranger.id, { status: 'sent' }, [event], { deliver: true })).toEqual({
        recorded: false,
        events: [],
      });

      expect(await messageRows(instance)).toEqual([...before.messages, acceptedRow(instance, stranger, 2)]);
      expect(await eventRows(db, instance)).toEqual(before.events);
      expect(await deliveryRows(db, instance)).toEqual(before.deliveries);
      expect(await eventRows(db, other)).toEqual([]);
    });
  });
});
