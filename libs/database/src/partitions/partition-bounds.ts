import type { PoolClient } from 'pg';

/** One partition of a range-partitioned table; `from`/`to` null for MINVALUE/MAXVALUE, both null for DEFAULT. */
export interface Partition {
  name: string;
  isDefault: boolean;
  from: Date | null;
  to: Date | null;
}

/** The table's partitions as the catalog describes them, by lower bound (DEFAULT last). */
export async function readPartitions(client: Pick<PoolClient, 'query'>, table: string): Promise<Partition[]> {
  const { rows } = await client.query<{ name: string; bound: string }>(
    `SELECT c.relname AS name, pg_get_expr(c.relpartbound, c.oid) AS bound
     FROM pg_inherits i JOIN pg_class c ON c.oid = i.inhrelid WHERE i.inhparent = $1::regclass`,
    [table],
  );
  return rows.map((row) => parseBound(row.name, row.bound)).sort(byLowerBound);
}

/** Parses `FOR VALUES FROM ('2026-11-28 00:00:00') TO (…)`, `FROM (MINVALUE) …` or `DEFAULT`. */
export function parseBound(name: string, bound: string): Partition {
  if (bound === 'DEFAULT') return { name, isDefault: true, from: null, to: null };
  const match = /^FOR VALUES FROM \((.+)\) TO \((.+)\)$/.exec(bound);
  if (!match) throw new Error(`unexpected partition bound of ${name}: ${bound}`);
  return { name, isDefault: false, from: boundValue(match[1]), to: boundValue(match[2]) };
}

function boundValue(text: string): Date | null {
  if (text === 'MINVALUE' || text === 'MAXVALUE') return null;
  const match = /^'(\d{4}-\d{2}-\d{2}) (\d{2}:\d{2}:\d{2}(?:\.\d+)?)'$/.exec(text);
  if (!match) throw new Error(`unexpected partition bound value ${text}`);
  // The columns are timestamps without a zone holding UTC (Prisma's convention).
  return new Date(`${match[1]}T${match[2]}Z`);
}

function byLowerBound(a: Partition, b: Partition): number {
  if (a.isDefault !== b.isDefault) return a.isDefault ? 1 : -1;
  return (a.from?.getTime() ?? -Infinity) - (b.from?.getTime() ?? -Infinity);
}

/** Whether any partition's range overlaps [from, to). */
export function partitionCovering(partitions: Partition[], from: Date, to: Date): boolean {
  return partitions.some(
    (partition) =>
      !partition.isDefault &&
      (partition.from === null || partition.from.getTime() < to.getTime()) &&
      (partition.to === null || partition.to.getTime() > from.getTime()),
  );
}

/** Midnight UTC of the day `at` falls in. */
export function utcDay(at: Date): Date {
  return new Date(Date.UTC(at.getUTCFullYear(), at.getUTCMonth(), at.getUTCDate()));
}

/** The name suffix of a daily partition starting at `day`: `p20261128`. */
export function dayName(day: Date): string {
  return `p${day.toISOString().slice(0, 10).replace(/-/g, '')}`;
}
