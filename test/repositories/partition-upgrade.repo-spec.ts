import {
  EventLogRepository,
  EventStreamRepository,
  IdempotencyMismatch,
  MessageRepository,
  NetworkMessageRepository,
  WebhookDeliveryRepository,
} from '@app/database';
import { SecretBox } from '@app/security';
import { testConfig } from '../support/environment';
import { ScratchDatabase } from './scratch-database';

/** The migration that partitions the history tables; everything before it is "today's schema". */
const PARTITIONING = '20261127100000_time_partitions';

const DAY = 86_400_000;
const CUSTOMER = 'cus_upgrade';
const INSTANCE = 'ins_upgrade';
const scope = { customerId: CUSTOMER, instanceId: INSTANCE, via: 'customer_key' as const };

/**
 * A deployment with data upgrades in place: a database filled through the schema as it was before partitioning gets the
 * partitioning migration, and every row is still there and readable (and writable on) through the repositories.
 */
describe('partitioning migration on a database filled by the previous schema', () => {
  const db = new ScratchDatabase('upgrade');
  const now = Date.now();
  const at = (ms: number) => new Date(now - ms);
  // Old rows on several days: 40 days ago (beyond every retention), 5 days ago, and today.
  const events = [
    { id: `evt_${now - 40 * DAY}_0000000000000001`, seq: 1, receivedAt: at(40 * DAY), delivery: 'delivered' },
    { id: `evt_${now - 5 * DAY}_0000000000000002`, seq: 2, receivedAt: at(5 * DAY), delivery: 'failed' },
    { id: `evt_${now - 5 * DAY}_0000000000000003`, seq: 3, receivedAt: at(5 * DAY), delivery: null },
    { id: `evt_${now - 1000}_0000000000000004`, seq: 4, receivedAt: at(1000), delivery: 'pending' },
  ];

  beforeAll(async () => {
    await db.create();
    const old = await db.migrate((name) => name < PARTITIONING);
    expect(old).not.toContain(PARTITIONING);
    await db.rows('INSERT INTO customers (id, name) VALUES ($1, $2)', [CUSTOMER, 'Upgrade']);
    await db.rows('INSERT INTO instances (id, customer_id, name, shard, updated_at, event_seq) VALUES ($1, $2, $3, 0, now(), 4)', [
      INSTANCE,
      CUSTOMER,
      'upgraded',
    ]);
    for (const event of events) {
      await db.rows(
        `INSERT INTO event_log (id, instance_id, seq, event_type, received_at, data) VALUES ($1, $2, $3, 'message', $4::timestamptz AT TIME ZONE 'UTC', $5)`,
        [event.id, INSTANCE, event.seq, event.receivedAt.toISOString(), { n: event.seq }],
      );
      if (!event.delivery) continue;
      await db.rows(
        `INSERT INTO webhook_deliveries (event_id, instance_id, state, attempts, next_attempt_at) VALUES ($1, $2, $3::"DeliveryState", $4, now())`,
        [event.id, INSTANCE, event.delivery, event.delivery === 'pending' ? 0 : 1],
      );
      if (event.delivery === 'pending') continue;
      await db.rows(
        `INSERT INTO webhook_attempts (event_id, number, url, started_at, duration_ms, status_code, outcome, error)
         VALUES ($1, 1, 'https://hooks.example.com/in', '2026-11-01 10:00:00', 12, $2, $3, $4)`,
        [event.id, event.delivery === 'delivered' ? 200 : 500, event.delivery, event.delivery === 'delivered' ? null : 'HTTP 500'],
      );
    }
    const message = `INSERT INTO messages (id, instance_id, seq, kind, chat_jid, payload, status, idempotency_key, request_hash, accepted_at, sent_at)
      VALUES ($1, $2, $3, 'text', '491701234567@s.whatsapp.net', $4, $5::"MessageStatus", $6, $7, $8::timestamptz AT TIME ZONE 'UTC', $9::timestamptz AT TIME ZONE 'UTC')`;
    await db.rows(message, [
      '3EB0OLD',
      INSTANCE,
      1,
      { text: 'sent long ago' },
      'sent',
      'key-old',
      'hash-old',
      at(40 * DAY).toISOString(),
      at(40 * DAY).toISOString(),
    ]);
    await db.rows(message, [
      '3EB0PENDING',
      INSTANCE,
      2,
      { text: 'still to go' },
      'accepted',
      'key-pending',
      'hash-pending',
      at(2000).toISOString(),
      null,
    ]);
    await db.rows(message, ['3EB0NOKEY', INSTANCE, 3, { text: 'no key' }, 'accepted', null, null, at(1000).toISOString(), null]);
    await db.rows('INSERT INTO message_counters (instance_id, last_seq) VALUES ($1, 3)', [INSTANCE]);
    await db.rows(
      `INSERT INTO network_messages (instance_id, id, chat_jid, from_me, sender_jid, sent_at, data, created_at)
       VALUES ($1, 'NET1', 'chat@s.whatsapp.net', true, NULL, '2026-11-20 10:00:00', '{"n":1}', now() - interval '2 days'),
              ($1, 'NET2', 'chat@s.whatsapp.net', false, 'peer@s.whatsapp.net', '2026-11-27 10:00:00', '{"n":2}', now())`,
      [INSTANCE],
    );

    const applied = await db.migrate((name) => name >= PARTITIONING);
    expect(applied[0]).toBe(PARTITIONING);
  });

  afterAll(() => db.drop());

  it('turns every history table into a partitioned one, with the old rows in a legacy partition', async () => {
    const tables = await db.rows<{ table: string; partitions: string[] }>(
      `SELECT p.relname AS table, array_agg(c.relname::text ORDER BY c.relname) AS partitions
       FROM pg_partitioned_table t JOIN pg_class p ON p.oid = t.partrelid
       JOIN pg_inherits i ON i.inhparent = p.oid JOIN pg_class c ON c.oid = i.inhrelid
       GROUP BY p.relname ORDER BY p.relname`,
    );
    expect(tables.map((row) => row.table)).toEqual([
      'event_log',
      'messages',
      'network_messages',
      'sink_attempts',
      'sink_deliveries',
      'webhook_attempts',
      'webhook_deliveries',
    ]);
    for (const { table, partitions } of tables) {
      expect(partitions).toEqual(expect.arrayContaining([`${table}_legacy`, `${table}_default`]));
    }
  });

  it('reads every event, delivery and attempt through the repositories', async () => {
    const log = new EventLogRepository(db.prisma);
    const deliveries = new WebhookDeliveryRepository(db.prisma, new SecretBox(testConfig().encryptionKey));
    const stored = await log.list(INSTANCE, 0n, 10);
    expect(stored.map((event) => [event.seq, event.envelope.eventId, event.envelope.receivedAt, event.envelope.eventData])).toEqual(
      events.map((event) => [BigInt(event.seq), event.id, event.receivedAt.toISOString(), { n: event.seq }]),
    );
    expect(await new EventStreamRepository(db.prisma).retained(scope)).toEqual({ oldestKept: 1n, lastSeq: 4n });

    const reports = await Promise.all(events.map((event) => deliveries.report(INSTANCE, event.id)));
    expect(
      reports.map((report) => [report?.state, report?.attempts.map((attempt) => [attempt.number, attempt.outcome, attempt.statusCode])]),
    ).toEqual([
      ['delivered', [[1, 'delivered', 200]]],
      ['failed', [[1, 'failed', 500]]],
      ['none', []],
      ['pending', []],
    ]);

    // The pending delivery carries on: loaded for its attempt, the attempt recorded against the migrated row.
    const pending = await deliveries.forAttempt(events[3].id);
    expect(pending).toMatchObject({ eventId: events[3].id, instanceId: INSTANCE, state: 'pending', attempts: 0 });
    expect(pending?.envelope.receivedAt).toBe(events[3].receivedAt.toISOString());
    const attempt = {
      number: 1,
      url: 'https://hooks.example.com/in',
      startedAt: new Date(),
      durationMs: 5,
      statusCode: 200,
      outcome: 'delivered' as const,
      error: null,
    };
    expect(
      await deliveries.recordAttempt(pending!.envelope, attempt, {
        state: 'delivered',
        scheduleStep: 0,
        nextAttemptAt: new Date(),
        lastError: null,
      }),
    ).toBe(true);
    expect((await deliveries.report(INSTANCE, events[3].id))?.state).toBe('delivered');
    // A failed one can be redelivered; the event log keeps numbering after the migrated events.
    expect(await deliveries.redeliver(INSTANCE, events[1].id)).toBe(1);
    const next = await log.append(INSTANCE, 'message', { n: 5 }, { deliver: true });
    expect(next?.seq).toBe(5n);
    expect((await deliveries.report(INSTANCE, next?.envelope.eventId ?? ''))?.state).toBe('pending');
  });

  it('reads every message, keeps dispatch order and idempotency keys, and reads the kept network messages', async () => {
    const messages = new MessageRepository(db.prisma);
    expect(await messages.find(INSTANCE, '3EB0OLD')).toMatchObject({
      id: '3EB0OLD',
      seq: 1n,
      status: 'sent',
      payload: { text: 'sent long ago' },
    });
    expect((await messages.pending(INSTANCE, 10)).map((message) => [message.id, message.seq])).toEqual([
      ['3EB0PENDING', 2n],
      ['3EB0NOKEY', 3n],
    ]);
    const send = (id: string, key: string, hash: string) => ({
      id,
      kind: 'text' as const,
      chatJid: '491701234567@s.whatsapp.net',
      payload: { text: 'again' },
      idempotencyKey: key,
      requestHash: hash,
    });
    // Keys used before the upgrade still answer with their message, or refuse another body.
    expect(await messages.accept(INSTANCE, send('3EB0NEW1', 'key-old', 'hash-old'))).toEqual({ id: '3EB0OLD', replayed: true });
    expect(await messages.accept(INSTANCE, send('3EB0NEW2', 'key-pending', 'hash-pending'))).toEqual({ id: '3EB0PENDING', replayed: true });
    await expect(messages.accept(INSTANCE, send('3EB0NEW3', 'key-old', 'other'))).rejects.toBeInstanceOf(IdempotencyMismatch);
    expect(await messages.accept(INSTANCE, send('3EB0NEW4', 'key-new', 'hash-new'))).toEqual({ id: '3EB0NEW4', replayed: false });
    expect((await messages.pending(INSTANCE, 10)).map((message) => message.id)).toEqual(['3EB0PENDING', '3EB0NOKEY', '3EB0NEW4']);
    const outcome = await messages.recordOutcome(INSTANCE, '3EB0PENDING', { status: 'sent' }, [
      { eventType: 'message_status', data: { id: '3EB0PENDING' } },
    ]);
    expect(outcome.recorded).toBe(true);
    expect(outcome.events.map((event) => event.seq)).toEqual([6n]);
    expect(await messages.statusCounts(INSTANCE)).toEqual({ sent: 2, accepted: 2 });

    const network = new NetworkMessageRepository(db.prisma);
    expect(await network.find(INSTANCE, 'NET1')).toEqual({
      id: 'NET1',
      chatJid: 'chat@s.whatsapp.net',
      fromMe: true,
      senderJid: null,
      sentAt: new Date('2026-11-20T10:00:00.000Z'),
      data: '{"n":1}',
    });
    expect((await network.latest(INSTANCE, 'chat@s.whatsapp.net', 10)).map((message) => message.id)).toEqual(['NET2', 'NET1']);
    // A message seen again keeps its first copy, across partitions too.
    await network.save(INSTANCE, [
      { id: 'NET1', chatJid: 'chat@s.whatsapp.net', fromMe: true, senderJid: null, sentAt: new Date(), data: 'second copy' },
    ]);
    expect((await network.find(INSTANCE, 'NET1'))?.data).toBe('{"n":1}');
  });
});
