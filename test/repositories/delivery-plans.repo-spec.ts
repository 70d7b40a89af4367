import { LOAD_DELIVERIES_SQL, RECORD_ATTEMPTS_SQL } from '../../libs/database/src/repositories/delivery-batches';
import { ScratchDatabase } from './scratch-database';

interface PlanNode {
  'Node Type': string;
  'Relation Name'?: string;
  'Actual Loops'?: number;
  Plans?: PlanNode[];
}

const nodesOf = (node: PlanNode): PlanNode[] => [node, ...(node.Plans ?? []).flatMap(nodesOf)];

/**
 * The webhook deliverer's batch load on the partitioned tables as a deployment has them (a week of daily partitions),
 * on a database of its own. As a plain join the planner hashes the batch against a scan of every retained event, a
 * cost that grows with the table (the backlog delivery regression in docs/scaling.md).
 */
describe('Webhook delivery loads on partitioned tables', () => {
  const db = new ScratchDatabase('delivery_plans');

  beforeAll(async () => {
    await db.create();
    await db.migrate();
    await db.rows(`DO $$ DECLARE day date; BEGIN
      FOR back IN 1..6 LOOP
        day := (now() AT TIME ZONE 'UTC')::date - back;
        EXECUTE format('CREATE TABLE event_log_p%s PARTITION OF event_log FOR VALUES FROM (%L) TO (%L)', to_char(day, 'YYYYMMDD'), day, day + 1);
        EXECUTE format('CREATE TABLE webhook_deliveries_p%s PARTITION OF webhook_deliveries FOR VALUES FROM (%L) TO (%L)',
          to_char(day, 'YYYYMMDD'), day, day + 1);
      END LOOP;
    END $$`);
    await db.rows(`INSERT INTO customers (id, name) VALUES ('cus_plans', 'Plans')`);
    await db.rows(`INSERT INTO instances (id, customer_id, name, shard, updated_at) VALUES ('ins_plans', 'cus_plans', 'Plans', 0, now())`);
    // 20,000 events of one hour today with their deliveries: a busy instance's retained backlog.
    await db.rows(`INSERT INTO event_log (id, instance_id, seq, event_type, received_at, data)
      SELECT 'evt_' || g, 'ins_plans', g, 'message', date_trunc('day', now() AT TIME ZONE 'UTC') + interval '1 second' * (g % 3600),
             '{"text":"hi"}' FROM generate_series(1, 20000) g`);
    await db.rows(`INSERT INTO webhook_deliveries (event_id, received_at, instance_id) SELECT id, received_at, instance_id FROM event_log`);
    await db.rows('ANALYZE event_log, webhook_deliveries');
  });

  afterAll(() => db.drop());

  it('reads each event by its primary key, never by scanning the partition that holds them', async () => {
    const batch = Array.from({ length: 100 }, (_, i) => `evt_${5000 + i}`);
    const [{ 'QUERY PLAN': plan }] = await db.rows<{ 'QUERY PLAN': { Plan: PlanNode }[] }>(
      `EXPLAIN (FORMAT JSON) ${LOAD_DELIVERIES_SQL.replace('$1::text[]', `'{${batch.join(',')}}'::text[]`)}`,
    );
    const nodes = nodesOf(plan[0].Plan);
    const today = `event_log_p${new Date().toISOString().slice(0, 10).replaceAll('-', '')}`;
    // Empty partitions may show up as sequential scans that never run; the one holding the events is probed by key.
    expect(nodes.filter((node) => node['Relation Name'] === today).map((node) => node['Node Type'])).toEqual(['Index Scan']);
    expect(nodes.filter((node) => node['Node Type'] === 'Hash Join').length).toBe(0);

    const { rows } = await db.prisma.pool.query<{ event_id: string; event_type: string }>(LOAD_DELIVERIES_SQL, [batch]);
    expect(rows.map((row) => [row.event_id, row.event_type]).sort()).toEqual(batch.map((id) => [id, 'message']).sort());
  });

  it("records a batch of attempts touching only the partition of each delivery's event", async () => {
    const loaded = await db.rows<{ event_id: string; received_at: Date }>(
      `SELECT event_id, received_at AT TIME ZONE 'UTC' AS received_at FROM webhook_deliveries WHERE event_id = ANY($1::text[])`,
      [Array.from({ length: 100 }, (_, i) => `evt_${8000 + i}`)],
    );
    const input = loaded.map((row, n) => ({
      n,
      event_id: row.event_id,
      received_at: row.received_at.toISOString(),
      number: 1,
      url: 'https://hooks.example.com/in',
      started_at: new Date().toISOString(),
      duration_ms: 3,
      status_code: 200,
      outcome: 'delivered',
      error: null,
      state: 'delivered',
      schedule_step: 0,
      next_attempt_at: new Date().toISOString(),
      last_error: null,
    }));
    const client = await db.prisma.pool.connect();
    try {
      await client.query('BEGIN');
      const { rows } = await client.query<{ 'QUERY PLAN': { Plan: PlanNode }[] }>(
        `EXPLAIN (ANALYZE, FORMAT JSON) ${RECORD_ATTEMPTS_SQL.replace('$1::jsonb', `'${JSON.stringify(input)}'::jsonb`)}`,
      );
      const probed = nodesOf(rows[0]['QUERY PLAN'][0].Plan)
        .filter((node) => node['Relation Name']?.startsWith('webhook_deliveries_') && (node['Actual Loops'] ?? 0) > 0)
        .map((node) => node['Relation Name']);
      expect(probed).toEqual([`webhook_deliveries_p${new Date().toISOString().slice(0, 10).replaceAll('-', '')}`]);
    } finally {
      await client.query('ROLLBACK');
      client.release();
    }
  });
});
