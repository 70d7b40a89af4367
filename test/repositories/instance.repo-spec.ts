import { InstanceLifecycleRepository, InstanceRepository } from '@app/database';
import { EventAppendGroupCommit } from '../../libs/database/src/repositories/event-append-group-commit';
import { RepositoryDatabase, uniqueId } from './repository-database';

describe('InstanceRepository.list on PostgreSQL', () => {
  const db = new RepositoryDatabase();
  const instances = new InstanceRepository(db.prisma, db.box);

  afterAll(() => db.close());

  const scopeOf = async (instanceId: string) => {
    const [row] = await db.rows<{ customer_id: string }>('SELECT customer_id FROM instances WHERE id = $1', [instanceId]);
    return { customerId: row.customer_id };
  };
  const withoutVersion = <T extends { version: unknown }>({ version: _version, ...page }: T) => page;

  it('lists whole records, equal to what find reads through Prisma, with the total of the filter', async () => {
    const ids = await db.instances(3);
    const scope = await scopeOf(ids[0]);
    // Creation times given in microseconds, a setting with a secret, and one instance in another status.
    await db.rows(`UPDATE instances SET created_at = TIMESTAMP '2026-11-24 07:31:08.185999' + (interval '1 second' * $2) WHERE id = $1`, [
      ids[0],
      0,
    ]);
    await db.rows(`UPDATE instances SET created_at = TIMESTAMP '2026-11-24 07:31:08.1849' + (interval '1 second' * $2) WHERE id = $1`, [
      ids[1],
      1,
    ]);
    await db.rows(
      `UPDATE instances SET webhook_url = 'https://example.com/hook', event_signing_secret_enc = $2, event_filters = ARRAY['message'],
              status = 'connected', device_id = '15550000000:1@s.whatsapp.net' WHERE id = $1`,
      [ids[2], db.box.encrypt('whsec_repository')],
    );
    const found = await Promise.all(ids.map((id) => instances.find(scope, id)));
    const version = await instances.listVersion(scope);

    expect(await instances.list(scope, 0, 20)).toEqual({ items: found, totalCount: 3, version });
    expect((await instances.list(scope, 0, 20)).items.map((item) => item.createdAt.toISOString()).slice(0, 2)).toEqual([
      // The column keeps milliseconds (Prisma's timestamp(3)): PostgreSQL rounds what it is given.
      '2026-11-24T07:31:08.186Z',
      '2026-11-24T07:31:09.185Z',
    ]);
    expect(await instances.list(scope, 1, 1)).toEqual({ items: [found[1]], totalCount: 3, version });
    expect(await instances.list(scope, 0, 20, 'connected')).toEqual({ items: [found[2]], totalCount: 1, version });
    // A page past the end still reports the total; with no row to carry it, it has no version.
    expect(await instances.list(scope, 5, 20)).toEqual({ items: [], totalCount: 3, version: null });
    expect(await instances.list({ customerId: 'cus_nobody' }, 0, 20)).toEqual({ items: [], totalCount: 0, version: null });
  });

  it('raises the customer version with every change the list shows, and only that customer version', async () => {
    const [first, second] = await db.instances(2);
    const scope = await scopeOf(first);
    const [bystander] = await db.instances(1);
    const bystanderScope = await scopeOf(bystander);
    const bystanderVersion = await instances.listVersion(bystanderScope);
    const lifecycle = new InstanceLifecycleRepository(db.prisma, db.box);
    const events = new EventAppendGroupCommit(db.prisma.pool);
    const changes: [string, () => Promise<unknown>][] = [
      ['rename', () => instances.rename(scope, first, 'renamed')],
      [
        'settings',
        () => instances.updateSettings(scope, first, { webhookUrl: 'https://example.com/new', eventSigningSecret: 'whsec_new' }),
      ],
      ['event filters', () => instances.updateSettings(scope, first, { eventFilters: ['message'] })],
      ['status', () => lifecycle.setStatus(second, 'connected', '15550000001:1@s.whatsapp.net')],
      ['key', () => instances.replaceApiKey(scope, second, { hash: uniqueId('hash'), prefix: 'mgw_ik_x' })],
      [
        'create',
        () =>
          instances.createWithinLimit(
            scope,
            { id: uniqueId('ins_repo'), name: 'new', shard: 0, sandbox: true, apiKey: { hash: uniqueId('hash'), prefix: 'p' } },
            10,
          ),
      ],
      ['delete', () => instances.delete(scope, second)],
    ];
    for (const [label, change] of changes) {
      const before = await instances.listVersion(scope);
      const pageBefore = await instances.list(scope, 0, 20);
      await change();
      const after = await instances.listVersion(scope);
      const pageAfter = await instances.list(scope, 0, 20);
      expect({ label, raised: BigInt(after!) > BigInt(before!) }).toEqual({ label, raised: true });
      expect({ label, pageChanged: JSON.stringify(withoutVersion(pageAfter)) !== JSON.stringify(withoutVersion(pageBefore)) }).toEqual({
        label,
        pageChanged: true,
      });
      expect(pageAfter.version).toBe(after);
    }

    // Event numbering moves with every event append (the hot path), in its own table: the list's version does not.
    const before = await instances.listVersion(scope);
    await events.append({ instanceId: first, events: [{ eventType: 'message', data: { n: 1 } }], deliver: false, receivedAt: new Date() });
    const [{ last_seq }] = await db.rows<{ last_seq: string }>(
      'SELECT last_seq::text AS last_seq FROM event_counters WHERE instance_id = $1',
      [first],
    );
    expect(last_seq).toBe('1');
    expect(await instances.listVersion(scope)).toBe(before);
    expect(await instances.listVersion(bystanderScope)).toBe(bystanderVersion);
  });

  it('raises the version on an update of any column of instances but the update time', async () => {
    // The trigger names its columns (so that an update of updated_at alone skips it); a column added to instances must
    // be named there too, or a change to it would leave cached pages standing.
    const [{ watched }] = await db.rows<{ watched: string[] }>(
      `SELECT array_agg(a.attname::text ORDER BY a.attname) AS watched
         FROM pg_trigger t JOIN pg_attribute a ON a.attrelid = t.tgrelid AND a.attnum = ANY (t.tgattr::int2[])
        WHERE t.tgrelid = 'instances'::regclass AND t.tgname = 'instances_version_on_update'`,
    );
    const [{ columns }] = await db.rows<{ columns: string[] }>(
      `SELECT array_agg(attname::text ORDER BY attname) AS columns FROM pg_attribute
        WHERE attrelid = 'instances'::regclass AND attnum > 0 AND NOT attisdropped AND attname <> 'updated_at'`,
    );
    expect(watched).toEqual(columns);
  });

  it('reads the versions of many customers at once, each its own, null for an unknown customer', async () => {
    const [a] = await db.instances(1);
    const [b] = await db.instances(1);
    const [scopeA, scopeB] = [await scopeOf(a), await scopeOf(b)];
    await instances.rename(scopeA, a, 'one');
    await instances.rename(scopeA, a, 'two');
    const [versionA, versionB, again, unknown] = await Promise.all([
      instances.listVersion(scopeA),
      instances.listVersion(scopeB),
      instances.listVersion(scopeA),
      instances.listVersion({ customerId: 'cus_nobody' }),
    ]);
    const stored = async (customerId: string) =>
      (await db.rows<{ v: string }>('SELECT instances_version AS v FROM customers WHERE id = $1', [customerId]))[0].v;
    expect([versionA, versionB, again, unknown]).toEqual([
      await stored(scopeA.customerId),
      await stored(scopeB.customerId),
      versionA,
      null,
    ]);
    expect(BigInt(versionA!)).toBeGreaterThan(BigInt(versionB!));
  });
});
