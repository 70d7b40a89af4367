import {
  EventLogRepository,
  EventStreamRepository,
  MessageRepository,
  NetworkMessageRepository,
  PARTITION_MAINTENANCE_LEASE,
  PartitionMaintenance,
  WebhookDeliveryRepository,
  type AttemptRecord,
  type RetentionPolicy,
  type StoredEvent,
} from '@app/database';
import { SecretBox } from '@app/security';
import { testConfig } from '../support/environment';
import { ScratchDatabase } from './scratch-database';

/** The event family's tables as a day of them is dropped: children first. */
const FAMILY_CHILDREN_FIRST = ['sink_attempts', 'sink_deliveries', 'webhook_attempts', 'webhook_deliveries', 'event_log'];

const DAY = 86_400_000;
const HOUR = 3_600_000;

/** Midnight UTC `days` from today's. */
function midnight(days: number): Date {
  const now = new Date();
  return new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), now.getUTCDate()) + days * DAY);
}

function suffix(day: Date): string {
  return `p${day.toISOString().slice(0, 10).replace(/-/g, '')}`;
}

/**
 * Retention by partition on a database of its own (partitions are database-wide): the clock is passed in, so days go
 * by in a moment. Partitions for past days are made by running the job "back then".
 */
describe('PartitionMaintenance on PostgreSQL', () => {
  const db = new ScratchDatabase('partitions');
  let maintenance: PartitionMaintenance;
  let log: EventLogRepository;
  let deliveries: WebhookDeliveryRepository;
  let messages: MessageRepository;
  let customer = 0;

  const policy = (now: Date, overrides: Partial<RetentionPolicy> = {}): RetentionPolicy => ({
    now,
    daysAhead: 3,
    eventRetentionHours: 72,
    messageRetentionDays: 30,
    networkMessageRetentionHours: 72,
    dashboardRetentionDays: 7,
    sandboxRetentionDays: 30,
    orphanMediaRetentionHours: 24,
    ...overrides,
  });

  /** Runs that only make partitions: nothing they see is old enough to go. */
  const keepAll: Partial<RetentionPolicy> = {
    eventRetentionHours: 24 * 365,
    messageRetentionDays: 365,
    networkMessageRetentionHours: 24 * 365,
  };

  async function instance(): Promise<string> {
    customer += 1;
    const id = `ins_maint_${customer}`;
    await db.rows('INSERT INTO customers (id, name) VALUES ($1, $1)', [`cus_maint_${customer}`]);
    await db.rows('INSERT INTO instances (id, customer_id, name, shard, updated_at) VALUES ($1, $2, $1, 0, now())', [
      id,
      `cus_maint_${customer}`,
    ]);
    return id;
  }

  async function partitions(table: string): Promise<string[]> {
    const rows = await db.rows<{ name: string }>(
      'SELECT c.relname AS name FROM pg_inherits i JOIN pg_class c ON c.oid = i.inhrelid WHERE i.inhparent = $1::regclass ORDER BY 1',
      [table],
    );
    return rows.map((row) => row.name);
  }

  const attempt = (number: number, outcome: AttemptRecord['outcome']): AttemptRecord => ({
    number,
    url: 'https://hooks.example.com/in',
    startedAt: new Date(),
    durationMs: 3,
    statusCode: outcome === 'delivered' ? 200 : 500,
    outcome,
    error: outcome === 'delivered' ? null : 'HTTP 500',
  });

  async function deliver(event: StoredEvent, number = 1): Promise<boolean> {
    return deliveries.recordAttempt(event.envelope, attempt(number, 'delivered'), {
      state: 'delivered',
      scheduleStep: 0,
      nextAttemptAt: new Date(),
      lastError: null,
    });
  }

  beforeAll(async () => {
    await db.create();
    await db.migrate();
    maintenance = new PartitionMaintenance(db.prisma);
    log = new EventLogRepository(db.prisma);
    deliveries = new WebhookDeliveryRepository(db.prisma, new SecretBox(testConfig().encryptionKey));
    messages = new MessageRepository(db.prisma);
    // Daily partitions from six days ago on: the job as it ran then, and as it runs today.
    for (const days of [-6, -2, 0]) await maintenance.run(policy(new Date(midnight(days).getTime() + HOUR), keepAll));
  });

  afterAll(() => db.drop());

  it('creates today’s partition and the next days’ for every table, once, and only while it holds the lock', async () => {
    const expected = [-6, -5, -4, -3, -2, -1, 0, 1, 2, 3].map((days) => suffix(midnight(days)));
    for (const table of [
      'event_log',
      'webhook_deliveries',
      'webhook_attempts',
      'sink_deliveries',
      'sink_attempts',
      'messages',
      'network_messages',
    ]) {
      expect(await partitions(table)).toEqual([...expected.map((name) => `${table}_${name}`), `${table}_default`].sort());
    }
    const later = policy(new Date(midnight(1).getTime() + HOUR), keepAll);
    // Another worker's run in progress: its lease row is taken and not yet expired.
    await db.rows(
      `INSERT INTO maintenance_leases (name, holder, expires_at) VALUES ($1, 'another worker', now() + interval '1 minute')
       ON CONFLICT (name) DO UPDATE SET holder = EXCLUDED.holder, expires_at = EXCLUDED.expires_at`,
      [PARTITION_MAINTENANCE_LEASE],
    );
    expect(await maintenance.run(later)).toEqual({
      ran: false,
      created: [],
      dropped: [],
      kept: [],
      movedPendingMessages: 0,
      deleted: {},
    });
    // That worker died: its lease expires, and the next run goes ahead.
    await db.rows(`UPDATE maintenance_leases SET expires_at = now() - interval '1 second' WHERE name = $1`, [PARTITION_MAINTENANCE_LEASE]);
    const report = await maintenance.run(later);
    const day4 = suffix(midnight(4));
    expect(report.created).toEqual(
      ['event_log', 'webhook_deliveries', 'webhook_attempts', 'sink_deliveries', 'sink_attempts', 'messages', 'network_messages'].map(
        (table) => `${table}_${day4}`,
      ),
    );
    expect((await maintenance.run(later)).created).toEqual([]);
  });

  it('drops expired event partitions whole while deliveries go on, keeps one with a delivery still retrying, and seq stays gapless', async () => {
    const id = await instance();
    const scope = { customerId: `cus_maint_${customer}`, instanceId: id, via: 'customer_key' as const };
    const deliverAll = (receivedAt: Date, count: number) =>
      log.appendMany(
        id,
        Array.from({ length: count }, (_, i) => ({ eventType: 'message' as const, data: { i } })),
        { deliver: true, receivedAt },
      ) as Promise<StoredEvent[]>;
    // Day -5: all delivered. Day -4: one still retrying. Day -1 ends and day 0 begins between two events.
    const fiveDaysAgo = await deliverAll(new Date(midnight(-5).getTime() + 3 * HOUR), 3);
    const fourDaysAgo = await deliverAll(new Date(midnight(-4).getTime() + 3 * HOUR), 3);
    const lastOfYesterday = await deliverAll(new Date(midnight(0).getTime() - 1), 1);
    const firstOfToday = await deliverAll(midnight(0), 1);
    for (const event of [...fiveDaysAgo, ...fourDaysAgo.slice(0, 2), ...lastOfYesterday]) expect(await deliver(event)).toBe(true);
    expect(await partitionOf('event_log', lastOfYesterday[0])).toBe(`event_log_${suffix(midnight(-1))}`);
    expect(await partitionOf('event_log', firstOfToday[0])).toBe(`event_log_${suffix(midnight(0))}`);

    // Under load: events appended and attempts recorded while the job drops partitions.
    const now = new Date();
    let appending = true;
    const appended: StoredEvent[] = [];
    const load = (async () => {
      while (appending) {
        const batch = await deliverAll(new Date(), 5);
        appended.push(...batch);
        for (const event of batch.slice(0, 2)) expect(await deliver(event)).toBe(true);
      }
    })();
    let report: Awaited<ReturnType<PartitionMaintenance['run']>>;
    try {
      report = await maintenance.run(policy(now));
    } finally {
      appending = false;
      await load;
    }

    const day = (days: number) => suffix(midnight(days));
    expect(report.dropped.filter((name) => !name.startsWith('network_messages'))).toEqual(
      [-6, -5].flatMap((days) => FAMILY_CHILDREN_FIRST.map((table) => `${table}_${day(days)}`)),
    );
    expect(report.kept).toEqual([{ partition: `event_log_${day(-4)}`, reason: 'webhook or sink deliveries still retrying' }]);
    expect(appended.length).toBeGreaterThan(0);

    // Every event appended meanwhile is there with its delivery (none lost), and seqs run on without a gap.
    const kept = await log.list(id, 0n, 1_000);
    const expectedSeqs = [...fourDaysAgo, ...lastOfYesterday, ...firstOfToday, ...appended].map((event) => event.seq);
    expect(kept.map((event) => event.seq)).toEqual(expectedSeqs);
    expect(expectedSeqs).toEqual(expectedSeqs.map((_, i) => expectedSeqs[0] + BigInt(i)));
    expect(expectedSeqs[0]).toBe(fiveDaysAgo[2].seq + 1n);
    const states = await db.rows<{ state: string; n: number }>(
      'SELECT state::text, count(*)::int AS n FROM webhook_deliveries WHERE instance_id = $1 GROUP BY state ORDER BY state',
      [id],
    );
    const deliveredNow = appended.filter((_, i) => i % 5 < 2).length;
    expect(states).toEqual(
      [
        { state: 'pending', n: 1 + 1 + appended.length - deliveredNow },
        { state: 'delivered', n: 2 + 1 + deliveredNow },
      ].sort((a, b) => a.state.localeCompare(b.state)),
    );
    expect(await new EventStreamRepository(db.prisma).retained(scope)).toEqual({
      oldestKept: fourDaysAgo[0].seq,
      lastSeq: expectedSeqs.at(-1),
    });
    expect(await deliveries.report(id, fiveDaysAgo[0].envelope.eventId)).toBeNull();

    // Once the last retry settles, the day goes too, with its deliveries and attempts.
    expect(await deliver(fourDaysAgo[2])).toBe(true);
    const again = await maintenance.run(policy(now));
    expect(again.dropped).toEqual(FAMILY_CHILDREN_FIRST.map((table) => `${table}_${day(-4)}`));
    expect(again.kept).toEqual([]);
    expect(await new EventStreamRepository(db.prisma).retained(scope)).toEqual({
      oldestKept: lastOfYesterday[0].seq,
      lastSeq: expectedSeqs.at(-1),
    });
  });

  it('drops expired message partitions but keeps sends not yet dispatched, which still go out, with their idempotency keys', async () => {
    const id = await instance();
    // The day's partition of 40 days ago, as the job made it back then.
    const fortyDaysAgo = midnight(-40);
    await maintenance.run(policy(new Date(fortyDaysAgo.getTime() + HOUR), { ...keepAll, daysAhead: 0 }));
    const send = (text: string, key: string) => ({
      id: `3EB0${text.toUpperCase()}`,
      kind: 'text' as const,
      chatJid: '491701234567@s.whatsapp.net',
      payload: { text },
      idempotencyKey: key,
      requestHash: `hash-${key}`,
    });
    for (const [text, key] of [
      ['sentlongago', 'k-sent'],
      ['stillpending', 'k-pending'],
      ['recent', 'k-recent'],
    ]) {
      expect(await messages.accept(id, send(text, key))).toEqual({ id: send(text, key).id, replayed: false });
    }
    // Accepted 40 days ago (the first two) and today; the first one went out.
    await db.rows(`UPDATE messages SET accepted_at = $2::timestamptz AT TIME ZONE 'UTC' WHERE id = ANY($1)`, [
      ['3EB0SENTLONGAGO', '3EB0STILLPENDING'],
      new Date(fortyDaysAgo.getTime() + 2 * HOUR).toISOString(),
    ]);
    await db.rows(
      `UPDATE message_idempotency_keys SET created_at = created_at - interval '40 days' WHERE instance_id = $1 AND idempotency_key <> 'k-recent'`,
      [id],
    );
    expect((await messages.recordOutcome(id, '3EB0SENTLONGAGO', { status: 'sent' }, [])).recorded).toBe(true);
    const where = () => db.rows(`SELECT id, tableoid::regclass::text AS partition FROM messages WHERE instance_id = $1 ORDER BY seq`, [id]);
    expect(await where()).toEqual([
      { id: '3EB0SENTLONGAGO', partition: `messages_${suffix(fortyDaysAgo)}` },
      { id: '3EB0STILLPENDING', partition: `messages_${suffix(fortyDaysAgo)}` },
      { id: '3EB0RECENT', partition: `messages_${suffix(midnight(0))}` },
    ]);

    // Today, 40 days are past the 30-day retention: the partition goes, the send still waiting moves out of it first.
    const report = await maintenance.run(policy(new Date()));
    expect(report.dropped).toContain(`messages_${suffix(fortyDaysAgo)}`);
    expect(report.movedPendingMessages).toBe(1);
    expect(report.deleted).toEqual({ message_idempotency_keys: 1 });
    expect(await where()).toEqual([
      { id: '3EB0STILLPENDING', partition: 'messages_default' },
      { id: '3EB0RECENT', partition: `messages_${suffix(midnight(0))}` },
    ]);
    expect((await messages.pending(id, 10)).map((message) => message.id)).toEqual(['3EB0STILLPENDING', '3EB0RECENT']);
    expect(await messages.find(id, '3EB0SENTLONGAGO')).toBeNull();
    // The pending send's key still answers; the dropped message's key is free again.
    expect(await messages.accept(id, send('stillpending', 'k-pending'))).toEqual({ id: '3EB0STILLPENDING', replayed: true });
    expect(await messages.accept(id, { ...send('again', 'k-sent') })).toEqual({ id: '3EB0AGAIN', replayed: false });
    expect((await messages.recordOutcome(id, '3EB0STILLPENDING', { status: 'sent' }, [])).recorded).toBe(true);
  });

  it('moves rows that landed in the DEFAULT partition into the day’s partition when it is created', async () => {
    const id = await instance();
    const farAhead = new Date(midnight(9).getTime() + 5 * HOUR);
    const [event] = (await log.appendMany(id, [{ eventType: 'message', data: {} }], {
      deliver: true,
      receivedAt: farAhead,
    })) as StoredEvent[];
    expect(await partitionOf('event_log', event)).toBe('event_log_default');
    const report = await maintenance.run(policy(new Date(midnight(7).getTime() + HOUR), keepAll));
    expect(report.created).toContain(`event_log_${suffix(midnight(9))}`);
    expect(await partitionOf('event_log', event)).toBe(`event_log_${suffix(midnight(9))}`);
    expect(
      await db.rows('SELECT tableoid::regclass::text AS partition, state::text FROM webhook_deliveries WHERE event_id = $1', [
        event.envelope.eventId,
      ]),
    ).toEqual([{ partition: `webhook_deliveries_${suffix(midnight(9))}`, state: 'pending' }]);
    expect(await deliver(event)).toBe(true);
    expect((await deliveries.report(id, event.envelope.eventId))?.attempts).toHaveLength(1);
  });

  it('prunes network messages by partition, and the small tables row by row', async () => {
    const id = await instance();
    const network = new NetworkMessageRepository(db.prisma);
    await network.save(id, [{ id: 'N1', chatJid: 'c@s.whatsapp.net', fromMe: true, senderJid: null, sentAt: new Date(), data: '{}' }]);
    await db.rows(`UPDATE network_messages SET created_at = $2::timestamptz AT TIME ZONE 'UTC' WHERE instance_id = $1`, [
      id,
      new Date(midnight(-5).getTime() + HOUR).toISOString(),
    ]);
    await network.save(id, [{ id: 'N2', chatJid: 'c@s.whatsapp.net', fromMe: true, senderJid: null, sentAt: new Date(), data: '{}' }]);

    const [user] = await db.rows<{ id: string }>(
      `INSERT INTO dashboard_users (id, customer_id, email) VALUES ('usr_maint', $1, 'maint@example.com') RETURNING id`,
      [`cus_maint_${customer}`],
    );
    await db.rows(
      `INSERT INTO dashboard_links (id, token_hash, user_id, purpose, expires_at, used_at) VALUES
         ('lnk_used_old', 'h1', $1, 'invite', now() + interval '1 day', now() - interval '8 days'),
         ('lnk_expired_old', 'h2', $1, 'password_reset', now() - interval '8 days', NULL),
         ('lnk_used_recent', 'h3', $1, 'invite', now() + interval '1 day', now() - interval '1 day'),
         ('lnk_open', 'h4', $1, 'invite', now() + interval '1 day', NULL)`,
      [user.id],
    );
    await db.rows(
      `INSERT INTO dashboard_sessions (id, token_hash, user_id, expires_at) VALUES
         ('ses_old', 's1', $1, now() - interval '8 days'), ('ses_live', 's2', $1, now() + interval '1 day')`,
      [user.id],
    );
    await db.rows(
      `INSERT INTO sandbox_messages (instance_id, id, direction, chat_jid, sender_jid, type, content, at) VALUES
         ($1, 'S_OLD', 'outbound', 'c', 's', 'text', '{}', now() - interval '31 days'), ($1, 'S_NEW', 'outbound', 'c', 's', 'text', '{}', now())`,
      [id],
    );
    await db.rows(
      `INSERT INTO sandbox_operations (instance_id, name, args, at) VALUES ($1, 'old', '{}', now() - interval '31 days'), ($1, 'new', '{}', now())`,
      [id],
    );
    const blob = `INSERT INTO media_blobs (id, instance_id, mime_type, size, sha256, bytes, created_at) VALUES ($1, $2, 'image/png', 1, 'x', '\\x00', now() - $3::interval)`;
    await db.rows(blob, ['med_orphan', id, '2 days']);
    await db.rows(blob, ['med_pending', id, '2 days']);
    await db.rows(blob, ['med_fresh', id, '1 hour']);
    await messages.accept(id, {
      id: '3EB0MEDIA',
      kind: 'image',
      chatJid: '491701234567@s.whatsapp.net',
      payload: { media: { blobId: 'med_pending', mimeType: 'image/png', size: 1, sha256: 'x' } },
    } as never);

    // Kept a day here: yesterday's partition is not expired yet, the ones before are (the 72-hour runs left day -3).
    const report = await maintenance.run(policy(new Date(), { networkMessageRetentionHours: 24 }));
    expect(report.dropped).toEqual([-3, -2].map((days) => `network_messages_${suffix(midnight(days))}`));
    expect(await network.find(id, 'N1')).toBeNull();
    expect((await network.find(id, 'N2'))?.id).toBe('N2');
    expect(report.deleted).toMatchObject({
      dashboard_links: 2,
      dashboard_sessions: 1,
      sandbox_messages: 1,
      sandbox_operations: 1,
      media_blobs: 1,
    });
    expect((await db.rows<{ id: string }>('SELECT id FROM dashboard_links ORDER BY id')).map((row) => row.id)).toEqual([
      'lnk_open',
      'lnk_used_recent',
    ]);
    expect((await db.rows<{ id: string }>('SELECT id FROM dashboard_sessions ORDER BY id')).map((row) => row.id)).toEqual(['ses_live']);
    expect((await db.rows<{ id: string }>('SELECT id FROM sandbox_messages WHERE instance_id = $1', [id])).map((row) => row.id)).toEqual([
      'S_NEW',
    ]);
    expect(
      (await db.rows<{ name: string }>('SELECT name FROM sandbox_operations WHERE instance_id = $1', [id])).map((row) => row.name),
    ).toEqual(['new']);
    expect(
      (await db.rows<{ id: string }>('SELECT id FROM media_blobs WHERE instance_id = $1 ORDER BY id', [id])).map((row) => row.id),
    ).toEqual(['med_fresh', 'med_pending']);
  });

  async function partitionOf(table: string, event: StoredEvent): Promise<string> {
    const column = table === 'event_log' ? 'id' : 'event_id';
    const [row] = await db.rows<{ partition: string }>(`SELECT tableoid::regclass::text AS partition FROM ${table} WHERE ${column} = $1`, [
      event.envelope.eventId,
    ]);
    return row.partition;
  }
});
