import { spawnSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { createServer, type IncomingHttpHeaders, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { startApi, type RunningApi } from './support/api-harness';
import { startBreakableProxy, type BreakableProxy } from './support/breakable-proxy';
import { installPackedClient, type InstalledClient } from './support/client-package';
import { eventually } from './support/event-log';
import { createCustomer, type Customer } from './support/fixtures';
import { Http } from './support/http';
import { spawnApp, type AppProcess } from './support/processes';

type ClientModule = ReturnType<InstalledClient['load']>;
type GatewayClient = InstanceType<ClientModule['GatewayClient']>;
type StreamMessage = import('../libs/client/src').StreamMessage;

const ROOT = join(__dirname, '..');

describe('the typed client package (libs/client)', () => {
  let installed: InstalledClient;

  beforeAll(() => {
    installed = installPackedClient();
  });

  afterAll(() => installed?.remove());

  it('packs only its build, README and manifest', () => {
    expect(installed.files.filter((file) => !file.startsWith('dist/'))).toEqual(['README.md', 'package.json']);
    expect(installed.files).toEqual(
      expect.arrayContaining(['dist/esm/index.js', 'dist/esm/index.d.ts', 'dist/cjs/index.js', 'dist/cjs/index.d.ts']),
    );
    // No sources, specs or tests: only compiled JavaScript and declarations.
    expect(installed.files.filter((file) => file.includes('.spec.') || (file.endsWith('.ts') && !file.endsWith('.d.ts')))).toEqual([]);
  });

  it('resolves by name from plain ES module and CommonJS consumers, with the same exports', () => {
    const probe = `
      const names = Object.keys(client).sort();
      const error = new client.GatewayError(400, 'validation error: to is required', new Response('{}', { status: 400 }));
      console.log(JSON.stringify({ names, isError: error instanceof Error, json: error.toJSON(), key: client.isValidIdempotencyKey(client.newIdempotencyKey()) }));`;
    writeFileSync(join(installed.dir, 'consumer.mjs'), `import * as client from '@messaging-gateway/client';${probe}`);
    writeFileSync(join(installed.dir, 'consumer.cjs'), `const client = require('@messaging-gateway/client');${probe}`);
    const outputs = ['consumer.mjs', 'consumer.cjs'].map((file) => {
      const result = spawnSync(process.execPath, [file], { cwd: installed.dir, encoding: 'utf8' });
      expect(result.stderr).toBe('');
      return JSON.parse(result.stdout) as unknown;
    });
    const expected = {
      names: [
        'EventDecodeError',
        'EventStream',
        'GatewayClient',
        'GatewayConnectionError',
        'GatewayError',
        'WebhookVerificationError',
        'createGatewayClient',
        'decodeEventEnvelope',
        'isValidIdempotencyKey',
        'newIdempotencyKey',
        'verifyWebhook',
      ],
      isError: true,
      json: { status: 400, detail: 'validation error: to is required' },
      key: true,
    };
    expect(outputs).toEqual([expected, expected]);
  });

  it('gives TypeScript consumers its types through both the import and the require condition', () => {
    const usage = `
      const gateway = createGatewayClient({ baseUrl: 'http://127.0.0.1', apiKey: 'k', instanceId: 'i' });
      export async function main(): Promise<string> {
        const sent = await gateway.send('/messages/text', { to: '447700900123', message: 'hi' });
        const settings: InstanceSettingsDto = await gateway.GET('/instance/settings');
        // @ts-expect-error: an unknown path does not type-check
        await gateway.GET('/no/such/path');
        return sent.id + sent.idempotencyKey + String(settings.pullMode);
      }`;
    writeFileSync(
      join(installed.dir, 'typed.mts'),
      `import { createGatewayClient, type InstanceSettingsDto } from '@messaging-gateway/client';${usage}`,
    );
    writeFileSync(
      join(installed.dir, 'typed.cts'),
      `import client = require('@messaging-gateway/client');
      const { createGatewayClient } = client;
      type InstanceSettingsDto = client.InstanceSettingsDto;${usage}`,
    );
    const tsc = join(ROOT, 'node_modules', 'typescript', 'bin', 'tsc');
    const args = [
      tsc,
      '--noEmit',
      '--strict',
      '--module',
      'nodenext',
      '--moduleResolution',
      'nodenext',
      '--target',
      'es2022',
      '--types',
      'node',
    ];
    const result = spawnSync(process.execPath, [...args, 'typed.mts', 'typed.cts'], { cwd: installed.dir, encoding: 'utf8' });
    expect({ status: result.status, output: result.stdout }).toEqual({ status: 0, output: '' });
  });

  describe('against the live API', () => {
    let api: RunningApi;
    let worker: AppProcess;
    let http: Http;
    let client: ClientModule;
    let customer: Customer;
    let gateway: GatewayClient;
    let receiver: CapturingReceiver;
    const proxies: BreakableProxy[] = [];

    beforeAll(async () => {
      [api, worker, receiver] = await Promise.all([
        startApi({ webhookAllowedHosts: ['127.0.0.1'] }),
        spawnApp('worker', { WEBHOOK_ALLOWED_HOSTS: '127.0.0.1' }),
        CapturingReceiver.start(),
      ]);
      http = new Http(api.url, { checkSpec: false });
      client = installed.load();
      customer = await createCustomer(http, 'Client Co');
      gateway = await pairedInstance(client, api.url, customer, '15550390001');
    });

    afterAll(async () => {
      await Promise.all([api?.close(), worker?.stop(), receiver?.close(), ...proxies.map((proxy) => proxy.close())]);
    });

    it('creates and pairs an instance through the typed methods', async () => {
      const status = await gateway.GET('/session/status');
      expect(status).toEqual({ isConnected: true, isLoggedIn: true, deviceId: expect.any(String) });
      const detail = await client
        .createGatewayClient({ baseUrl: api.url, apiKey: customer.apiKey })
        .GET('/account/instances/{id}', { params: { path: { id: gateway.options.instanceId! } } });
      expect(detail).toMatchObject({ name: 'client sandbox', status: 'connected', hasApiKey: true });
    });

    it('sends once for two sends under one Idempotency-Key, and makes a key when none is given', async () => {
      const body = { to: '447700900201', message: 'order #1042 has shipped' };
      const first = await gateway.send('/messages/text', body, { idempotencyKey: 'order-1042-shipped' });
      const again = await gateway.send('/messages/text', body, { idempotencyKey: 'order-1042-shipped' });
      expect(again).toEqual(first);
      expect(first).toEqual({ id: expect.stringMatching(/^3EB0[0-9A-F]{18}$/), idempotencyKey: 'order-1042-shipped' });
      const generated = await gateway.send('/messages/text', { to: '447700900201', message: 'a second message' });
      expect(generated.idempotencyKey).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
      const outbox = await eventually(
        () => gateway.GET('/sandbox/outbox'),
        (entries) => entries.some((entry) => entry.id === generated.id),
      );
      expect(outbox.filter((entry) => entry.to === '447700900201@s.whatsapp.net').map((entry) => [entry.id, entry.content])).toEqual([
        [first.id, { text: 'order #1042 has shipped' }],
        [generated.id, { text: 'a second message' }],
      ]);
    });

    it('retries a send whose answer was lost with the same key: the message goes out once', async () => {
      let lost = 0;
      const flaky = client.createGatewayClient({
        ...gateway.options,
        // The request reaches the gateway and is accepted; the connection breaks before the answer arrives.
        fetch: async (request) => {
          const response = await fetch(request);
          if (lost++ === 0) throw new TypeError('fetch failed: socket hang up');
          return response;
        },
      });
      const sent = await flaky.send('/messages/text', { to: '447700900202', message: 'sent once despite a lost answer' });
      expect(lost).toBe(2);
      const outbox = await eventually(
        () => gateway.GET('/sandbox/outbox'),
        (entries) => entries.some((entry) => entry.id === sent.id),
      );
      expect(outbox.filter((entry) => entry.to === '447700900202@s.whatsapp.net').map((entry) => entry.id)).toEqual([sent.id]);
    });

    it("throws GatewayError carrying the API's own {status, detail} for a 4xx", async () => {
      const refusals: [() => Promise<unknown>, { method: 'POST' | 'GET'; path: string; body?: object; headers: Record<string, string> }][] =
        [
          [
            () => gateway.send('/messages/text', { to: 'nobody', message: 'hi' }, { idempotencyKey: 'bad-recipient' }),
            { method: 'POST', path: '/messages/text', body: { to: 'nobody', message: 'hi' }, headers: instanceHeaders(gateway) },
          ],
          [
            () => client.createGatewayClient({ ...gateway.options, apiKey: 'mgw_wrong' }).GET('/instance/settings'),
            {
              method: 'GET',
              path: '/instance/settings',
              headers: { 'X-Api-Key': 'mgw_wrong', 'X-Instance-Id': gateway.options.instanceId! },
            },
          ],
          [
            () => gateway.send('/messages/text', { to: '447700900201', message: 'another body' }, { idempotencyKey: 'order-1042-shipped' }),
            {
              method: 'POST',
              path: '/messages/text',
              body: { to: '447700900201', message: 'another body' },
              headers: { ...instanceHeaders(gateway), 'Idempotency-Key': 'order-1042-shipped' },
            },
          ],
        ];
      for (const [call, direct] of refusals) {
        const error = await call().then(
          () => undefined,
          (thrown: unknown) => thrown,
        );
        const answer =
          direct.method === 'GET' ? await http.get(direct.path, direct.headers) : await http.post(direct.path, direct.body, direct.headers);
        expect(error).toBeInstanceOf(client.GatewayError);
        const gatewayError = error as InstanceType<ClientModule['GatewayError']>;
        expect({ status: gatewayError.status, detail: gatewayError.detail, httpStatus: gatewayError.response.status }).toEqual({
          ...(answer.body as object),
          httpStatus: answer.status,
        });
      }
    });

    it('reads the event stream across a cut connection without gaps or repeats, and resumes from a given id', async () => {
      const proxy = await startBreakableProxy(new URL(api.url));
      proxies.push(proxy);
      const viaProxy = client.createGatewayClient({ ...gateway.options, baseUrl: proxy.url });
      const stop = new AbortController();
      const stream = viaProxy.events({ signal: stop.signal, reconnectDelayMs: 100 });
      const received: StreamMessage[] = [];
      const reading = (async () => {
        for await (const message of stream) received.push(message);
      })();
      const texts = () =>
        received.flatMap((message) =>
          message.kind === 'event' && message.event.eventType === 'message' ? [message.event.eventData.text] : [],
        );
      const inbound = (text: string) => gateway.POST('/sandbox/inbound', { body: { from: '447700900301', type: 'text', text } });

      // The stream is open once the client has asked for it; events from here on must all arrive.
      await eventually(
        () => Promise.resolve(proxy.requestHeads.filter((head) => head.startsWith('GET /events/stream')).length),
        (count) => count === 1,
      );
      for (const text of ['one', 'two', 'three']) await inbound(text);
      await eventually(
        () => Promise.resolve(texts()),
        (seen) => seen.length === 3,
      );
      const beforeCut = stream.lastEventId!;
      // Cut the stream and keep the client from reconnecting while three more events happen.
      proxy.hold();
      proxy.dropConnections();
      for (const text of ['four', 'five', 'six']) await inbound(text);
      await eventually(
        () => Promise.resolve(proxy.waiting()),
        (count) => count > 0,
      );
      proxy.release();
      await eventually(
        () => Promise.resolve(texts()),
        (seen) => seen.length === 6,
        15_000,
      );

      expect(texts()).toEqual(['one', 'two', 'three', 'four', 'five', 'six']);
      const seqs = received.map((message) => message.seq);
      expect(received.every((message) => message.kind === 'event')).toBe(true);
      expect(seqs).toEqual(seqs.map((_seq, index) => seqs[0] + index));
      const streamRequests = proxy.requestHeads.filter((head) => head.startsWith('GET /events/stream'));
      expect(streamRequests.length).toBeGreaterThanOrEqual(2);
      expect(streamRequests[1]).toMatch(new RegExp(`\\r\\nlast-event-id: ${beforeCut}\\r\\n`, 'i'));
      stop.abort();
      await expect(reading).resolves.toBeUndefined();

      // A later reader resumes after any id it kept, and gets exactly what followed.
      const third = received.find((message) => message.kind === 'event' && message.event.eventData.text === 'three')!;
      const resumed: StreamMessage[] = [];
      const again = new AbortController();
      for await (const message of gateway.events({ lastEventId: third.seq, signal: again.signal })) {
        resumed.push(message);
        if (message.seq === seqs[seqs.length - 1]) again.abort();
      }
      expect(resumed).toEqual(received.filter((message) => message.seq > third.seq));
    });

    it('ends the stream with GatewayError 401 once the key that opened it is rotated, instead of retrying forever', async () => {
      const instance = await pairedInstance(client, api.url, customer, '15550390021');
      const received: StreamMessage[] = [];
      const reading = (async () => {
        for await (const message of instance.events({ after: 0, reconnectDelayMs: 100 })) received.push(message);
      })();
      await eventually(
        () => Promise.resolve(received.length),
        (count) => count > 0,
      );
      const newKey = await instance.PUT('/instance/apikey');
      expect(newKey).toEqual(expect.any(String));
      const ended = await reading.then(
        () => undefined,
        (error: unknown) => error,
      );
      expect(ended).toBeInstanceOf(client.GatewayError);
      expect((ended as InstanceType<ClientModule['GatewayError']>).toJSON()).toEqual({ status: 401, detail: 'unauthorized' });
    });

    it.each([
      ['a Standard Webhooks secret (whsec_)', `whsec_${randomBytes(32).toString('base64')}`, '15550390011'],
      ['a plain secret', 'a plain shared secret, 16+ characters', '15550390012'],
    ])('verifies a real delivery under both schemes with %s, and rejects a tampered one', async (_label, secret, phone) => {
      const instance = await pairedInstance(client, api.url, customer, phone);
      await instance.PUT('/instance/settings', {
        body: { useCustomDefaults: false, webhookUrl: `${receiver.url}/${phone}`, eventSigningSecret: secret },
      });
      await instance.POST('/sandbox/inbound', { body: { from: '447700900123', type: 'text', text: `hello ${phone}` } });
      const delivery = await eventually(
        () =>
          Promise.resolve(
            receiver.deliveries.find((candidate) => candidate.path === `/${phone}` && candidate.body.includes(`hello ${phone}`)),
          ),
        (found) => found !== undefined,
        15_000,
      );
      const { body, headers } = delivery!;
      for (const scheme of ['standard', 'body', 'both'] as const) {
        const event = await client.verifyWebhook({ secret, body, headers, scheme });
        expect(event).toEqual(JSON.parse(body));
        expect(event).toMatchObject({
          eventType: 'message',
          instanceId: instance.options.instanceId,
          eventData: { text: `hello ${phone}` },
        });
      }
      const tampered = body.replace(`hello ${phone}`, `HELLO ${phone}`);
      const failures = await Promise.all(
        (['standard', 'body'] as const).map((scheme) =>
          client.verifyWebhook({ secret, body: tampered, headers, scheme }).then(
            () => undefined,
            (error: Error) => [error.name, error.message],
          ),
        ),
      );
      expect(failures).toEqual([
        ['WebhookVerificationError', 'no webhook-signature matches'],
        ['WebhookVerificationError', 'X-Webhook-Signature does not match'],
      ]);
    });
  });
});

function instanceHeaders(gateway: GatewayClient): Record<string, string> {
  return { 'X-Api-Key': gateway.options.apiKey, 'X-Instance-Id': gateway.options.instanceId! };
}

/** A new sandbox instance made and paired through the client, as the README shows; resolves once it is connected. */
async function pairedInstance(client: ClientModule, baseUrl: string, customer: Customer, phone: string): Promise<GatewayClient> {
  const account = client.createGatewayClient({ baseUrl, apiKey: customer.apiKey });
  const created = await account.POST('/account/instances', { body: { name: 'client sandbox', sandbox: true } });
  const instance = account.forInstance(created.id, created.apiKey);
  await instance.POST('/sandbox/pair', { body: { phone } });
  await eventually(
    () => instance.GET('/session/status'),
    (status) => status.isConnected,
  );
  return instance;
}

interface Delivery {
  path: string;
  headers: IncomingHttpHeaders;
  body: string;
}

/** A webhook receiver that keeps every delivery's raw body and headers, for verification in the test. */
class CapturingReceiver {
  private constructor(
    private readonly server: Server,
    readonly url: string,
    readonly deliveries: Delivery[],
  ) {}

  static async start(): Promise<CapturingReceiver> {
    const deliveries: Delivery[] = [];
    const server = createServer((request, response) => {
      const chunks: Buffer[] = [];
      request.on('data', (chunk: Buffer) => chunks.push(chunk));
      request.on('end', () => {
        deliveries.push({ path: request.url ?? '', headers: request.headers, body: Buffer.concat(chunks).toString('utf8') });
        response.writeHead(204).end();
      });
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    return new CapturingReceiver(server, `http://127.0.0.1:${(server.address() as AddressInfo).port}`, deliveries);
  }

  close(): Promise<void> {
    return new Promise((resolve) => this.server.close(() => resolve()));
  }
}
