import { randomUUID } from 'node:crypto';
import { Injectable } from '@nestjs/common';
import type { PoolClient } from 'pg';
import { PrismaService } from '../prisma.service';
import { dayName, partitionCovering, readPartitions, utcDay, type Partition } from './partition-bounds';

/**
 * The time-partitioned tables, by family. A family's tables share partition names and bounds and are created and
 * dropped together (a webhook delivery and its attempts live in the partition of their event's time), children first
 * when rows leave, parents first when partitions are attached.
 */
interface Family {
  name: 'events' | 'messages' | 'network_messages';
  /** Parent first. */
  tables: { table: string; column: string }[];
}

const FAMILIES: Family[] = [
  {
    name: 'events',
    tables: [
      { table: 'event_log', column: 'received_at' },
      { table: 'webhook_deliveries', column: 'received_at' },
      { table: 'webhook_attempts', column: 'received_at' },
      { table: 'sink_deliveries', column: 'received_at' },
      { table: 'sink_attempts', column: 'received_at' },
    ],
  },
  { name: 'messages', tables: [{ table: 'messages', column: 'accepted_at' }] },
  { name: 'network_messages', tables: [{ table: 'network_messages', column: 'created_at' }] },
];

/** The job's row in `maintenance_leases`: one worker of a fleet runs it at a time. */
export const PARTITION_MAINTENANCE_LEASE = 'partitions';
/** Longer than any run; bounds how long a holder that died keeps the job from running elsewhere. */
const MAINTENANCE_LEASE_MS = 30 * 60_000;

const LOCK_WAIT_MS = 200;
const LOCK_ATTEMPTS = 50;
const LOCK_NOT_AVAILABLE = '55P03';

/** Rows deleted per statement where rows (not partitions) are pruned: small tables and strays in DEFAULT partitions. */
const DELETE_BATCH = 5_000;

export interface RetentionPolicy {
  /** The clock (tests move it; the worker passes the time of the run). */
  now: Date;
  /** Daily partitions created ahead of today, so that inserts never land in the DEFAULT partition. */
  daysAhead: number;
  eventRetentionHours: number;
  messageRetentionDays: number;
  networkMessageRetentionHours: number;
  /** Used or expired dashboard links and expired dashboard sessions, this long after they stopped working. */
  dashboardRetentionDays: number;
  /** Simulated-network history of sandbox instances (messages, operations). */
  sandboxRetentionDays: number;
  /** Inline media no accepted send refers to any more, this long after it was stored. */
  orphanMediaRetentionHours: number;
}

export interface MaintenanceReport {
  /** False when another process holds the maintenance lock (it is doing the work). */
  ran: boolean;
  created: string[];
  dropped: string[];
  /** Expired partitions kept because something in them is still needed, with why. */
  kept: { partition: string; reason: string }[];
  /** Rows moved out of dropped `messages` partitions because they were still needed (accepted, not yet sent). */
  movedPendingMessages: number;
  /** Rows deleted, by table (small tables and DEFAULT partitions). */
  deleted: Record<string, number>;
}

/**
 * The project's own partition maintenance (no pg_partman, so any PostgreSQL 15+, managed ones included): creates the
 * daily partitions ahead, drops whole partitions past retention (never one holding a delivery still retrying; a
 * `messages` partition's sends not yet dispatched are moved to the DEFAULT partition first), and prunes the small
 * tables that grow. Exactly one process runs it at a time: it holds the job's row in `maintenance_leases` for the run
 * (released when the run ends; one left by a process that died expires), which works behind a transaction pooler too.
 */
@Injectable()
export class PartitionMaintenance {
  constructor(private readonly prisma: PrismaService) {}

  async run(policy: RetentionPolicy): Promise<MaintenanceReport> {
    const report: MaintenanceReport = { ran: false, created: [], dropped: [], kept: [], movedPendingMessages: 0, deleted: {} };
    const holder = randomUUID();
    if (!(await this.takeLease(holder))) return report;
    report.ran = true;
    try {
      const client = await this.prisma.pool.connect();
      try {
        for (const family of FAMILIES) await this.createAhead(client, family, policy, report);
        await this.dropExpiredEvents(client, policy, report);
        await this.dropExpiredMessages(client, policy, report);
        await this.dropExpiredNetworkMessages(client, policy, report);
        await this.pruneRows(client, policy, report);
      } finally {
        client.release();
      }
    } finally {
      await this.prisma.pool.query(`UPDATE maintenance_leases SET expires_at = clock_timestamp() WHERE name = $1 AND holder = $2`, [
        PARTITION_MAINTENANCE_LEASE,
        holder,
      ]);
    }
    return report;
  }

  /** Takes the job's lease row when it is free or expired (PostgreSQL's clock); one statement, so two takers never both win. */
  private async takeLease(holder: string): Promise<boolean> {
    const { rowCount } = await this.prisma.pool.query(
      `INSERT INTO maintenance_leases (name, holder, expires_at) VALUES ($1, $2, clock_timestamp() + $3 * interval '1 millisecond')
       ON CONFLICT (name) DO UPDATE SET holder = EXCLUDED.holder, expires_at = EXCLUDED.expires_at
       WHERE maintenance_leases.expires_at <= clock_timestamp()`,
      [PARTITION_MAINTENANCE_LEASE, holder, MAINTENANCE_LEASE_MS],
    );
    return rowCount === 1;
  }

  /** Today's partition and `daysAhead` more, for every table of the family (a day already covered is left alone). */
  private async createAhead(client: PoolClient, family: Family, policy: RetentionPolicy, report: MaintenanceReport): Promise<void> {
    const today = utcDay(policy.now);
    for (let offset = 0; offset <= policy.daysAhead; offset += 1) {
      const from = new Date(today.getTime() + offset * 86_400_000);
      const to = new Date(from.getTime() + 86_400_000);
      const existing = await readPartitions(client, family.tables[0].table);
      if (partitionCovering(existing, from, to)) continue;
      await this.createDay(client, family, from, to);
      report.created.push(...family.tables.map(({ table }) => `${table}_${dayName(from)}`));
    }
  }

  /**
   * One day's partition of every table of the family, in one transaction. Rows of that day that went to the DEFAULT
   * partition meanwhile (the job did not run for days, a skewed clock) move into the new partition first, children
   * before parents so no cascade touches them; PostgreSQL would otherwise refuse the new partition.
   */
  private async createDay(client: PoolClient, family: Family, from: Date, to: Date): Promise<void> {
    const suffix = dayName(from);
    const range = [from.toISOString(), to.toISOString()];
    await transaction(client, family.tables, 'SHARE ROW EXCLUSIVE', async () => {
      for (const { table, column } of [...family.tables].reverse()) {
        const partition = `${table}_${suffix}`;
        await client.query(`CREATE TABLE ${ident(partition)} (LIKE ${ident(table)})`);
        await client.query(
          `WITH moved AS (DELETE FROM ${ident(`${table}_default`)} WHERE ${ident(column)} >= $1::timestamptz AT TIME ZONE 'UTC'
             AND ${ident(column)} < $2::timestamptz AT TIME ZONE 'UTC' RETURNING *)
           INSERT INTO ${ident(partition)} SELECT * FROM moved`,
          range,
        );
      }
      for (const { table } of family.tables) {
        await client.query(
          `ALTER TABLE ${ident(table)} ATTACH PARTITION ${ident(`${table}_${suffix}`)} FOR VALUES FROM (${literal(from)}) TO (${literal(to)})`,
        );
      }
    });
  }

  /**
   * Event partitions (with their deliveries and attempts) whose newest possible event is past retention, oldest first.
   * One holding a delivery still pending stops the run there: it and every newer partition stay until it settles, so
   * what is kept of an instance's log stays contiguous in `seq` (pull mode's gap detection relies on it).
   */
  private async dropExpiredEvents(client: PoolClient, policy: RetentionPolicy, report: MaintenanceReport): Promise<void> {
    const cutoff = new Date(policy.now.getTime() - policy.eventRetentionHours * 3_600_000);
    for (const partition of await expired(client, 'event_log', cutoff)) {
      const suffix = partition.name.slice('event_log_'.length);
      const { rows } = await client.query<{ pending: boolean }>(
        `SELECT EXISTS (SELECT 1 FROM ${ident(`webhook_deliveries_${suffix}`)} WHERE state = 'pending')
             OR EXISTS (SELECT 1 FROM ${ident(`sink_deliveries_${suffix}`)} WHERE state = 'pending') AS pending`,
      );
      if (rows[0].pending) {
        report.kept.push({ partition: partition.name, reason: 'webhook or sink deliveries still retrying' });
        return;
      }
      await this.dropFamily(client, FAMILIES[0], suffix, report);
    }
  }

  /**
   * Expired `messages` partitions; sends in them still waiting to go out move to the DEFAULT partition first. Their
   * idempotency keys go afterwards, in batches (`pruneRows`), once no kept message names them.
   */
  private async dropExpiredMessages(client: PoolClient, policy: RetentionPolicy, report: MaintenanceReport): Promise<void> {
    const cutoff = new Date(policy.now.getTime() - policy.messageRetentionDays * 86_400_000);
    for (const partition of await expired(client, 'messages', cutoff)) {
      await transaction(client, FAMILIES[1].tables, 'ACCESS EXCLUSIVE', async () => {
        await client.query(`ALTER TABLE messages DETACH PARTITION ${ident(partition.name)}`);
        // The range is no longer covered, so PostgreSQL routes these rows to the DEFAULT partition.
        const moved = await client.query(`INSERT INTO messages SELECT * FROM ${ident(partition.name)} WHERE status = 'accepted'`);
        report.movedPendingMessages += moved.rowCount ?? 0;
        await client.query(`DROP TABLE ${ident(partition.name)}`);
      });
      report.dropped.push(partition.name);
    }
  }

  private async dropExpiredNetworkMessages(client: PoolClient, policy: RetentionPolicy, report: MaintenanceReport): Promise<void> {
    const cutoff = new Date(policy.now.getTime() - policy.networkMessageRetentionHours * 3_600_000);
    for (const partition of await expired(client, 'network_messages', cutoff)) {
      await this.dropFamily(client, FAMILIES[2], partition.name.slice('network_messages_'.length), report);
    }
  }

  /** Detaches and drops one partition of every table of the family, children first, in one transaction. */
  private async dropFamily(client: PoolClient, family: Family, suffix: string, report: MaintenanceReport): Promise<void> {
    const names = [...family.tables].reverse().map(({ table }) => ({ table, partition: `${table}_${suffix}` }));
    await transaction(client, family.tables, 'ACCESS EXCLUSIVE', async () => {
      for (const { table, partition } of names) {
        // Detached before it is dropped: a partition that a foreign key references cannot be dropped while attached.
        await client.query(`ALTER TABLE ${ident(table)} DETACH PARTITION ${ident(partition)}`);
        await client.query(`DROP TABLE ${ident(partition)}`);
      }
    });
    report.dropped.push(...names.map(({ partition }) => partition));
  }

  /** Row-by-row pruning where partitions do not apply: strays in DEFAULT partitions and the small tables. */
  private async pruneRows(client: PoolClient, policy: RetentionPolicy, report: MaintenanceReport): Promise<void> {
    const now = policy.now.getTime();
    const at = (ms: number) => new Date(now - ms).toISOString();
    const hours = (h: number) => at(h * 3_600_000);
    const days = (d: number) => at(d * 86_400_000);
    // Only plain tables and DEFAULT partitions (each one table), so a row's ctid names it.
    const prune = async (table: string, where: string, cutoff: string) => {
      let total = 0;
      for (;;) {
        const { rowCount } = await client.query(
          `DELETE FROM ${ident(table)} WHERE ctid = ANY (ARRAY(SELECT ctid FROM ${ident(table)} WHERE ${where} LIMIT ${DELETE_BATCH}))`,
          [cutoff],
        );
        total += rowCount ?? 0;
        if ((rowCount ?? 0) < DELETE_BATCH) break;
      }
      if (total > 0) report.deleted[table] = (report.deleted[table] ?? 0) + total;
    };
    const before = (column: string) => `${column} < $1::timestamptz AT TIME ZONE 'UTC'`;

    // DEFAULT partitions hold only rows outside every partition's range: past the oldest kept day, or far ahead.
    await prune(
      'event_log_default',
      `${before('received_at')} AND NOT EXISTS (SELECT 1 FROM webhook_deliveries d
         WHERE d.event_id = event_log_default.id AND d.received_at = event_log_default.received_at AND d.state = 'pending')
         AND NOT EXISTS (SELECT 1 FROM sink_deliveries s
         WHERE s.event_id = event_log_default.id AND s.received_at = event_log_default.received_at AND s.state = 'pending')`,
      hours(policy.eventRetentionHours),
    );
    // Keys of the messages about to go, then the messages (still-accepted ones stay).
    await prune(
      'message_idempotency_keys',
      `${before('created_at')} AND NOT EXISTS (SELECT 1 FROM messages m
         WHERE m.instance_id = message_idempotency_keys.instance_id AND m.id = message_idempotency_keys.message_id
           AND (m.status = 'accepted' OR m.accepted_at >= $1::timestamptz AT TIME ZONE 'UTC'))`,
      days(policy.messageRetentionDays),
    );
    await prune('messages_default', `${before('accepted_at')} AND status <> 'accepted'`, days(policy.messageRetentionDays));
    await prune('network_messages_default', before('created_at'), hours(policy.networkMessageRetentionHours));

    await prune(
      'dashboard_links',
      `(used_at < $1::timestamptz AT TIME ZONE 'UTC' OR expires_at < $1::timestamptz AT TIME ZONE 'UTC')`,
      days(policy.dashboardRetentionDays),
    );
    await prune('dashboard_sessions', before('expires_at'), days(policy.dashboardRetentionDays));
    await prune('sandbox_messages', before('at'), days(policy.sandboxRetentionDays));
    await prune('sandbox_operations', before('at'), days(policy.sandboxRetentionDays));
    await prune(
      'media_blobs',
      `${before('created_at')} AND NOT EXISTS (SELECT 1 FROM messages m WHERE m.instance_id = media_blobs.instance_id
         AND m.status = 'accepted' AND m.payload->'media'->>'blobId' = media_blobs.id)`,
      hours(policy.orphanMediaRetentionHours),
    );
  }
}

/** The table's partitions whose whole range lies before `cutoff`, oldest first (never the DEFAULT partition). */
async function expired(client: PoolClient, table: string, cutoff: Date): Promise<Partition[]> {
  const partitions = await readPartitions(client, table);
  return partitions.filter((partition) => partition.to !== null && partition.to.getTime() <= cutoff.getTime());
}

/**
 * Runs `work` in a transaction that first takes the locks its DDL will need, in the order the hot statements take them:
 * `instances` (every history table has a foreign key to it: attaching a partition takes it SHARE ROW EXCLUSIVE,
 * dropping one ACCESS EXCLUSIVE, for a moment), then the family's tables, parents first. It waits at most
 * `LOCK_WAIT_MS` for them, well below PostgreSQL's deadlock timeout (1 s): should a statement holding one of them wait
 * for another the job holds, the job gives way (rolls back, tries again shortly) before a deadlock could fail that
 * statement, and nothing queues behind the job for long.
 */
async function transaction(
  client: PoolClient,
  tables: { table: string }[],
  instancesMode: 'SHARE ROW EXCLUSIVE' | 'ACCESS EXCLUSIVE',
  work: () => Promise<void>,
): Promise<void> {
  for (let attempt = 1; ; attempt += 1) {
    await client.query('BEGIN');
    try {
      await client.query(`SET LOCAL lock_timeout = '${LOCK_WAIT_MS}ms'`);
      await client.query(`LOCK TABLE instances IN ${instancesMode} MODE`);
      await client.query(`LOCK TABLE ${tables.map(({ table }) => ident(table)).join(', ')} IN ACCESS EXCLUSIVE MODE`);
      await client.query('SET LOCAL lock_timeout = 0');
      await work();
      await client.query('COMMIT');
      return;
    } catch (error) {
      await client.query('ROLLBACK');
      if ((error as { code?: string }).code !== LOCK_NOT_AVAILABLE || attempt >= LOCK_ATTEMPTS) throw error;
      await new Promise((resolve) => setTimeout(resolve, 50 + Math.random() * 200));
    }
  }
}

function ident(name: string): string {
  if (!/^[a-z_][a-z0-9_]*$/.test(name)) throw new Error(`unexpected identifier ${name}`);
  return `"${name}"`;
}

/** A partition bound: the UTC wall-clock time, as the `timestamp(3)` columns hold it. */
function literal(at: Date): string {
  return `'${at.toISOString().replace('T', ' ').replace('Z', '')}'`;
}
