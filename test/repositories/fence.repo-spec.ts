import { Client } from 'pg';
import {
  FencedOutError,
  InstanceLifecycleRepository,
  MessageRepository,
  NetworkAuthRepository,
  ShardLeaseRepository,
  type Fence,
} from '@app/database';
import { EventAppendGroupCommit } from '../../libs/database/src/repositories/event-append-group-commit';
import { OutcomeGroupCommit } from '../../libs/database/src/repositories/outcome-group-commit';
import { testConfig, testEnv } from '../support/environment';
import { RepositoryDatabase, uniqueId } from './repository-database';
import { deliveryRows, eventRows } from './stored-rows';

// Shards far above any SHARD_COUNT the other suites use, so these leases never meet theirs.
let nextShard = 9_000 + Math.floor(Math.random() * 100_000);

describe('fenced writes on PostgreSQL (a lease that passed on cannot change what the next owner relies on)', () => {
  const db = new RepositoryDatabase();
  const leases = new ShardLeaseRepository(testConfig());
  const messages = new MessageRepository(db.prisma);
  const auth = new NetworkAuthRepository(db.prisma, db.box);
  const lifecycle = new InstanceLifecycleRepository(db.prisma, db.box);
  const usedShards: number[] = [];

  afterAll(async () => {
    await db.rows('DELETE FROM shard_leases WHERE shard = ANY($1::int[])', [usedShards]);
    await leases.onModuleDestroy();
    await db.close();
  });

  /** A shard held by worker `old`, then taken over by worker `new` (the old lease expired): both fences. */
  async function takenOver(): Promise<{ stale: Fence; current: Fence }> {
    const shard = nextShard++;
    usedShards.push(shard);
    const [old] = await leases.acquire('old', [shard], 1, 60_000);
    await db.rows(`UPDATE shard_leases SET expires_at = clock_timestamp() - interval '1 ms' WHERE shard = $1`, [shard]);
    const [current] = await leases.acquire('new', [shard], 1, 60_000);
    expect(current.token).toBeGreaterThan(old.token);
    return { stale: old, current };
  }

  async function acceptAll(instanceId: string, count: number): Promise<string[]> {
    const ids = Array.from({ length: count }, () => uniqueId('msg'));
    for (const id of ids) await messages.accept(instanceId, { id, kind: 'text', chatJid: '1@s.whatsapp.net', payload: { text: id } });
    return ids;
  }

  it('refuses credentials and Signal key writes under a stale token, and changes nothing', async () => {
    const [instance] = await db.instances(1);
    const { stale, current } = await takenOver();
    await auth.saveCredentials(instance, '{"v":"new owner"}', current);
    await auth.writeKeys(instance, [{ type: 'session', id: 'a', value: '"new owner"' }], current);

    await expect(auth.saveCredentials(instance, '{"v":"old owner"}', stale)).rejects.toEqual(new FencedOutError(stale));
    await expect(
      auth.writeKeys(
        instance,
        [
          { type: 'session', id: 'a', value: '"old owner"' },
          { type: 'pre-key', id: '1', value: '"old owner"' },
        ],
        stale,
      ),
    ).rejects.toBeInstanceOf(FencedOutError);
    await expect(auth.writeKeys(instance, [{ type: 'session', id: 'a', value: null }], stale)).rejects.toBeInstanceOf(FencedOutError);

    expect(await auth.credentials(instance)).toBe('{"v":"new owner"}');
    expect(Object.fromEntries(await auth.keys(instance, 'session', ['a']))).toEqual({ a: '"new owner"' });
    expect(await auth.keys(instance, 'pre-key', ['1'])).toEqual(new Map());
  });

  it("refuses a status write under a stale token: the old owner cannot mark the new owner's live link disconnected", async () => {
    const [instance] = await db.instances(1);
    const { stale, current } = await takenOver();
    await lifecycle.setStatus(instance, 'connected', '447700900300:1@s.whatsapp.net', current);
    const written = await lifecycle.find(instance);

    await expect(lifecycle.setStatus(instance, 'disconnected', undefined, stale)).rejects.toEqual(new FencedOutError(stale));
    await expect(lifecycle.setStatus(instance, 'unpaired', null, stale)).rejects.toEqual(new FencedOutError(stale));

    expect(await lifecycle.find(instance)).toEqual(written);
    expect(written).toMatchObject({ status: 'connected', deviceId: '447700900300:1@s.whatsapp.net' });
    // Under the current token `deviceId: undefined` keeps the stored device, as without a fence.
    await lifecycle.setStatus(instance, 'disconnected', undefined, current);
    expect(await lifecycle.find(instance)).toMatchObject({ status: 'disconnected', deviceId: '447700900300:1@s.whatsapp.net' });
  });

  it('in a batched outcome commit fails only the fenced-out outcome, with FencedOutError; the rest is recorded', async () => {
    const [instance] = await db.instances(1);
    const [first, fenced, last] = await acceptAll(instance, 3);
    const { stale, current } = await takenOver();
    const group = new OutcomeGroupCommit(db.prisma.pool);
    const outcome = (messageId: string, fence: Fence) => ({
      instanceId: instance,
      messageId,
      outcome: { status: 'sent' as const },
      events: [{ eventType: 'message_status' as const, data: { id: messageId, status: 'sent' } }],
      deliver: true,
      fence,
    });

    const results = await Promise.allSettled([
      group.record(outcome(first, current)),
      group.record(outcome(fenced, stale)),
      group.record(outcome(last, current)),
    ]);

    expect(results.map((result) => result.status)).toEqual(['fulfilled', 'rejected', 'fulfilled']);
    expect((results[1] as PromiseRejectedResult).reason).toEqual(new FencedOutError(stale));
    expect(
      await db.rows('SELECT id, status::text AS status FROM messages WHERE instance_id = $1 ORDER BY messages.seq', [instance]),
    ).toEqual([
      { id: first, status: 'sent' },
      { id: fenced, status: 'accepted' },
      { id: last, status: 'sent' },
    ]);
    const events = await eventRows(db, instance);
    expect(events.map((row) => [row.seq, row.data.id])).toEqual([
      ['1', first],
      ['2', last],
    ]);
    expect((await deliveryRows(db, instance)).map((row) => row.event_id)).toEqual(events.map((row) => row.id));
  });

  it('in a batched event append fails only the fenced-out request; the rest is appended in order', async () => {
    const [instance] = await db.instances(1);
    const { stale, current } = await takenOver();
    const group = new EventAppendGroupCommit(db.prisma.pool);
    const request = (tag: string, fence?: Fence) => ({
      instanceId: instance,
      events: [{ eventType: 'message' as const, data: { tag } }],
      deliver: false,
      receivedAt: new Date(),
      fence,
    });

    const results = await Promise.allSettled([
      group.append(request('current', current)),
      group.append(request('stale', stale)),
      group.append(request('unfenced (the API)')),
    ]);

    expect(results.map((result) => result.status)).toEqual(['fulfilled', 'rejected', 'fulfilled']);
    expect((results[1] as PromiseRejectedResult).reason).toEqual(new FencedOutError(stale));
    expect((await eventRows(db, instance)).map((row) => [row.seq, row.data.tag])).toEqual([
      ['1', 'current'],
      ['2', 'unfenced (the API)'],
    ]);
  });

  it('claims a message for sending once per lease: never under a stale token, again only under a newer one', async () => {
    const [instance] = await db.instances(1);
    const [message, done] = await acceptAll(instance, 2);
    const shard = nextShard++;
    usedShards.push(shard);
    const [first] = await leases.acquire('first', [shard], 1, 60_000);

    expect(await messages.claim(instance, message, first)).toBe(true);
    // The owner died after the network took it: the next owner claims it again (and sends it under the same id).
    await db.rows(`UPDATE shard_leases SET expires_at = clock_timestamp() - interval '1 ms' WHERE shard = $1`, [shard]);
    const [second] = await leases.acquire('second', [shard], 1, 60_000);
    await expect(messages.claim(instance, message, first)).rejects.toEqual(new FencedOutError(first));
    expect(await messages.claim(instance, message, second)).toBe(true);
    expect(await db.rows('SELECT claimed_token::int AS token FROM messages WHERE id = $1', [message])).toEqual([{ token: second.token }]);

    // Recorded: nobody claims it any more.
    await messages.recordOutcome(instance, done, { status: 'sent' }, [], { deliver: false, fence: second });
    expect(await messages.claim(instance, done, second)).toBe(false);
  });

  it('lets no acquire pass a fenced write still in flight: the row it locked is skipped until that write commits', async () => {
    const shard = nextShard++;
    usedShards.push(shard);
    const [held] = await leases.acquire('writer', [shard], 1, 60_000);
    await db.rows(`UPDATE shard_leases SET expires_at = clock_timestamp() - interval '1 ms' WHERE shard = $1`, [shard]);
    const writer = new Client({ connectionString: testEnv().DATABASE_URL });
    await writer.connect();
    try {
      await writer.query('BEGIN');
      // What every fenced statement does (fence.ts), left open as if its write were still running.
      const { rowCount } = await writer.query('SELECT 1 FROM shard_leases WHERE shard = $1 AND token = $2 FOR KEY SHARE', [
        shard,
        held.token,
      ]);
      expect(rowCount).toBe(1);
      expect(await leases.acquire('successor', [shard], 1, 60_000)).toEqual([]);
      await writer.query('COMMIT');
    } finally {
      await writer.end();
    }
    const [taken] = await leases.acquire('successor', [shard], 1, 60_000);
    expect(taken).toEqual({ shard, token: expect.any(Number) });
    expect(taken.token).toBeGreaterThan(held.token);
  });
});
