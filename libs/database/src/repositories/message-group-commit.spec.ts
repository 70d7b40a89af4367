import fc from 'fast-check';
import { DatabaseError } from 'pg';
import { GroupCommitMismatch, MessageGroupCommit, type GroupCommitMessage } from './message-group-commit';
import type { Queryable } from './statement-batcher';

interface Row {
  id: string;
  instanceId: string;
  seq: number;
  key: string | null;
  hash: string | null;
  payload: string;
}

/**
 * PostgreSQL as far as the two statements go: the counter, the unique (instance, idempotency key), ON CONFLICT DO
 * NOTHING, jsonb refusing \u0000, and a commit that is visible only when the statement returns.
 */
class FakeDatabase {
  readonly rows: Row[] = [];
  readonly statements: { name: string; size: number }[] = [];
  private readonly counters = new Map<string, number>();
  failNext: Error | undefined;

  constructor(private readonly latency: () => Promise<void> = () => new Promise((resolve) => setImmediate(resolve))) {}

  readonly query = (async (statement: string | { text: string; values: unknown[] }, given?: unknown[]) => {
    const { text, values } = typeof statement === 'string' ? { text: statement, values: given ?? [] } : statement;
    const [instanceId, ...columns] = values as [string, ...unknown[]];
    const name = text.includes('INSERT INTO messages') ? 'insert' : 'find';
    this.statements.push({ name, size: Array.isArray(columns[0]) ? columns[0].length : 0 });
    await this.latency();
    if (this.failNext) {
      const error = this.failNext;
      this.failNext = undefined;
      throw error;
    }
    if (name === 'insert') {
      const [ids, , , payloads, keys, hashes] = columns as [string[], string[], string[], string[], (string | null)[], (string | null)[]];
      if (payloads.some((payload) => payload.includes('\\u0000'))) {
        const error = new DatabaseError('unsupported Unicode escape sequence', 0, 'error');
        error.code = '22P05';
        throw error;
      }
      const last = (this.counters.get(instanceId) ?? 0) + ids.length;
      this.counters.set(instanceId, last);
      const inserted: { id: string }[] = [];
      ids.forEach((id, index) => {
        const key = keys[index];
        if (key !== null && this.rows.some((row) => row.instanceId === instanceId && row.key === key)) return;
        this.rows.push({ id, instanceId, seq: last - ids.length + index + 1, key, hash: hashes[index], payload: payloads[index] });
        inserted.push({ id });
      });
      return { rows: inserted };
    }
    const [keys] = columns as [string[]];
    return {
      rows: this.rows
        .filter((row) => row.instanceId === instanceId && row.key !== null && keys.includes(row.key))
        .map((row) => ({ idempotency_key: row.key, id: row.id, request_hash: row.hash })),
    };
  }) as unknown as Queryable['query'];

  inserts(): number[] {
    return this.statements.filter((statement) => statement.name === 'insert').map((statement) => statement.size);
  }
}

let ids = 0;
function message(fields: Partial<GroupCommitMessage> = {}): GroupCommitMessage {
  ids += 1;
  return { id: `m${ids}`, kind: 'text', chatJid: '1@s.whatsapp.net', payload: { text: `t${ids}` }, ...fields };
}

describe('MessageGroupCommit', () => {
  it('commits concurrent accepts of one instance in one statement, in arrival order', async () => {
    const db = new FakeDatabase();
    const group = new MessageGroupCommit(db);
    const messages = Array.from({ length: 50 }, () => message());
    const results = await Promise.all(messages.map((m) => group.accept('i1', m)));
    expect(results).toEqual(messages.map((m) => ({ id: m.id, replayed: false })));
    expect(db.inserts()).toEqual([50]);
    expect(db.rows.map((row) => row.id)).toEqual(messages.map((m) => m.id));
    expect(db.rows.map((row) => row.seq)).toEqual(messages.map((_, index) => index + 1));
  });

  it('answers a request only once the statement that stored it has returned', async () => {
    let release!: () => void;
    const db = new FakeDatabase(() => new Promise<void>((resolve) => (release = resolve)));
    const group = new MessageGroupCommit(db);
    let settled = false;
    const accepted = group.accept('i1', message()).then(() => (settled = true));
    await new Promise((resolve) => setTimeout(resolve, 20));
    expect(db.inserts()).toEqual([1]);
    expect(settled).toBe(false);
    release();
    await accepted;
    expect(settled).toBe(true);
  });

  it('batches what arrives while a commit is under way, and keeps instances apart', async () => {
    const db = new FakeDatabase(() => new Promise((resolve) => setTimeout(resolve, 5)));
    const group = new MessageGroupCommit(db, { maxRows: 10 });
    const first = group.accept('i1', message());
    await new Promise((resolve) => setTimeout(resolve, 1));
    const more = Array.from({ length: 25 }, (_, index) => group.accept(index % 5 === 0 ? 'i2' : 'i1', message()));
    await Promise.all([first, ...more]);
    const seqs = (instanceId: string) => db.rows.filter((row) => row.instanceId === instanceId).map((row) => row.seq);
    expect(seqs('i1')).toEqual(Array.from({ length: 21 }, (_, index) => index + 1));
    expect(seqs('i2')).toEqual([1, 2, 3, 4, 5]);
    // i1: the first alone, then 20 in batches of at most 10; i2: its 5 together.
    expect(db.inserts().sort((a, b) => a - b)).toEqual([1, 5, 10, 10]);
  });

  it('stores the rest of a batch one by one when one message has data PostgreSQL refuses', async () => {
    const db = new FakeDatabase();
    const group = new MessageGroupCommit(db);
    const good1 = message();
    const bad = message({ payload: { text: 'nul \u0000' } });
    const good2 = message();
    const outcomes = await Promise.allSettled([good1, bad, good2].map((m) => group.accept('i1', m)));
    expect(outcomes.map((outcome) => outcome.status)).toEqual(['fulfilled', 'rejected', 'fulfilled']);
    expect((outcomes[1] as PromiseRejectedResult).reason).toBeInstanceOf(DatabaseError);
    expect(db.rows.map((row) => row.id)).toEqual([good1.id, good2.id]);
    expect(db.inserts()).toEqual([3, 1, 1, 1]);
  });

  it('fails the whole batch on a database error, and later accepts still go through', async () => {
    const db = new FakeDatabase();
    const group = new MessageGroupCommit(db);
    db.failNext = Object.assign(new Error('connection terminated'), { code: 'ECONNRESET' });
    const failed = await Promise.allSettled([message(), message()].map((m) => group.accept('i1', m)));
    expect(failed.map((outcome) => outcome.status)).toEqual(['rejected', 'rejected']);
    const later = message();
    await expect(group.accept('i1', later)).resolves.toEqual({ id: later.id, replayed: false });
    expect(db.rows.map((row) => row.id)).toEqual([later.id]);
  });

  it('keeps idempotency keys exact under any mix of concurrent and repeated requests', async () => {
    // Each request: an idempotency key (or none) and a body variant; requests arrive in waves of concurrent ones.
    const request = fc.record({ key: fc.option(fc.constantFrom('a', 'b', 'c'), { nil: undefined }), variant: fc.constantFrom(1, 2) });
    await fc.assert(
      fc.asyncProperty(fc.array(fc.array(request, { minLength: 1, maxLength: 12 }), { minLength: 1, maxLength: 5 }), async (waves) => {
        const db = new FakeDatabase(() => new Promise((resolve) => setTimeout(resolve, Math.random() * 2)));
        const group = new MessageGroupCommit(db, { maxRows: 4 });
        const firstOfKey = new Map<string, { variant: number; id: string }>();
        const arrivals: string[] = [];
        for (const wave of waves) {
          const sent = wave.map(({ key, variant }) => {
            const m = message({ idempotencyKey: key, requestHash: key === undefined ? undefined : `hash-${variant}` });
            arrivals.push(m.id);
            return { key, variant, m, outcome: group.accept('i1', m) };
          });
          const outcomes = await Promise.allSettled(sent.map((s) => s.outcome));
          sent.forEach(({ key, variant, m }, index) => {
            const outcome = outcomes[index];
            if (key === undefined) {
              expect(outcome).toEqual({ status: 'fulfilled', value: { id: m.id, replayed: false } });
              return;
            }
            const first = firstOfKey.get(key);
            if (!first) {
              // The first request with this key (in arrival order) creates the message.
              expect(outcome).toEqual({ status: 'fulfilled', value: { id: m.id, replayed: false } });
              firstOfKey.set(key, { variant, id: m.id });
            } else if (first.variant === variant) {
              expect(outcome).toEqual({ status: 'fulfilled', value: { id: first.id, replayed: true } });
            } else {
              expect(outcome.status).toBe('rejected');
              expect((outcome as PromiseRejectedResult).reason).toBeInstanceOf(GroupCommitMismatch);
            }
          });
        }
        // One row per key, rows in arrival order, seqs strictly increasing in that order.
        const keys = db.rows.map((row) => row.key).filter((key) => key !== null);
        expect(new Set(keys).size).toBe(keys.length);
        const stored = db.rows.map((row) => row.id);
        expect(stored).toEqual(arrivals.filter((id) => stored.includes(id)));
        const seqs = db.rows.map((row) => row.seq);
        expect(seqs).toEqual([...seqs].sort((a, b) => a - b));
        expect(new Set(seqs).size).toBe(seqs.length);
      }),
      { numRuns: 150 },
    );
  });
});
