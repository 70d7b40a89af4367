import { adminHeaders, createInstance } from './support/fixtures';
import { Http } from './support/http';
import { expectErrorBody } from './support/openapi';
import { spawnApp, type AppProcess } from './support/processes';
import { SseClient } from './support/sse-client';

describe('key rotation across API replicas', () => {
  let first: AppProcess;
  let second: AppProcess;

  // Not the shared world: two API processes (replicas) with a long key-cache TTL are the subject of the test.
  beforeAll(async () => {
    // A long cache TTL proves that invalidation, not expiry, is what stops the old key.
    [first, second] = await Promise.all([spawnApp('api', { KEY_CACHE_TTL_MS: '600000' }), spawnApp('api', { KEY_CACHE_TTL_MS: '600000' })]);
  });

  afterAll(async () => {
    await Promise.all([first?.stop(), second?.stop()]);
  });

  it('refuses the old customer key on both processes right after rotation', async () => {
    const one = new Http(first.url, { checkSpec: false });
    const two = new Http(second.url, { checkSpec: false });
    const created = await one.post('/admin/customers', { name: 'Replicated' }, adminHeaders());
    const oldKey = (created.body as { apiKey: string }).apiKey;
    const instance = await createInstance(one, oldKey);

    // Warm both caches with the old key.
    for (const http of [one, two]) {
      expect((await http.get('/account/instances', { 'X-Api-Key': oldKey })).status).toBe(200);
      expect((await http.get('/instance/settings', { 'X-Api-Key': oldKey, 'X-Instance-Id': instance.id })).status).toBe(200);
    }

    const rotated = await one.post('/account/apikey/rotate', undefined, { 'X-Api-Key': oldKey });
    expect(rotated.status).toBe(200);
    const newKey = rotated.body as string;

    for (const http of [two, one]) {
      expectErrorBody(await http.get('/account/instances', { 'X-Api-Key': oldKey }), 401, 'unauthorized');
      expectErrorBody(await http.get('/instance/settings', { 'X-Api-Key': oldKey, 'X-Instance-Id': instance.id }), 401, 'unauthorized');
      expect((await http.get('/account/instances', { 'X-Api-Key': newKey })).status).toBe(200);
    }
  });

  it('refuses a regenerated instance key on both processes right away', async () => {
    const one = new Http(first.url, { checkSpec: false });
    const two = new Http(second.url, { checkSpec: false });
    const customer = (await one.post('/admin/customers', { name: 'Replicated 2' }, adminHeaders())).body as { apiKey: string };
    const instance = await createInstance(one, customer.apiKey);
    const own = { 'X-Api-Key': instance.apiKey, 'X-Instance-Id': instance.id };
    for (const http of [one, two]) expect((await http.get('/instance/settings', own)).status).toBe(200);

    const regenerated = await two.put(`/account/instances/${instance.id}/apikey`, undefined, { 'X-Api-Key': customer.apiKey });
    expect(regenerated.status).toBe(200);
    for (const http of [one, two]) expectErrorBody(await http.get('/instance/settings', own), 401, 'unauthorized');
  });

  it('ends the event streams a key opened, on both processes, when that key is rotated or regenerated', async () => {
    const one = new Http(first.url, { checkSpec: false });
    const customer = (await one.post('/admin/customers', { name: 'Streams' }, adminHeaders())).body as { apiKey: string };
    const instance = await createInstance(one, customer.apiKey);
    const viaCustomerKey = { 'X-Api-Key': customer.apiKey, 'X-Instance-Id': instance.id };
    const viaInstanceKey = { 'X-Api-Key': instance.apiKey, 'X-Instance-Id': instance.id };
    const open = async (headers: Record<string, string>) =>
      Promise.all([first, second].map((api) => SseClient.open(api.url, '/events/stream', headers)));
    const customerStreams = await open(viaCustomerKey);
    const instanceStreams = await open(viaInstanceKey);
    const all = [...customerStreams, ...instanceStreams];
    try {
      expect(all.map((stream) => stream.status)).toEqual([200, 200, 200, 200]);

      const rotatedAt = Date.now();
      const rotated = await one.post('/account/apikey/rotate', undefined, { 'X-Api-Key': customer.apiKey });
      expect(rotated.status).toBe(200);
      const rotatedKey = rotated.body as string;
      for (const stream of customerStreams) await stream.waitFor((client) => client.ended, 5_000);
      const rotationMs = customerStreams.map((stream) => (stream.endedAt ?? Date.now()) - rotatedAt);
      // The instance key was not touched: its streams stay open.
      await new Promise((resolve) => setTimeout(resolve, 300));
      expect(instanceStreams.map((stream) => stream.ended)).toEqual([false, false]);

      const two = new Http(second.url, { checkSpec: false });
      const regeneratedAt = Date.now();
      expect((await two.put(`/account/instances/${instance.id}/apikey`, undefined, { 'X-Api-Key': rotatedKey })).status).toBe(200);
      for (const stream of instanceStreams) await stream.waitFor((client) => client.ended, 5_000);
      const regenerationMs = instanceStreams.map((stream) => (stream.endedAt ?? Date.now()) - regeneratedAt);
      console.log(`streams ended after rotation in ${rotationMs.join(', ')} ms; after regeneration in ${regenerationMs.join(', ')} ms`);

      // Reconnecting with the old keys is refused.
      for (const api of [first, second]) {
        for (const headers of [viaCustomerKey, viaInstanceKey]) {
          const again = await SseClient.open(api.url, '/events/stream', headers);
          all.push(again);
          expect({ status: again.status, body: await again.json() }).toEqual({
            status: 401,
            body: { status: 401, detail: 'unauthorized' },
          });
        }
      }
    } finally {
      all.forEach((stream) => stream.close());
    }
  });
});
