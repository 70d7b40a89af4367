import { spawn, type ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { copyFileSync } from 'node:fs';
import { join } from 'node:path';
import { startApi, type RunningApi } from './support/api-harness';
import { installPackedClient, type InstalledClient } from './support/client-package';
import { eventually } from './support/event-log';
import { createCustomer } from './support/fixtures';
import { Http } from './support/http';
import { pairedInstance, headersOf } from './support/instance-world';
import { freePort, spawnApp, type AppProcess } from './support/processes';

const EXAMPLES = join(__dirname, '..', 'examples');

/**
 * An example of examples/, run as its own process in a project where the packed client is installed (as the example's
 * header tells a user to), keeping what it prints.
 */
class ExampleProcess {
  private output = '';
  private constructor(
    private readonly child: ChildProcess,
    readonly url: string,
  ) {
    child.stdout?.on('data', (chunk: Buffer) => (this.output += chunk.toString()));
    child.stderr?.on('data', (chunk: Buffer) => (this.output += chunk.toString()));
  }

  static start(project: string, example: string, env: Record<string, string>, url = ''): ExampleProcess {
    copyFileSync(join(EXAMPLES, example), join(project, example));
    const child = spawn(process.execPath, [example], { cwd: project, env: { ...process.env, ...env }, stdio: ['ignore', 'pipe', 'pipe'] });
    return new ExampleProcess(child, url);
  }

  /** examples/webhook-receiver.mjs, once it listens. */
  static async receiver(project: string, secret: string): Promise<ExampleProcess> {
    const port = await freePort();
    const receiver = ExampleProcess.start(
      project,
      'webhook-receiver.mjs',
      { WEBHOOK_SECRET: secret, PORT: String(port) },
      `http://127.0.0.1:${port}/hooks`,
    );
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
    // 'close', not 'exit': the last lines it printed are read by then.
    const exited = new Promise((resolve) => this.child.once('close', resolve));
    this.child.kill('SIGTERM');
    await exited;
  }
}

describe('the examples (examples/*.mjs) with the packed client', () => {
  let api: RunningApi;
  let worker: AppProcess;
  let http: Http;
  let installed: InstalledClient;
  const processes: ExampleProcess[] = [];

  beforeAll(async () => {
    installed = installPackedClient();
    [api, worker] = await Promise.all([
      startApi({ webhookAllowedHosts: ['127.0.0.1'] }),
      spawnApp('worker', { WEBHOOK_ALLOWED_HOSTS: '127.0.0.1' }),
    ]);
    http = new Http(api.url, { checkSpec: false });
  });

  afterAll(async () => {
    await Promise.all([api?.close(), worker?.stop(), ...processes.map((example) => example.stop())]);
    installed?.remove();
  });

  it.each([
    ['a Standard Webhooks secret (whsec_)', `whsec_${randomBytes(32).toString('base64')}`, '15550380001'],
    ['a plain secret', 'a plain shared secret, 16+ characters', '15550380002'],
  ])(
    'webhook-receiver.mjs verifies both signatures of a real delivery with %s, and rejects a forged one',
    async (_label, secret, phone) => {
      const receiver = await ExampleProcess.receiver(installed.dir, secret);
      processes.push(receiver);
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
      expect(rejected).toEqual(['rejected: no webhook-signature matches']);
    },
  );

  it('send-and-stream.mjs sends once per Idempotency-Key and follows the stream, resuming where it stopped', async () => {
    const customer = await createCustomer(http, 'Example Co');
    const instance = await pairedInstance(http, customer, '15550380003');
    const env = {
      GATEWAY_URL: api.url,
      API_KEY: instance.apiKey,
      INSTANCE_ID: instance.id,
      TO: '447700900124',
      TEXT: 'hello from the example',
    };
    const first = ExampleProcess.start(installed.dir, 'send-and-stream.mjs', { ...env, IDEMPOTENCY_KEY: 'example-1' });
    processes.push(first);
    const firstLines = await eventually(
      () => Promise.resolve(first.lines()),
      (lines) => lines.some((line) => /^event \d+ message_status .*"status":"sent"/.test(line)),
      15_000,
    );
    const [, id] = /^sent (3EB0[0-9A-F]{18}) \(Idempotency-Key example-1\)$/.exec(firstLines[0]) ?? [];
    expect(id).toBeDefined();
    const status = firstLines.find((line) => line.includes(' message_status ')) ?? '';
    expect([status.includes(`"id":"${id}"`), status.includes('"status":"sent"')]).toEqual([true, true]);
    await first.stop();
    const resumeLine = first.lines().at(-1) ?? '';
    expect(resumeLine).toMatch(/^stopped; resume with LAST_EVENT_ID=\d+$/);

    // A rerun with the same key sends nothing new (same id), and resumes after the last event the first run printed.
    const lastSeen = Number(resumeLine.split('=')[1]);
    const second = ExampleProcess.start(installed.dir, 'send-and-stream.mjs', {
      ...env,
      IDEMPOTENCY_KEY: 'example-1',
      LAST_EVENT_ID: String(lastSeen),
    });
    processes.push(second);
    await eventually(
      () => Promise.resolve(second.lines()),
      (lines) => lines.length > 0,
    );
    expect(second.lines()[0]).toBe(`sent ${id} (Idempotency-Key example-1)`);
    await http.post('/sandbox/inbound', { from: '447700900124', type: 'text', text: 'a reply' }, headersOf(instance));
    const secondLines = await eventually(
      () => Promise.resolve(second.lines()),
      (lines) => lines.some((line) => line.includes('a reply')),
      15_000,
    );
    const seqs = secondLines.filter((line) => line.startsWith('event ')).map((line) => Number(line.split(' ')[1]));
    expect(seqs[0]).toBe(lastSeen + 1);
    const outbox = await http.get('/sandbox/outbox', headersOf(instance));
    expect((outbox.body as { id: string }[]).map((entry) => entry.id)).toEqual([id]);
  });
});
