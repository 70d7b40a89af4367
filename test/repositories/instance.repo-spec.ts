import { InstanceRepository } from '@app/database';
import { RepositoryDatabase } from './repository-database';

describe('InstanceRepository.list on PostgreSQL', () => {
  const db = new RepositoryDatabase();
  const instances = new InstanceRepository(db.prisma, db.box);

  afterAll(() => db.close());

  it('lists whole records, equal to what find reads through Prisma, with the total of the filter', async () => {
    const ids = await db.instances(3);
    const [customer] = await db.rows<{ customer_id: string }>('SELECT customer_id FROM instances WHERE id = $1', [ids[0]]);
    const scope = { customerId: customer.customer_id };
    // Creation times given in microseconds, a setting with a secret, and one instance in another status.
    await db.rows(`UPDATE instances SET created_at = TIMESTAMP '2026-11-24 07:31:08.185999' + (interval '1 second' * $2) WHERE id = $1`, [ids[0], 0]);
    await db.rows(`UPDATE instances SET created_at = TIMESTAMP '2026-11-24 07:31:08.1849' + (interval '1 second' * $2) WHERE id = $1`, [ids[1], 1]);
    await db.rows(
      `UPDATE instances SET webhook_url = 'https://example.com/hook', event_signing_secret_enc = $2, event_filters = ARRAY['message'],
              status = 'connected', device_id = '15550000000:1@s.whatsapp.net' WHERE id = $1`,
      [ids[2], db.box.encrypt('whsec_repository')],
    );
    const found = await Promise.all(ids.map((id) => instances.find(scope, id)));

    expect(await instances.list(scope, 0, 20)).toEqual({ items: found, totalCount: 3 });
    expect((await instances.list(scope, 0, 20)).items.map((item) => item.createdAt.toISOString()).slice(0, 2)).toEqual([
      // The column keeps milliseconds (Prisma's timestamp(3)): PostgreSQL rounds what it is given.
      '2026-11-24T07:31:08.186Z',
      '2026-11-24T07:31:09.185Z',
    ]);
    expect(await instances.list(scope, 1, 1)).toEqual({ items: [found[1]], totalCount: 3 });
    expect(await instances.list(scope, 0, 20, 'connected')).toEqual({ items: [found[2]], totalCount: 1 });
    // A page past the end still reports the total.
    expect(await instances.list(scope, 5, 20)).toEqual({ items: [], totalCount: 3 });
    expect(await instances.list({ customerId: 'cus_nobody' }, 0, 20)).toEqual({ items: [], totalCount: 0 });
  });
});
