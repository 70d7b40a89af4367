/**
 * A JSON value with its object keys in the order PostgreSQL's `jsonb` keeps them (shorter keys first, then by their
 * UTF-8 bytes), so a value serialised straight from memory reads byte for byte like the same value loaded from a
 * `jsonb` column. Webhook bodies rely on it: an event's first attempt is sent from memory, its retries from the row,
 * and every attempt of one `webhook-id` carries the same bytes.
 */
export function inStoredKeyOrder<T>(value: T): T {
  if (Array.isArray(value)) return value.map((item: unknown) => inStoredKeyOrder(item)) as T;
  if (value === null || typeof value !== 'object' || value instanceof Date) return value;
  const ordered: Record<string, unknown> = {};
  const source = value as Record<string, unknown>;
  for (const key of Object.keys(source).sort(compareStoredKeys)) ordered[key] = inStoredKeyOrder(source[key]);
  return ordered as T;
}

function compareStoredKeys(a: string, b: string): number {
  const aBytes = Buffer.byteLength(a);
  const bBytes = Buffer.byteLength(b);
  if (aBytes !== bBytes) return aBytes - bBytes;
  // ASCII-only keys (one byte per UTF-16 unit) compare the same as strings and as bytes.
  if (aBytes === a.length && bBytes === b.length) return a < b ? -1 : a > b ? 1 : 0;
  return Buffer.compare(Buffer.from(a, 'utf8'), Buffer.from(b, 'utf8'));
}
