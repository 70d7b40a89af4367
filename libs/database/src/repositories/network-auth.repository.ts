import { Injectable } from '@nestjs/common';
import { SecretBox } from '@app/security';
import { PrismaService } from '../prisma.service';
import { FencedOutError, fenceHolds, type Fence } from './fence';

/** One key write of a Signal key store `set` call; `value: null` deletes the key. */
export interface NetworkKeyWrite {
  type: string;
  id: string;
  value: string | null;
}

/**
 * The real network's auth state of an instance, in PostgreSQL only (never on local disk), so any worker can take the
 * instance over. Values are opaque serialised JSON to this layer; each is encrypted at rest.
 */
const DEADLOCK_RETRIES = 5;

/** Prisma's "write conflict or deadlock" (P2034), or PostgreSQL's deadlock / serialization failure codes. */
function isWriteConflict(error: unknown): boolean {
  const code = (error as { code?: unknown }).code;
  const text = error instanceof Error ? error.message : '';
  return (
    code === 'P2034' ||
    /deadlock|40P01|40001/.test(text) ||
    /deadlock|40P01|40001/.test(JSON.stringify((error as { meta?: unknown }).meta ?? ''))
  );
}

@Injectable()
export class NetworkAuthRepository {
  constructor(
    private readonly prisma: PrismaService,
    private readonly box: SecretBox,
  ) {}

  async credentials(instanceId: string): Promise<string | null> {
    const row = await this.prisma.networkCredentials.findUnique({ where: { instanceId }, select: { data: true } });
    return row ? this.box.decrypt(row.data) : null;
  }

  /**
   * Saves the whole credentials object; the last write wins. With a `fence`, PostgreSQL writes it only while that lease is
   * the shard's current one, in the same statement; otherwise nothing is written and FencedOutError is thrown.
   */
  async saveCredentials(instanceId: string, json: string, fence?: Fence): Promise<void> {
    const data = this.box.encrypt(json);
    if (!fence) {
      await this.prisma.networkCredentials.upsert({ where: { instanceId }, create: { instanceId, data }, update: { data } });
      return;
    }
    const { rowCount } = await this.prisma.pool.query(
      `INSERT INTO network_credentials (instance_id, data, updated_at) SELECT $1, $2, now() WHERE ${fenceHolds('$3', '$4')}
       ON CONFLICT (instance_id) DO UPDATE SET data = EXCLUDED.data, updated_at = now()`,
      [instanceId, data, fence.shard, fence.token],
    );
    if (rowCount !== 1) throw new FencedOutError(fence);
  }

  /** The stored values of the given keys of one type; missing keys are absent from the map. */
  async keys(instanceId: string, type: string, ids: string[]): Promise<Map<string, string>> {
    if (ids.length === 0) return new Map();
    const rows = await this.prisma.networkKey.findMany({
      where: { instanceId, type, keyId: { in: ids } },
      select: { keyId: true, value: true },
    });
    return new Map(rows.map((row) => [row.keyId, this.box.decrypt(row.value)]));
  }

  /**
   * Applies one `set` call in one transaction: native upserts (INSERT ... ON CONFLICT, never read-modify-write, so
   * concurrent calls cannot lose or tear each other's writes) and deletes for nulls. Within a call the last write
   * of a key wins.
   */
  async writeKeys(instanceId: string, writes: NetworkKeyWrite[], fence?: Fence): Promise<void> {
    const last = new Map<string, NetworkKeyWrite>();
    for (const write of writes) last.set(`${write.type}\u0000${write.id}`, write);
    // Rows are locked in one order by every writer, which keeps concurrent calls from deadlocking in most cases.
    const ordered = [...last.entries()].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)).map(([, write]) => write);
    const upserts = ordered.filter((write) => write.value !== null);
    const deletes = ordered.filter((write) => write.value === null);
    if (upserts.length === 0 && deletes.length === 0) return;
    for (let attempt = 1; ; attempt++) {
      try {
        return await this.applyKeyWrites(instanceId, upserts, deletes, fence);
      } catch (error) {
        // Upserts and deletes of overlapping keys by two calls can still deadlock; PostgreSQL aborts one, which retries.
        if (attempt >= DEADLOCK_RETRIES || !isWriteConflict(error)) throw error;
      }
    }
  }

  /**
   * One statement for the upserts and the deletes, so the fence (when given) is checked once for both: either the whole
   * `set` call lands under the current lease or nothing of it does (FencedOutError).
   */
  private async applyKeyWrites(instanceId: string, upserts: NetworkKeyWrite[], deletes: NetworkKeyWrite[], fence?: Fence): Promise<void> {
    const { rows } = await this.prisma.pool.query<{ allowed: boolean }>(
      `WITH allowed AS (SELECT ${fence ? fenceHolds('$7', '$8') : 'true'} AS ok), upserted AS (
         INSERT INTO network_keys (instance_id, type, key_id, value, updated_at)
         SELECT $1, t.type, t.key_id, t.value, now()
         FROM unnest($2::text[], $3::text[], $4::text[]) AS t(type, key_id, value) WHERE (SELECT ok FROM allowed)
         ON CONFLICT (instance_id, type, key_id) DO UPDATE SET value = EXCLUDED.value, updated_at = now()
       ), deleted AS (
         DELETE FROM network_keys k USING unnest($5::text[], $6::text[]) AS d(type, key_id)
         WHERE (SELECT ok FROM allowed) AND k.instance_id = $1 AND k.type = d.type AND k.key_id = d.key_id
       )
       SELECT ok AS allowed FROM allowed`,
      [
        instanceId,
        upserts.map((w) => w.type),
        upserts.map((w) => w.id),
        upserts.map((w) => this.box.encrypt(w.value as string)),
        deletes.map((w) => w.type),
        deletes.map((w) => w.id),
        ...(fence ? [fence.shard, fence.token] : []),
      ],
    );
    if (fence && !rows[0]?.allowed) throw new FencedOutError(fence);
  }

  /** Forgets the instance's credentials and keys (logged out: they can never be used again). */
  async clear(instanceId: string): Promise<void> {
    await this.prisma.$transaction([
      this.prisma.networkKey.deleteMany({ where: { instanceId } }),
      this.prisma.networkCredentials.deleteMany({ where: { instanceId } }),
    ]);
  }
}
