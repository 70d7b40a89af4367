import { issueApiKey } from '@app/security';
import { startApi, type RunningApi } from './support/api-harness';
import { adminHeaders, createCustomer, createInstance, type Customer } from './support/fixtures';
import { Http } from './support/http';
import { expectErrorBody, useServedOpenApi } from './support/openapi';

const ISO_DATE = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/;
const INSTANCE_KEY = /^mgw_ik_[0-9A-Za-z]{49}$/;
const CUSTOMER_KEY = /^mgw_ck_[0-9A-Za-z]{49}$/;

describe('account plane', () => {
  let api: RunningApi;
  let http: Http;
  let customer: Customer;
  const key = () => ({ 'X-Api-Key': customer.apiKey });

  beforeAll(async () => {
    api = await startApi();
    http = new Http(api.url);
    await useServedOpenApi(api.url);
    customer = await createCustomer(http, 'Acme Ltd');
  });

  afterAll(async () => {
    await api.close();
  });

  describe('POST /admin/customers', () => {
    it('creates a customer and shows its key once', async () => {
      const response = await http.post('/admin/customers', { name: '  Globex  ' }, adminHeaders());
      expect(response.status).toBe(201);
      expect(response.body).toEqual({
        id: expect.stringMatching(/^cus_[0-9a-z]{20}$/),
        name: 'Globex',
        apiKey: expect.stringMatching(CUSTOMER_KEY),
      });
    });

    it('refuses a wrong or missing admin key with 401', async () => {
      expectErrorBody(
        await http.post('/admin/customers', { name: 'x' }, { 'X-Admin-Key': 'wrong-key-wrong-key-wrong-key' }),
        401,
        'unauthorized',
      );
      expectErrorBody(await http.post('/admin/customers', { name: 'x' }), 401, 'unauthorized');
      expectErrorBody(await http.post('/admin/customers', { name: 'x' }, { 'X-Api-Key': customer.apiKey }), 401, 'unauthorized');
    });

    it('rejects a blank name and names the field', async () => {
      expectErrorBody(
        await http.post('/admin/customers', { name: '   ' }, adminHeaders()),
        400,
        'validation error: name must be 1-200 characters, not only spaces',
      );
      expectErrorBody(await http.post('/admin/customers', {}, adminHeaders()), 400, 'invalid request body');
    });

    it('lists customers in pages', async () => {
      const response = await http.get('/admin/customers?pageSize=1&pageNumber=1', adminHeaders());
      expect(response.status).toBe(200);
      expect(response.body).toEqual({
        items: [expect.objectContaining({ id: expect.any(String), created: expect.stringMatching(ISO_DATE) })],
        totalCount: expect.any(Number),
        pageNumber: 1,
        pageSize: 1,
      });
      expect((response.body as { totalCount: number }).totalCount).toBeGreaterThanOrEqual(2);
    });

    it('lists the newest customer first with order=desc, and refuses any other order', async () => {
      const created = await http.post('/admin/customers', { name: 'Newest Co' }, adminHeaders());
      expect(created.status).toBe(201);
      const newest = await http.get('/admin/customers?pageSize=1&order=desc', adminHeaders());
      expect(newest.status).toBe(200);
      expect((newest.body as { items: { id: string }[] }).items.map((item) => item.id)).toEqual([(created.body as { id: string }).id]);
      const oldest = await http.get('/admin/customers?pageSize=1', adminHeaders());
      expect((oldest.body as { items: { id: string }[] }).items[0].id).not.toBe((created.body as { id: string }).id);
      expectErrorBody(await http.get('/admin/customers?order=newest', adminHeaders()), 400, 'validation error: order must be asc or desc');
    });
  });

  describe('instances', () => {
    it('creates an instance whose detail has exactly the contract fields', async () => {
      const created = await http.post('/account/instances', { name: 'Support line', sandbox: true }, key());
      expect(created.status).toBe(201);
      const body = created.body as { id: string; apiKey: string; created: string };
      // As created and as read back: named, keyed, sandboxed, on the default settings, not paired yet.
      const unpaired = {
        name: 'Support line',
        hasApiKey: true,
        sandbox: true,
        settings: {
          useCustomDefaults: true,
          pullMode: false,
          webhookUrl: '',
          eventSigningSecret: '',
          historySync: false,
          eventFilters: [],
          proxyUrl: '',
          eventSink: null,
        },
        status: 'unpaired',
        statusReason: '',
        deviceId: '',
      };
      expect(body).toEqual({
        ...unpaired,
        id: expect.stringMatching(/^ins_[0-9a-z]{20}$/),
        created: expect.stringMatching(ISO_DATE),
        apiKey: expect.stringMatching(INSTANCE_KEY),
      });

      const detail = await http.get(`/account/instances/${body.id}`, key());
      expect(detail.status).toBe(200);
      expect(detail.body).toEqual({ ...unpaired, id: body.id, created: body.created });
    });

    it('names an instance when no name is given and accepts an empty body', async () => {
      const response = await http.post('/account/instances', undefined, key());
      expect(response.status).toBe(201);
      expect((response.body as { name: string }).name).toMatch(/^instance-[0-9a-z]{6}$/);
    });

    it('pages and filters the instance list', async () => {
      const other = await createCustomer(http, 'Paging Co');
      const headers = { 'X-Api-Key': other.apiKey };
      const ids: string[] = [];
      for (const name of ['a', 'b', 'c']) ids.push((await createInstance(http, other.apiKey, { name })).id);

      const first = await http.get('/account/instances?pageSize=2', headers);
      expect(first.status).toBe(200);
      expect(first.body).toMatchObject({ totalCount: 3, pageNumber: 1, pageSize: 2 });
      expect((first.body as { items: { id: string }[] }).items.map((item) => item.id)).toEqual(ids.slice(0, 2));

      const second = await http.get('/account/instances?pageSize=2&pageNumber=2', headers);
      expect((second.body as { items: { id: string }[] }).items.map((item) => item.id)).toEqual(ids.slice(2));

      const connected = await http.get('/account/instances?status=connected', headers);
      expect(connected.body).toEqual({ items: [], totalCount: 0, pageNumber: 1, pageSize: 20 });

      expectErrorBody(await http.get('/account/instances?pageSize=101', headers), 400, 'validation error: pageSize must be from 1 to 100');
      expectErrorBody(
        await http.get('/account/instances?status=asleep', headers),
        400,
        /^validation error: status must be one of unpaired, pairing/,
      );
    });

    it('renames an instance', async () => {
      const instance = await createInstance(http, customer.apiKey, { name: 'before' });
      const response = await http.put(`/account/instances/${instance.id}/name`, { name: 'after' }, key());
      expect(response.status).toBe(204);
      expect(response.text).toBe('');
      expect((await http.get(`/account/instances/${instance.id}`, key())).body).toMatchObject({ name: 'after' });
      expectErrorBody(
        await http.put(`/account/instances/${instance.id}/name`, { name: 'x'.repeat(101) }, key()),
        400,
        'validation error: name must be 1-100 characters, not only spaces',
      );
      expectErrorBody(await http.put('/account/instances/ins_doesnotexist000000/name', { name: 'y' }, key()), 404, 'not found');
    });

    it('updates only the settings given and shows them in the detail', async () => {
      const instance = await createInstance(http, customer.apiKey);
      const update = {
        useCustomDefaults: false,
        webhookUrl: 'https://hooks.example.com/wa',
        eventSigningSecret: 'whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw',
        eventFilters: ['message', 'message_status', 'message'],
      };
      expect((await http.put(`/account/instances/${instance.id}/settings`, update, key())).status).toBe(204);
      expect((await http.put(`/account/instances/${instance.id}/settings`, { historySync: true }, key())).status).toBe(204);
      const detail = await http.get(`/account/instances/${instance.id}`, key());
      expect((detail.body as { settings: unknown }).settings).toEqual({
        useCustomDefaults: false,
        pullMode: false,
        webhookUrl: 'https://hooks.example.com/wa',
        // Shown masked: the full secret never leaves the server once set.
        eventSigningSecret: 'whsec_…LaSw',
        historySync: true,
        eventFilters: ['message', 'message_status'],
        proxyUrl: '',
        eventSink: null,
      });

      expect((await http.put(`/account/instances/${instance.id}/settings`, { webhookUrl: '', eventSigningSecret: '' }, key())).status).toBe(
        204,
      );
      expect((await http.get(`/account/instances/${instance.id}`, key())).body).toMatchObject({
        settings: { webhookUrl: '', eventSigningSecret: '' },
      });
    });

    it('rejects bad settings with the field named and changes nothing', async () => {
      const instance = await createInstance(http, customer.apiKey);
      const before = (await http.get(`/account/instances/${instance.id}`, key())).body as unknown;
      const path = `/account/instances/${instance.id}/settings`;
      expectErrorBody(
        await http.put(path, { webhookUrl: 'ftp://example.com' }, key()),
        400,
        /^validation error: webhookUrl must be an http or https URL/,
      );
      expectErrorBody(
        await http.put(path, { webhookUrl: 'https://user:pw@example.com/' }, key()),
        400,
        /^validation error: webhookUrl must be an http or https URL/,
      );
      expectErrorBody(
        await http.put(path, { eventSigningSecret: 'short' }, key()),
        400,
        /^validation error: eventSigningSecret must be 16-256 characters/,
      );
      expectErrorBody(
        await http.put(path, { eventFilters: ['message', 'telepathy'] }, key()),
        400,
        /^validation error: eventFilters must contain only event types/,
      );
      expectErrorBody(await http.put(path, { pullMode: 'yes' }, key()), 400, 'invalid request body');
      expectErrorBody(
        await http.put(path, { pullMode: true, colour: 'red' }, key()),
        400,
        'validation error: property colour should not exist',
      );
      expect((await http.get(`/account/instances/${instance.id}`, key())).body).toEqual(before);
    });

    it('deletes an instance, and its key stops working', async () => {
      const instance = await createInstance(http, customer.apiKey);
      const ownKey = { 'X-Api-Key': instance.apiKey, 'X-Instance-Id': instance.id };
      expect((await http.get('/instance/settings', ownKey)).status).toBe(200);
      expect((await http.delete(`/account/instances/${instance.id}`, key())).status).toBe(204);
      expectErrorBody(await http.get(`/account/instances/${instance.id}`, key()), 404, 'not found');
      expectErrorBody(await http.delete(`/account/instances/${instance.id}`, key()), 404, 'not found');
      expectErrorBody(await http.get('/instance/settings', ownKey), 401, 'unauthorized');
      expectErrorBody(await http.get('/instance/settings', { ...key(), 'X-Instance-Id': instance.id }), 401, 'unauthorized');
    });
  });

  describe('customer defaults', () => {
    const defaults = {
      defaultWebhookUrl: 'https://hooks.example.com/default',
      defaultSigningSecret: 'a-very-long-signing-secret',
      defaultEventFilters: ['message', 'group'],
      defaultHistorySync: true,
      defaultPullMode: false,
    };

    it('starts empty, takes all five fields and reads them back', async () => {
      const fresh = await createCustomer(http, 'Defaults Co');
      const headers = { 'X-Api-Key': fresh.apiKey };
      expect((await http.get('/account/instances/defaults', headers)).body).toEqual({
        defaultWebhookUrl: '',
        defaultSigningSecret: '',
        defaultEventFilters: [],
        defaultHistorySync: false,
        defaultPullMode: false,
        defaultProxyUrl: '',
        defaultEventSink: null,
      });
      const response = await http.put('/account/instances/defaults', defaults, headers);
      expect(response.status).toBe(204);
      expect((await http.get('/account/instances/defaults', headers)).body).toEqual({
        ...defaults,
        defaultSigningSecret: '…cret',
        defaultProxyUrl: '',
        defaultEventSink: null,
      });
    });

    it('requires every field and changes nothing on a bad request', async () => {
      const fresh = await createCustomer(http, 'Strict Co');
      const headers = { 'X-Api-Key': fresh.apiKey };
      expect((await http.put('/account/instances/defaults', defaults, headers)).status).toBe(204);
      const { defaultPullMode: _omitted, ...four } = defaults;
      expectErrorBody(await http.put('/account/instances/defaults', four, headers), 400, 'validation error: defaultPullMode is required');
      expectErrorBody(
        await http.put('/account/instances/defaults', { ...defaults, defaultHistorySync: 'true' }, headers),
        400,
        'invalid request body',
      );
      expectErrorBody(
        await http.put(
          '/account/instances/defaults',
          { ...defaults, defaultWebhookUrl: 'not a url', defaultEventFilters: ['nope'] },
          headers,
        ),
        400,
        /^validation error: defaultWebhookUrl must be an http or https URL.*; defaultEventFilters must contain only event types/,
      );
      expect((await http.get('/account/instances/defaults', headers)).body).toEqual({
        ...defaults,
        defaultSigningSecret: '…cret',
        defaultProxyUrl: '',
        defaultEventSink: null,
      });
    });
  });

  describe('keys', () => {
    it('regenerates an instance key: old key 401, new key only on its own instance, never on /account', async () => {
      const instance = await createInstance(http, customer.apiKey);
      const sibling = await createInstance(http, customer.apiKey);
      const response = await http.put(`/account/instances/${instance.id}/apikey`, undefined, key());
      expect(response.status).toBe(200);
      expect(response.headers['content-type']).toMatch(/^application\/json/);
      expect(JSON.parse(response.text)).toMatch(INSTANCE_KEY);
      const newKey = response.body as string;
      expect(newKey).not.toBe(instance.apiKey);

      expectErrorBody(
        await http.get('/instance/settings', { 'X-Api-Key': instance.apiKey, 'X-Instance-Id': instance.id }),
        401,
        'unauthorized',
      );
      expect((await http.get('/instance/settings', { 'X-Api-Key': newKey, 'X-Instance-Id': instance.id })).status).toBe(200);
      expectErrorBody(await http.get('/instance/settings', { 'X-Api-Key': newKey, 'X-Instance-Id': sibling.id }), 401, 'unauthorized');
      expectErrorBody(await http.get('/account/instances', { 'X-Api-Key': newKey }), 401, 'unauthorized');
      expectErrorBody(await http.get(`/account/instances/${instance.id}`, { 'X-Api-Key': newKey }), 401, 'unauthorized');
      expect((await http.get(`/account/instances/${instance.id}`, key())).body).toMatchObject({ hasApiKey: true });
    });

    it('lets an instance rotate its own key through /instance/apikey', async () => {
      const instance = await createInstance(http, customer.apiKey);
      const own = { 'X-Api-Key': instance.apiKey, 'X-Instance-Id': instance.id };
      const response = await http.put('/instance/apikey', undefined, own);
      expect(response.status).toBe(200);
      expectErrorBody(await http.get('/instance/settings', own), 401, 'unauthorized');
      expect((await http.get('/instance/settings', { 'X-Api-Key': response.body as string, 'X-Instance-Id': instance.id })).status).toBe(
        200,
      );
    });

    it('rotates the customer key: the old key is refused at once', async () => {
      const fresh = await createCustomer(http, 'Rotating Co');
      const instance = await createInstance(http, fresh.apiKey);
      const response = await http.post('/account/apikey/rotate', undefined, { 'X-Api-Key': fresh.apiKey });
      expect(response.status).toBe(200);
      const rotated = response.body as string;
      expect(rotated).toMatch(CUSTOMER_KEY);
      expectErrorBody(await http.get('/account/instances', { 'X-Api-Key': fresh.apiKey }), 401, 'unauthorized');
      expectErrorBody(
        await http.get('/instance/settings', { 'X-Api-Key': fresh.apiKey, 'X-Instance-Id': instance.id }),
        401,
        'unauthorized',
      );
      expect((await http.get('/account/instances', { 'X-Api-Key': rotated })).status).toBe(200);
      expect((await http.get('/instance/settings', { 'X-Api-Key': rotated, 'X-Instance-Id': instance.id })).status).toBe(200);
    });
  });

  describe('instance-scoped settings', () => {
    it('reads and writes the same record as the account plane', async () => {
      const instance = await createInstance(http, customer.apiKey);
      const own = { 'X-Api-Key': instance.apiKey, 'X-Instance-Id': instance.id };
      expect((await http.put('/instance/settings', { pullMode: true }, own)).status).toBe(204);
      expect((await http.get('/instance/settings', own)).body).toEqual({
        name: 'main',
        useCustomDefaults: true,
        pullMode: true,
        webhookUrl: '',
        eventSigningSecret: '',
        historySync: false,
        eventFilters: [],
        proxyUrl: '',
        eventSink: null,
      });
      expect((await http.get(`/account/instances/${instance.id}`, key())).body).toMatchObject({ settings: { pullMode: true } });
    });

    it('requires X-Instance-Id', async () => {
      expectErrorBody(await http.get('/instance/settings', key()), 400, 'missing X-Instance-Id header');
    });
  });

  describe('request errors', () => {
    it('answers malformed JSON with 400 invalid request body', async () => {
      const response = await http.raw('post', '/account/instances', '{"name": ', { ...key(), 'Content-Type': 'application/json' });
      expectErrorBody(response, 400, 'invalid request body');
    });

    it('refuses bodies that are not JSON objects', async () => {
      expectErrorBody(
        await http.raw('post', '/account/instances', 'name=x', { ...key(), 'Content-Type': 'application/x-www-form-urlencoded' }),
        400,
        'invalid request body',
      );
      expectErrorBody(
        await http.raw('post', '/account/instances', '["x"]', { ...key(), 'Content-Type': 'application/json' }),
        400,
        'invalid request body',
      );
    });

    it('answers unknown routes with 404 not found', async () => {
      expectErrorBody(await http.unchecked().get('/no/such/route', key()), 404, 'not found');
      expectErrorBody(await http.unchecked().post('/account/instances/x/y/z', {}, key()), 404, 'not found');
    });

    it('answers a missing or unknown key with 401 unauthorized', async () => {
      expectErrorBody(await http.get('/account/instances'), 401, 'unauthorized');
      expectErrorBody(await http.get('/account/instances', { 'X-Api-Key': 'mgw_ck_notarealkey' }), 401, 'unauthorized');
      const lastChar = customer.apiKey.slice(-1);
      const corrupted = `${customer.apiKey.slice(0, -1)}${lastChar === 'x' ? 'y' : 'x'}`;
      expectErrorBody(await http.get('/account/instances', { 'X-Api-Key': corrupted }), 401, 'unauthorized');
      expectErrorBody(await http.get('/account/instances', { 'X-Api-Key': issueApiKey('customer').key }), 401, 'unauthorized');
    });

    it('echoes a request id on every response', async () => {
      const response = await http.get('/account/instances', { ...key(), 'X-Request-Id': 'trace-123' });
      expect(response.headers['x-request-id']).toBe('trace-123');
      expect((await http.get('/health')).headers['x-request-id']).toMatch(/^[0-9a-f-]{36}$/);
    });
  });
});
