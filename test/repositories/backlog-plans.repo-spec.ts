import { RECORD_ATTEMPTS_SQL } from '../../libs/database/src/repositories/delivery-batches';
import { RECORD_OUTCOMES_SQL } from '../../libs/database/src/repositories/outcome-group-commit';
import { ScratchDatabase } from './scratch-database';

interface PlanNode {
  'Node Type': string;
  'Relation Name'?: string;
  'Actual Rows'?: number;
  'Actual Loops'?: number;
  Plans?: PlanNode[];
}

const nodesOf = (node: PlanNode): PlanNode[] => [node, ...(node.Plans ?? []).flatMap(nodesOf)];

const BACKLOG = 20_000;

/**
 * Statements that record the outcome of one item of a large backlog (accepted sends, pending webhook deliveries) held
 * in a partition PostgreSQL has not analysed yet: what a burst leaves until autovacuum comes round. Planned as plain
 * joins, they read the whole backlog for each outcome (a one-instance drain fell to 75 sends/s, docs/scaling.md).
 */
describe('Backlog outcomes on partitions the planner has no statistics for', () => {
  const db = new ScratchDatabase('backlog_plans');
  let partition: string;
  let deliveries: string;

  /** The rows each scan of `relation` returned while `sql` ran (rolled back). */
  async function rowsRead(sql: string, values: unknown[], relation: string): Promise<[string, number | undefined][]> {
    const client = await db.prisma.pool.connect();
    try {
      await client.query('BEGIN');
      const { rows } = await client.query<{ 'QUERY PLAN': { Plan: PlanNode }[] }>(`EXPLAIN (ANALYZE, FORMAT JSON) ${sql}`, values);
      return nodesOf(rows[0]['QUERY PLAN'][0].Plan)
        .filter((node) => node['Relation Name'] === relation && (node['Actual Loops'] ?? 0) > 0)
        .map((node) => [node['Node Type'], node['Actual Rows']]);
    } finally {
      await client.query('ROLLBACK');
      client.release();
    }
  }

  beforeAll(async () => {
    await db.create();
    await db.migrate();
    await db.rows(`INSERT INTO customers (id, name) VALUES ('cus_plans', 'Plans')`);
    await db.rows(`INSERT INTO instances (id, customer_id, name, shard, updated_at) VALUES ('ins_plans', 'cus_plans', 'Plans', 0, now())`);
    await db.rows(
      `INSERT INTO messages (id, instance_id, seq, kind, chat_jid, payload) VALUES ('msg_0', 'ins_plans', 0, 'text', 'x@s.whatsapp.net', '{}')`,
    );
    [{ partition }] = await db.rows<{ partition: string }>(`SELECT tableoid::regclass::text AS partition FROM messages WHERE id = 'msg_0'`);
    // No autovacuum either: the statistics must stay missing for the length of the test.
    await db.rows(`ALTER TABLE ${partition} SET (autovacuum_enabled = false)`);
    await db.rows(`INSERT INTO messages (id, instance_id, seq, kind, chat_jid, payload)
      SELECT 'msg_' || g, 'ins_plans', g, 'text', 'x@s.whatsapp.net', '{}' FROM generate_series(1, ${BACKLOG}) g`);

    await db.rows(`INSERT INTO event_log (id, instance_id, seq, event_type, received_at, data)
      VALUES ('evt_0', 'ins_plans', 0, 'message', now() AT TIME ZONE 'UTC', '{}')`);
    await db.rows(`INSERT INTO webhook_deliveries (event_id, received_at, instance_id) SELECT id, received_at, instance_id FROM event_log`);
    [{ partition: deliveries }] = await db.rows<{ partition: string }>(
      `SELECT tableoid::regclass::text AS partition FROM webhook_deliveries WHERE event_id = 'evt_0'`,
    );
    const [{ partition: events }] = await db.rows<{ partition: string }>(`SELECT tableoid::regclass::text AS partition FROM event_log`);
    for (const table of [deliveries, events]) await db.rows(`ALTER TABLE ${table} SET (autovacuum_enabled = false)`);
    await db.rows(`INSERT INTO event_log (id, instance_id, seq, event_type, received_at, data)
      SELECT 'evt_' || g, 'ins_plans', g, 'message', now() AT TIME ZONE 'UTC', '{}' FROM generate_series(1, ${BACKLOG}) g`);
    await db.rows(`INSERT INTO webhook_deliveries (event_id, received_at, instance_id)
      SELECT id, received_at, instance_id FROM event_log WHERE id <> 'evt_0'`);
  });

  afterAll(() => db.drop());

  it('reads the message it records by id, not every accepted row, and records it', async () => {
    const input = [{ n: 0, message_id: 'msg_5000', instance_id: 'ins_plans', status: 'sent', error: null, shard: null, token: null }];
    const values = [JSON.stringify(input), new Date().toISOString(), '[]'];
    expect(await rowsRead(RECORD_OUTCOMES_SQL, values, partition)).toEqual([[expect.stringMatching(/Index Scan|Bitmap Heap Scan/), 1]]);

    const [recorded] = await db.rows<{ done: number[] }>(RECORD_OUTCOMES_SQL, values);
    expect(recorded.done).toEqual([0]);
    expect(await db.rows(`SELECT status FROM messages WHERE id = 'msg_5000'`)).toEqual([{ status: 'sent' }]);
  });

  it('reads the webhook delivery whose attempt it records by key, not every pending delivery', async () => {
    const [{ received_at: receivedAt }] = await db.rows<{ received_at: Date }>(
      `SELECT received_at AT TIME ZONE 'UTC' AS received_at FROM webhook_deliveries WHERE event_id = 'evt_5000'`,
    );
    const now = new Date().toISOString();
    const attempt = {
      n: 0,
      event_id: 'evt_5000',
      received_at: receivedAt.toISOString(),
      number: 1,
      url: 'https://hooks.example.com/in',
      started_at: now,
      duration_ms: 3,
      status_code: 200,
      outcome: 'delivered',
      error: null,
      state: 'delivered',
      schedule_step: 0,
      next_attempt_at: now,
      last_error: null,
    };
    const values = [JSON.stringify([attempt])];
    expect(await rowsRead(RECORD_ATTEMPTS_SQL, values, deliveries)).toEqual([[expect.stringMatching(/Index Scan|Bitmap Heap Scan/), 1]]);

    const [recorded] = await db.rows<{ moved: number[] }>(RECORD_ATTEMPTS_SQL, values);
    expect(recorded.moved).toEqual([0]);
  });
});
