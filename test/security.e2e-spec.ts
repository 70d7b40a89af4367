import { spawn } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { request as httpRequest } from 'node:http';
import { join } from 'node:path';
import { Client } from 'pg';
import { chromium } from 'playwright-core';
import { issueApiKey, SecretBox } from '@app/security';
import { startApi, type RunningApi } from './support/api-harness';
import { subPrefix, testEnv } from './support/environment';
import { eventually } from './support/event-log';
import { adminHeaders, createCustomer, createInstance, type Customer } from './support/fixtures';
import { Http } from './support/http';
import { expectErrorBody, useServedOpenApi } from './support/openapi';
import { freePort, spawnApp, type AppProcess } from './support/processes';

const MiB = 1024 * 1024;

/** The most memory the process ever held (kB → bytes): a body buffered and dropped between two reads still shows. */
function peakRss(pid: number): number {
  const line = readFileSync(`/proc/${pid}/status`, 'utf8')
    .split('\n')
    .find((entry) => entry.startsWith('VmHWM:'));
  return Number(line?.replace(/\D/g, '')) * 1024;
}

/** POSTs `size` bytes of a JSON body and resolves with the status as soon as the server answers, read or not. */
function postLargeBody(url: string, headers: Record<string, string>, size: number): Promise<number> {
  const head = Buffer.from('{"to":"447700900123","data":"');
  const tail = Buffer.from('"}');
  const chunk = Buffer.alloc(MiB, 'A');
  return new Promise((resolve, reject) => {
    const request = httpRequest(url, {
      method: 'POST',
      headers: { ...headers, 'Content-Type': 'application/json', 'Content-Length': String(size) },
    });
    request.on('response', (response) => {
      response.resume();
      resolve(response.statusCode ?? 0);
      request.destroy();
    });
    // Writing after the server answered and closed fails; the answer is what counts.
    request.on('error', (error) => setTimeout(() => reject(error), 1000));
    request.write(head);
    let written = head.length;
    const writeMore = (): void => {
      while (written < size - tail.length && !request.destroyed) {
        const piece = chunk.subarray(0, Math.min(chunk.length, size - tail.length - written));
        written += piece.length;
        if (!request.write(piece)) {
          request.once('drain', writeMore);
          return;
        }
      }
      if (!request.destroyed) request.end(tail);
    };
    writeMore();
  });
}

/** Opens an SSE stream and resolves with its status once the headers arrive; `close()` ends it. */
function openStream(baseUrl: string, headers: Record<string, string>): Promise<{ status: number; body: () => string; close: () => void }> {
  return new Promise((resolve, reject) => {
    const request = httpRequest(new URL('/events/stream', baseUrl), { headers: { Accept: 'text/event-stream', ...headers } });
    request.on('error', reject);
    request.on('response', (response) => {
      let text = '';
      response.setEncoding('utf8');
      response.on('data', (piece: string) => (text += piece));
      response.on('error', () => undefined);
      request.removeListener('error', reject);
      request.on('error', () => undefined);
      response.on('end', () => resolve({ status: response.statusCode ?? 0, body: () => text, close: () => request.destroy() }));
      if (response.statusCode === 200) resolve({ status: 200, body: () => text, close: () => request.destroy() });
    });
    request.end();
  });
}

describe('security', () => {
  let api: RunningApi;
  let http: Http;
  let db: Client;

  beforeAll(async () => {
    api = await startApi({
      queuePrefix: subPrefix('sec'),
      trustProxy: 1,
      authFailureLimit: { limit: 3, windowSeconds: 60, blockSeconds: 60 },
      metricsToken: 'Qm9ndXMtbWV0cmljcy10b2tlbi1mb3ItdGVzdHMtMDAx',
    });
    http = new Http(api.url);
    await useServedOpenApi(api.url);
    db = new Client({ connectionString: testEnv().DATABASE_URL });
    await db.connect();
  });

  afterAll(async () => {
    await db.end();
    await api.close();
  });

  const from = (address: string, headers: Record<string, string> = {}) => ({ 'X-Forwarded-For': address, ...headers });

  describe('the failed-authentication block (TRUST_PROXY as a hop count)', () => {
    it('never refuses a valid key, while the blocked address still gets 429 for bad or missing keys, bodies unread', async () => {
      const customer = await createCustomer(http, 'Behind a shared address');
      const address = '198.51.100.10';
      const statuses: number[] = [];
      for (let attempt = 0; attempt < 5; attempt += 1) {
        statuses.push((await http.get('/account/instances', from(address, { 'X-Api-Key': `mgw_ck_guess${attempt}` }))).status);
      }
      expect(statuses).toEqual([401, 401, 401, 401, 429]);

      expect((await http.get('/account/instances', from(address, { 'X-Api-Key': customer.apiKey }))).status).toBe(200);
      expect((await http.post('/account/instances', { sandbox: true }, from(address, { 'X-Api-Key': customer.apiKey }))).status).toBe(201);
      expect((await http.get('/admin/customers', from(address, adminHeaders()))).status).toBe(200);

      const forged = issueApiKey('customer').key;
      for (const response of [
        await http.get('/account/instances', from(address, { 'X-Api-Key': forged })),
        await http.get('/account/instances', from(address)),
        await http.post('/account/instances', { sandbox: true }, from(address, { 'X-Api-Key': forged })),
        await http.post('/admin/customers', { name: 'x' }, from(address, { 'X-Admin-Key': 'not-the-admin-key' })),
      ]) {
        expectErrorBody(response, 429, 'rate limited');
        expect(Number(response.headers['retry-after'])).toBeGreaterThan(0);
      }
    });

    it('takes the address the trusted proxy saw, not the leftmost X-Forwarded-For the client wrote', async () => {
      const customer = await createCustomer(http, 'Victim');
      const attacker = '198.51.100.20';
      const victim = '203.0.113.7';
      const statuses: number[] = [];
      // A client rotating a forged leftmost entry stays one address; aiming the block at the victim does not work.
      for (let attempt = 0; attempt < 8; attempt += 1) {
        const forwarded = `${attempt % 2 === 0 ? victim : `192.0.2.${attempt}`}, ${attacker}`;
        statuses.push((await http.get('/account/instances', from(forwarded, { 'X-Api-Key': `mgw_ck_guess${attempt}` }))).status);
      }
      expect(statuses).toEqual([401, 401, 401, 401, 429, 429, 429, 429]);
      expectErrorBody(await http.get('/account/instances', from(victim, { 'X-Api-Key': 'mgw_ck_typo' })), 401, 'unauthorized');
      expect((await http.get('/account/instances', from(victim, { 'X-Api-Key': customer.apiKey }))).status).toBe(200);
    });
  });

  describe('bodies of unauthenticated requests', () => {
    let spawned: AppProcess;
    let target: { customer: Customer; instanceId: string };

    beforeAll(async () => {
      spawned = await spawnApp('api', { QUEUE_PREFIX: subPrefix('secbody') });
      const remote = new Http(spawned.url, { checkSpec: false });
      const customer = await createCustomer(remote, 'Body owner');
      target = { customer, instanceId: (await createInstance(remote, customer.apiKey)).id };
    }, 60_000);

    afterAll(async () => {
      await spawned.stop();
    });

    it('refuses a 60 MiB media send with a forged well-formed key without buffering it', async () => {
      const pid = spawned.child.pid ?? 0;
      const forged = { 'X-Api-Key': issueApiKey('instance').key, 'X-Instance-Id': target.instanceId };
      // A small refusal first, so what the first request of a process loads and compiles is not counted as the body.
      expect(await postLargeBody(`${spawned.url}/messages/image`, forged, 64 * 1024)).toBe(401);
      const before = peakRss(pid);
      const status = await postLargeBody(`${spawned.url}/messages/image`, forged, 60 * MiB);
      await new Promise((resolve) => setTimeout(resolve, 500));
      const growth = peakRss(pid) - before;
      expect(status).toBe(401);
      // Buffering the body would cost at least its 60 MiB (the old code grew by ~200 MiB); what is left is the socket's
      // own reading and the collector's timing, 11-30 MiB on a busy machine.
      expect(growth).toBeLessThan(40 * MiB);
    }, 60_000);

    it('refuses the customer key of another customer on a large-body route before reading the body', async () => {
      const remote = new Http(spawned.url, { checkSpec: false });
      const stranger = await createCustomer(remote, 'Stranger');
      const pid = spawned.child.pid ?? 0;
      const before = peakRss(pid);
      const status = await postLargeBody(
        `${spawned.url}/messages/document`,
        { 'X-Api-Key': stranger.apiKey, 'X-Instance-Id': target.instanceId },
        30 * MiB,
      );
      expect(status).toBe(401);
      expect(peakRss(pid) - before).toBeLessThan(20 * MiB);
    }, 60_000);
  });

  describe('concurrent key rotations', () => {
    // Each request from its own address, so the revoked keys' 401s never add up to a block of the test's address.
    let host = 0;
    const fresh = (headers: Record<string, string>) => from(`198.18.${Math.floor(++host / 250)}.${host % 250}`, headers);
    const stillValid = async (keys: string[], path: string, headers: Record<string, string> = {}) => {
      const statuses = await Promise.all(keys.map(async (key) => (await http.get(path, fresh({ ...headers, 'X-Api-Key': key }))).status));
      return statuses.filter((status) => status === 200).length;
    };

    it('leaves exactly one customer key valid after 8 simultaneous rotations', async () => {
      const customer = await createCustomer(http, 'Rotating');
      const rotations = await Promise.all(
        Array.from({ length: 8 }, async () => {
          const response = await http.post('/account/apikey/rotate', undefined, fresh({ 'X-Api-Key': customer.apiKey }));
          // Use the new key at once, as an attacker racing the owner would: a cached key must be revoked too.
          if (response.status === 200) await http.get('/account/instances', fresh({ 'X-Api-Key': response.body as string }));
          return response;
        }),
      );
      const keys = rotations.filter((response) => response.status === 200).map((response) => response.body as string);
      expect(keys.length).toBeGreaterThan(0);
      expect(await stillValid([customer.apiKey, ...keys], '/account/instances')).toBe(1);
      const { rows } = await db.query('SELECT count(*)::int AS n FROM customer_api_keys WHERE customer_id = $1 AND revoked_at IS NULL', [
        customer.id,
      ]);
      expect(rows[0]).toEqual({ n: 1 });
    });

    it('leaves exactly one instance key valid after 8 simultaneous regenerations through either route', async () => {
      const customer = await createCustomer(http, 'Regenerating');
      const instance = await createInstance(http, customer.apiKey);
      const instanceHeaders = { 'X-Instance-Id': instance.id };
      const rotations = await Promise.all(
        Array.from({ length: 8 }, async (_, index) => {
          const response =
            index % 2 === 0
              ? await http.put(`/account/instances/${instance.id}/apikey`, undefined, fresh({ 'X-Api-Key': customer.apiKey }))
              : await http.put('/instance/apikey', undefined, fresh({ ...instanceHeaders, 'X-Api-Key': customer.apiKey }));
          if (response.status === 200)
            await http.get('/instance/settings', fresh({ ...instanceHeaders, 'X-Api-Key': response.body as string }));
          return response;
        }),
      );
      expect(rotations.map((response) => response.status)).toEqual(Array(8).fill(200));
      const keys = rotations.map((response) => response.body as string);
      expect(await stillValid([instance.apiKey, ...keys], '/instance/settings', instanceHeaders)).toBe(1);
    });
  });

  describe('webhook signing secrets', () => {
    const secret = 'whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw';
    const defaultSecret = 'a-long-default-signing-secret-7f3e';

    async function storedSecrets(instanceId: string, customerId: string): Promise<{ instance: string; defaults: string }> {
      const box = new SecretBox(Buffer.from(testEnv().ENCRYPTION_KEY, 'base64'));
      const instance = await db.query<{ s: string }>('SELECT event_signing_secret_enc AS s FROM instances WHERE id = $1', [instanceId]);
      const defaults = await db.query<{ s: string }>('SELECT default_signing_secret_enc AS s FROM customers WHERE id = $1', [customerId]);
      return { instance: box.decrypt(instance.rows[0].s), defaults: box.decrypt(defaults.rows[0].s) };
    }

    it('are shown masked on every read, and a masked value sent back keeps the real secret', async () => {
      const customer = await createCustomer(http, 'Signing');
      const instance = await createInstance(http, customer.apiKey);
      const key = { 'X-Api-Key': customer.apiKey };
      const asInstance = { 'X-Api-Key': instance.apiKey, 'X-Instance-Id': instance.id };
      expect((await http.put(`/account/instances/${instance.id}/settings`, { eventSigningSecret: secret }, key)).status).toBe(204);
      const defaults = {
        defaultWebhookUrl: '',
        defaultSigningSecret: defaultSecret,
        defaultEventFilters: [],
        defaultHistorySync: false,
        defaultPullMode: false,
      };
      expect((await http.put('/account/instances/defaults', defaults, key)).status).toBe(204);

      const detail = await http.get(`/account/instances/${instance.id}`, key);
      const list = await http.get('/account/instances', key);
      const settings = await http.get('/instance/settings', asInstance);
      const readDefaults = await http.get('/account/instances/defaults', key);
      expect((detail.body as { settings: { eventSigningSecret: string } }).settings.eventSigningSecret).toBe('whsec_…LaSw');
      expect((list.body as { items: Array<{ settings: { eventSigningSecret: string } }> }).items[0].settings.eventSigningSecret).toBe(
        'whsec_…LaSw',
      );
      expect((settings.body as { eventSigningSecret: string }).eventSigningSecret).toBe('whsec_…LaSw');
      expect(readDefaults.body).toEqual({ ...defaults, defaultSigningSecret: '…7f3e', defaultProxyUrl: '', defaultEventSink: null });
      for (const response of [detail, list, settings, readDefaults]) {
        expect(JSON.stringify(response.body)).not.toContain('MfKQ9r8');
        expect(response.headers['cache-control']).toBe('no-store');
      }

      // Read, edit, send back whole: the secrets stay.
      const echoed = { ...(settings.body as object), pullMode: true };
      expect((await http.put('/instance/settings', echoed, asInstance)).status).toBe(204);
      expect((await http.put('/account/instances/defaults', { ...(readDefaults.body as object), defaultPullMode: true }, key)).status).toBe(
        204,
      );
      expect(await storedSecrets(instance.id, customer.id)).toEqual({ instance: secret, defaults: defaultSecret });

      expectErrorBody(
        await http.put('/instance/settings', { eventSigningSecret: 'whsec_…abcd' }, asInstance),
        400,
        'validation error: eventSigningSecret is a masked value that does not match the current secret; send the full new secret, or the value read back unchanged to keep it',
      );
      expect(await storedSecrets(instance.id, customer.id)).toEqual({ instance: secret, defaults: defaultSecret });

      // Rotating: the full new value replaces it.
      const rotated = 'whsec_dGhpcy1pcy1hLW5ldy1zZWNyZXQtb2YtMzItYnl0ZXMh';
      expect((await http.put(`/account/instances/${instance.id}/settings`, { eventSigningSecret: rotated }, key)).status).toBe(204);
      expect(((await http.get('/instance/settings', asInstance)).body as { eventSigningSecret: string }).eventSigningSecret).toBe(
        'whsec_…ZXMh',
      );
      expect((await storedSecrets(instance.id, customer.id)).instance).toBe(rotated);
    });
  });

  describe('SSRF', () => {
    it.each([
      ['http://[::127.0.0.1]/hook', '::7f00:1 is not a public address'],
      ['http://[::10.0.0.1]:8080/hook', '::a00:1 is not a public address'],
      ['http://[::ffff:127.0.0.1]/hook', '::ffff:7f00:1 is not a public address'],
      ['http://[64:ff9b::10.0.0.1]/hook', '64:ff9b::a00:1 is not a public address'],
      ['http://[2002:c0a8:101::1]/hook', '2002:c0a8:101::1 is not a public address'],
    ])('refuses the webhook URL %s when it is saved', async (url, reason) => {
      const customer = await createCustomer(http, 'SSRF');
      const instance = await createInstance(http, customer.apiKey);
      expectErrorBody(
        await http.put(`/account/instances/${instance.id}/settings`, { webhookUrl: url }, { 'X-Api-Key': customer.apiKey }),
        400,
        `validation error: webhookUrl must point to a public http(s) address: ${reason}`,
      );
    });
  });

  describe('limits per customer', () => {
    it('caps instances per customer with 403, and the operator can raise the cap for one customer', async () => {
      const customer = await createCustomer(http, 'Greedy');
      const limits = await http.put(`/admin/customers/${customer.id}/limits`, { maxInstances: 2 }, adminHeaders());
      expect(limits.status).toBe(200);
      expect(limits.body).toEqual({
        maxInstances: 2,
        maxStreamsPerInstance: api.config.tenantLimits.maxStreamsPerInstance,
        overrides: { maxInstances: 2, maxStreamsPerInstance: null },
      });
      const created = await Promise.all(
        Array.from({ length: 6 }, () => http.post('/account/instances', { sandbox: true }, { 'X-Api-Key': customer.apiKey })),
      );
      expect(created.map((response) => response.status).sort()).toEqual([201, 201, 403, 403, 403, 403]);
      expectErrorBody(
        created.find((response) => response.status === 403)!,
        403,
        'forbidden: instance limit reached: this account may have at most 2 instances; delete one, or ask the operator to raise the limit',
      );
      expect((await http.put(`/admin/customers/${customer.id}/limits`, { maxInstances: 3 }, adminHeaders())).status).toBe(200);
      expect((await http.post('/account/instances', { sandbox: true }, { 'X-Api-Key': customer.apiKey })).status).toBe(201);
      expect((await http.get(`/admin/customers/${customer.id}/limits`, adminHeaders())).body).toMatchObject({ maxInstances: 3 });
      expectErrorBody(
        await http.put(`/admin/customers/${customer.id}/limits`, { maxInstances: 0 }, adminHeaders()),
        400,
        'validation error: maxInstances must be a whole number from 1 to 1000000, or null for the server default',
      );
      expectErrorBody(await http.get('/admin/customers/cus_missing/limits', adminHeaders()), 404, 'not found');
    });

    it('caps open event streams per instance with 429, and frees the slot when a stream closes', async () => {
      const customer = await createCustomer(http, 'Streamer');
      const instance = await createInstance(http, customer.apiKey);
      expect((await http.put(`/admin/customers/${customer.id}/limits`, { maxStreamsPerInstance: 2 }, adminHeaders())).status).toBe(200);
      const headers = { 'X-Api-Key': instance.apiKey, 'X-Instance-Id': instance.id };
      const first = await openStream(api.url, headers);
      const second = await openStream(api.url, headers);
      const third = await openStream(api.url, headers);
      try {
        expect([first.status, second.status, third.status]).toEqual([200, 200, 429]);
        expect(JSON.parse(third.body())).toEqual({
          status: 429,
          detail: 'rate limited: this instance already has 2 open event streams, the most allowed; close one before opening another',
        });
        first.close();
        const fourth = await eventually(
          async () => {
            const stream = await openStream(api.url, headers);
            if (stream.status !== 200) stream.close();
            return stream;
          },
          (stream) => stream.status === 200,
          5_000,
        );
        fourth.close();
      } finally {
        for (const stream of [first, second, third]) stream.close();
      }
    });
  });

  describe('numeric query parameters', () => {
    it.each(['99999999999999999999', '1e300', '1000001', '-1'])('refuses pageNumber=%s with 400', async (value) => {
      const customer = await createCustomer(http, 'Pager');
      for (const [path, headers] of [
        ['/account/instances', { 'X-Api-Key': customer.apiKey }],
        ['/admin/customers', adminHeaders()],
      ] as const) {
        expectErrorBody(
          await http.get(`${path}?pageNumber=${value}`, headers),
          400,
          'validation error: pageNumber must be a whole number from 1 to 1000000',
        );
      }
    });
  });

  describe('response headers', () => {
    it('sends nosniff everywhere and no-store on every answer that carries a key', async () => {
      const created = await http.post('/admin/customers', { name: 'Headers' }, adminHeaders());
      const { apiKey } = created.body as Customer;
      const instance = await http.post('/account/instances', { sandbox: true }, { 'X-Api-Key': apiKey });
      const rotated = await http.post('/account/apikey/rotate', undefined, { 'X-Api-Key': apiKey });
      const unknown = await http.unchecked().get('/no-such-route', { 'X-Api-Key': rotated.body as string });
      const refused = await http.get('/account/instances', { 'X-Api-Key': 'mgw_ck_nope' });
      for (const response of [created, instance, rotated, unknown, refused]) {
        expect(response.headers['x-content-type-options']).toBe('nosniff');
        expect(response.headers['cache-control']).toBe('no-store');
        expect(response.headers['content-security-policy']).toBe("default-src 'none';frame-ancestors 'none'");
      }
    });

    it('serves Swagger UI with a policy that lets its own scripts and styles run', async () => {
      const docs = await http.unchecked().get('/docs/');
      expect(docs.status).toBe(200);
      expect(docs.headers['x-content-type-options']).toBe('nosniff');
      const csp = String(docs.headers['content-security-policy']);
      expect(csp).toContain("script-src 'self'");
      expect(csp).toContain("style-src 'self' 'unsafe-inline'");
      expect(csp).not.toContain('upgrade-insecure-requests');
    });

    it('lets Swagger UI render in a real browser under that policy, without a CSP violation', async () => {
      const browser = await chromium.launch({ executablePath: '/usr/bin/chromium', args: ['--no-sandbox'] });
      try {
        const page = await browser.newPage();
        const violations: string[] = [];
        page.on('console', (message) => {
          if (/Content Security Policy/i.test(message.text())) violations.push(message.text());
        });
        await page.goto(`${api.url}/docs`);
        await page.getByRole('heading', { name: /Messaging Gateway API/ }).waitFor({ timeout: 15_000 });
        await page.getByRole('button', { name: 'Authorize' }).first().waitFor();
        expect(violations).toEqual([]);
      } finally {
        await browser.close();
      }
    }, 60_000);

    it('answers /metrics only with the METRICS_TOKEN', async () => {
      expectErrorBody(await http.unchecked().get('/metrics'), 401, 'unauthorized');
      expectErrorBody(await http.unchecked().get('/metrics', { Authorization: 'Bearer wrong' }), 401, 'unauthorized');
      const scraped = await http.unchecked().get('/metrics', { Authorization: `Bearer ${api.config.metricsToken}` });
      expect(scraped.status).toBe(200);
      expect(scraped.text).toContain('http_request_duration_seconds');
    });
  });

  describe('start-up', () => {
    it('refuses an admin key without real entropy, saying why', async () => {
      const entry = join(__dirname, '..', 'dist', 'apps', 'api', 'src', 'main.js');
      const child = spawn(process.execPath, [entry], {
        env: { ...process.env, ...testEnv(), ADMIN_API_KEY: 'a'.repeat(24), PORT: String(await freePort()), LOG_LEVEL: 'silent' },
        stdio: ['ignore', 'pipe', 'pipe'],
      });
      let output = '';
      child.stderr.on('data', (piece: Buffer) => (output += piece.toString()));
      child.stdout.on('data', (piece: Buffer) => (output += piece.toString()));
      const code = await new Promise<number | null>((resolve) => child.once('exit', resolve));
      expect(code).toBe(1);
      expect(output).toContain(
        'ADMIN_API_KEY holds at most 112 bits of randomness, 128 are required; generate one with: openssl rand -base64 32',
      );
      expect(output).not.toContain('a'.repeat(24));
    });
  });
});
