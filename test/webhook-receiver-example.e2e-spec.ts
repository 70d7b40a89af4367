import { spawn, type ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { join } from 'node:path';
import { startApi, type RunningApi } from './support/api-harness';
import { eventually } from './support/event-log';
import { createCustomer } from './support/fixtures';
import { Http } from './support/http';
import { pairedInstance, headersOf } from './support/instance-world';
import { freePort, spawnApp, type AppProcess } from './support/processes';

const EXAMPLE = join(__dirname, '..', 'examples', 'webhook-receiver.mjs');

/** The README's receiver snippet (examples/webhook-receiver.mjs), run as its own process, exactly as documented. */
class ExampleReceiver {
  private output = '';
  private constructor(
    private readonly child: ChildProcess,
    readonly url: string,
  ) {
    child.stdout?.on('data', (chunk: Buffer) => (this.output += chunk.toString()));
    child.stderr?.on('data', (chunk: Buffer) => (this.output += chunk.toString()));
  }

  static async start(secret: string): Promise<ExampleReceiver> {
    const port = await freePort();
    const child = spawn(process.execPath, [EXAMPLE], {
      env: { ...process.env, WEBHOOK_SECRET: secret, PORT: String(port) },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    const receiver = new ExampleReceiver(child, `http://127.0.0.1:${port}/hooks`);
    await eventually(
      () => Promise.resolve(receiver.lines()),
      (lines) => lines.some((line) => line.startsWith('listening on')),
    );
    return receiver;
  }

  lines(): string[] {
    return this.output.split('\n').filter(Boolean);
  }

  async stop(): Promise<void> {
    if (this.child.exitCode !== null) return;
    const exited = new Promise((resolve) => this.child.once('exit', resolve));
    this.child.kill('SIGTERM');
    await exited;
  }
}

describe('the README webhook receiver (examples/webhook-receiver.mjs)', () => {
  let api: RunningApi;
  let worker: AppProcess;
  let http: Http;
  const receivers: ExampleReceiver[] = [];

  beforeAll(async () => {
    [api, worker] = await Promise.all([
      startApi({ webhookAllowedHosts: ['127.0.0.1'] }),
      spawnApp('worker', { WEBHOOK_ALLOWED_HOSTS: '127.0.0.1' }),
    ]);
    http = new Http(api.url, { checkSpec: false });
  });

  afterAll(async () => {
    await Promise.all([api?.close(), worker?.stop(), ...receivers.map((receiver) => receiver.stop())]);
  });

  it.each([
    ['a Standard Webhooks secret (whsec_)', `whsec_${randomBytes(32).toString('base64')}`, '15550380001'],
    ['a plain secret', 'a plain shared secret, 16+ characters', '15550380002'],
  ])('verifies both signatures of a real delivery with %s, and rejects a forged one', async (_label, secret, phone) => {
    const receiver = await ExampleReceiver.start(secret);
    receivers.push(receiver);
    const customer = await createCustomer(http, 'Receiver Co');
    const instance = await pairedInstance(http, customer, phone);
    const saved = await http.put(
      '/instance/settings',
      { useCustomDefaults: false, webhookUrl: receiver.url, eventSigningSecret: secret },
      headersOf(instance),
    );
    expect(saved.status).toBe(204);

    const inbound = await http.post(
      '/sandbox/inbound',
      { from: '447700900123', type: 'text', text: 'hello receiver' },
      headersOf(instance),
    );
    expect(inbound.status).toBe(201);
    const lines = await eventually(
      () => Promise.resolve(receiver.lines()),
      (all) => all.some((line) => line.includes('hello receiver')),
      15_000,
    );
    // Delivery is at least once, so a slow moment may bring a second copy: every copy verifies, under one webhook-id.
    const copies = lines.filter((line) => line.includes('hello receiver'));
    for (const copy of copies) expect(copy).toMatch(/^verified \S+ message: \{.*"text":"hello receiver".*\}$/);
    expect(new Set(copies.map((copy) => copy.split(' ')[1])).size).toBe(1);
    expect(lines.filter((line) => line.startsWith('rejected'))).toEqual([]);

    // The same body signed with another key is refused, and said so.
    const forged = await fetch(receiver.url, {
      method: 'POST',
      headers: {
        'Content-Type': 'application/json',
        'webhook-id': 'evt_forged',
        'webhook-timestamp': String(Math.floor(Date.now() / 1000)),
        'webhook-signature': `v1,${randomBytes(32).toString('base64')}`,
        'X-Webhook-Signature': `sha256=${randomBytes(32).toString('hex')}`,
      },
      body: JSON.stringify({ eventType: 'message', eventData: { text: 'forged' } }),
    });
    expect(forged.status).toBe(401);
    // The receiver's output reaches this process through a pipe, possibly after the response.
    const rejected = await eventually(
      () => Promise.resolve(receiver.lines().filter((line) => line.startsWith('rejected'))),
      (found) => found.length > 0,
    );
    expect(rejected).toEqual(['rejected: No matching signature found']);
  });
});
