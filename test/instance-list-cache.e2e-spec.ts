import { eventually } from './support/event-log';
import { adminHeaders, createInstance, type CreatedInstance } from './support/fixtures';
import { Http } from './support/http';
import { useServedOpenApi } from './support/openapi';
import { spawnApp, type AppProcess } from './support/processes';

interface Page {
  items: { id: string; name: string; status: string }[];
  totalCount: number;
  pageNumber: number;
  pageSize: number;
}

/**
 * The instance list is cached per page in each API process. Two replicas and a worker: every change, made through the
 * other replica or by the worker, shows in the very next read of a page the first replica has cached.
 */
describe('instance list pages across API replicas', () => {
  let reader: AppProcess;
  let writer: AppProcess;
  let worker: AppProcess;

  beforeAll(async () => {
    [reader, writer, worker] = await Promise.all([spawnApp('api'), spawnApp('api'), spawnApp('worker')]);
    await useServedOpenApi(reader.url);
  });

  afterAll(async () => {
    await Promise.all([reader?.stop(), writer?.stop(), worker?.stop()]);
  });

  it('shows every change in the next read of a cached page, and equals the instances read one by one', async () => {
    const one = new Http(reader.url);
    const two = new Http(writer.url);
    const customer = (await two.post('/admin/customers', { name: 'List cache' }, adminHeaders())).body as { apiKey: string };
    const key = { 'X-Api-Key': customer.apiKey };
    const created: CreatedInstance[] = [];
    for (const name of ['first', 'second']) created.push(await createInstance(two, customer.apiKey, { name, sandbox: true }));

    const page = async (query = '') => {
      const response = await one.get(`/account/instances${query}`, key);
      expect(response.status).toBe(200);
      expect(response.headers['content-type']).toBe('application/json; charset=utf-8');
      return response.body as Page;
    };
    // What the list must say: each instance's detail, read from the database by the other replica.
    const expected = async (ids: string[]) => ({
      items: await Promise.all(ids.map(async (id): Promise<unknown> => (await two.get(`/account/instances/${id}`, key)).body)),
      totalCount: ids.length,
      pageNumber: 1,
      pageSize: 20,
    });
    const ids = () => created.map((instance) => instance.id);

    expect(await page()).toEqual(await expected(ids()));
    expect(await page()).toEqual(await expected(ids()));
    expect(await page('?status=connected')).toEqual({ items: [], totalCount: 0, pageNumber: 1, pageSize: 20 });

    const changes: [string, () => Promise<number>][] = [
      ['rename', async () => (await two.put(`/account/instances/${created[0].id}/name`, { name: 'renamed' }, key)).status],
      [
        'settings',
        async () =>
          (
            await two.put(
              `/account/instances/${created[0].id}/settings`,
              {
                useCustomDefaults: false,
                webhookUrl: 'https://hooks.example.com/wa',
                eventSigningSecret: 'whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw',
              },
              key,
            )
          ).status,
      ],
      [
        'settings through the instance key',
        async () =>
          (
            await two.put(
              '/instance/settings',
              { eventFilters: ['message'], pullMode: true },
              {
                'X-Api-Key': created[1].apiKey,
                'X-Instance-Id': created[1].id,
              },
            )
          ).status,
      ],
      [
        'create',
        async () => {
          created.push(await createInstance(two, customer.apiKey, { name: 'third', sandbox: true }));
          return 204;
        },
      ],
      ['delete', async () => (await two.delete(`/account/instances/${created.shift()!.id}`, key)).status],
    ];
    for (const [label, change] of changes) {
      const before = await page();
      expect({ label, status: await change() }).toEqual({ label, status: 204 });
      const after = await page();
      expect({ label, changed: JSON.stringify(after) !== JSON.stringify(before) }).toEqual({ label, changed: true });
      expect(after).toEqual(await expected(ids()));
    }

    // Status changes come from the worker: pairing connects the instance, and both cached pages follow.
    const [paired] = created;
    const instanceKey = { 'X-Api-Key': paired.apiKey, 'X-Instance-Id': paired.id };
    expect((await two.post('/sandbox/pair', { phone: '15554821901' }, instanceKey)).status).toBe(200);
    const connected = await eventually(
      () => page('?status=connected'),
      (body) => body.totalCount === 1,
    );
    expect(connected).toEqual(await expected([paired.id]));
    expect(connected.items[0].status).toBe('connected');
    expect(await page()).toEqual(await expected(ids()));
  });

  it('answers the same pages with the cache off', async () => {
    const uncached = await spawnApp('api', { INSTANCE_LIST_CACHE_MB: '0' });
    try {
      const http = new Http(uncached.url);
      const cached = new Http(reader.url);
      const customer = (await http.post('/admin/customers', { name: 'No list cache' }, adminHeaders())).body as { apiKey: string };
      const key = { 'X-Api-Key': customer.apiKey };
      for (const name of ['a', 'b', 'c']) await createInstance(http, customer.apiKey, { name, sandbox: true });
      for (const query of ['', '?pageSize=2', '?pageSize=2&pageNumber=2', '?status=unpaired']) {
        const [first, second, reference] = [
          await http.get(`/account/instances${query}`, key),
          await http.get(`/account/instances${query}`, key),
          await cached.get(`/account/instances${query}`, key),
        ];
        expect([first.status, second.text]).toEqual([200, reference.text]);
        expect(first.text).toBe(reference.text);
      }
    } finally {
      await uncached.stop();
    }
  });
});
