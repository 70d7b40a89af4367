import { DatabaseError, type Pool } from 'pg';

/** The part of `pg.Pool` the batchers use, so tests can stand in for PostgreSQL. */
export type Queryable = Pick<Pool, 'query'>;

/** Deadlock or serialization failure: another statement locked the same rows in another order; safe to run again. */
const RETRYABLE = new Set(['40P01', '40001']);
const ATTEMPTS = 3;

/**
 * An error of a request's own data (a value PostgreSQL refuses, a constraint, a size limit) rather than of the
 * database or the connection: in a batch it is retried request by request so only the offending one fails.
 */
export function isDataError(error: unknown): boolean {
  return error instanceof DatabaseError && typeof error.code === 'string' && /^(22|23|54)/.test(error.code);
}

/**
 * A hot statement with a name: PostgreSQL prepares it once per pooled connection and plans it once, because planning
 * these CTEs costs more than running them.
 */
export interface NamedStatement {
  name: string;
  text: string;
}

/** Runs one autocommit statement, again (up to three times in all) when PostgreSQL aborted it as a deadlock victim. */
export async function queryRetrying<Row extends object>(db: Queryable, statement: NamedStatement, values: unknown[]): Promise<Row[]> {
  for (let attempt = 1; ; attempt += 1) {
    try {
      const { rows } = await db.query<Row>({ ...statement, values });
      return rows;
    } catch (error) {
      if (attempt >= ATTEMPTS || !(error instanceof DatabaseError) || !RETRYABLE.has(error.code ?? '')) throw error;
    }
  }
}

interface Waiter<T, R> {
  item: T;
  resolve: (result: R) => void;
  reject: (error: unknown) => void;
}

export interface BatchLimits<T> {
  /** Most weight in one batch; the first item always goes, however heavy. */
  maxWeight: number;
  /** An item's weight (1 when not given). */
  weight?: (item: T) => number;
}

/**
 * Collects the calls of one turn of the event loop (and those made while the previous batch runs) and runs them as one
 * statement, one batch at a time in arrival order. Each caller's promise settles with its own result once that
 * statement has committed (or failed: then nothing of it was written). When one item's data spoils a batch, the
 * others run again one by one, still in order, so only it fails.
 */
export class StatementBatcher<T, R> {
  private queue: Waiter<T, R>[] = [];
  private running = false;

  constructor(
    private readonly run: (items: T[]) => Promise<R[]>,
    private readonly limits: BatchLimits<T>,
  ) {}

  add(item: T): Promise<R> {
    return new Promise<R>((resolve, reject) => {
      this.queue.push({ item, resolve, reject });
      if (!this.running) {
        this.running = true;
        // After the current I/O phase, so calls that completed together go together from the first batch on.
        setImmediate(() => void this.drain());
      }
    });
  }

  private async drain(): Promise<void> {
    while (this.queue.length > 0) {
      const batch = this.queue.splice(0, this.batchSize());
      try {
        await this.settle(batch);
      } catch (error) {
        // Not expected (settle handles everything itself), but no caller may be left hanging and the batcher must go on.
        for (const waiter of batch) waiter.reject(error);
      }
    }
    this.running = false;
  }

  private batchSize(): number {
    const weigh = this.limits.weight ?? (() => 1);
    let weight = 0;
    let take = 0;
    while (take < this.queue.length) {
      const next = weigh(this.queue[take].item);
      if (take > 0 && weight + next > this.limits.maxWeight) break;
      weight += next;
      take += 1;
    }
    return take;
  }

  private async settle(batch: Waiter<T, R>[]): Promise<void> {
    try {
      const results = await this.run(batch.map((waiter) => waiter.item));
      batch.forEach((waiter, index) => waiter.resolve(results[index]));
    } catch (error) {
      if (batch.length > 1 && isDataError(error)) {
        for (const waiter of batch) await this.settle([waiter]);
        return;
      }
      for (const waiter of batch) waiter.reject(error);
    }
  }
}
