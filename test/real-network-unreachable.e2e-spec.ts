import { execFileSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { join } from 'node:path';
import { Client } from 'pg';
import { NetworkAuthRepository, PrismaService } from '@app/database';
import { SecretBox } from '@app/security';
import { startApi, type RunningApi } from './support/api-harness';
import { testConfig, testEnv } from './support/environment';
import { eventually } from './support/event-log';
import { createCustomer, createInstance, type CreatedInstance, type Customer } from './support/fixtures';
import { Http } from './support/http';
import { expectErrorBody, useServedOpenApi } from './support/openapi';
import { freePort, spawnApp, type AppProcess } from './support/processes';

const DEVICE_ID = '447700900123:4@s.whatsapp.net';
const RECONNECT_LINE = /"msg":"(ins_[^:]+): link down \(([^"]*)\); reconnect attempt (\d+) in (\d+) ms"/g;

/**
 * Credentials as Baileys keeps them for a linked device: its own fresh ones (Baileys loads in plain Node, not in
 * Jest), plus what pairing adds. The socket then takes the login path, as a paired instance does in production.
 */
function linkedDeviceCredentials(): string {
  const script = `const b = require('@whiskeysockets/baileys'); process.stdout.write(JSON.stringify(b.initAuthCreds(), b.BufferJSON.replacer));`;
  const fresh = JSON.parse(execFileSync(process.execPath, ['-e', script], { cwd: join(__dirname, '..'), encoding: 'utf8' })) as object;
  const bytes = (size: number) => ({ type: 'Buffer', data: randomBytes(size).toString('base64') });
  return JSON.stringify({
    ...fresh,
    me: { id: DEVICE_ID, name: 'Live Test', lid: '201234567890123:4@lid' },
    account: { details: bytes(40), accountSignatureKey: bytes(32), accountSignature: bytes(64), deviceSignature: bytes(64) },
    platform: 'android',
  });
}

interface ReconnectLine {
  instanceId: string;
  reason: string;
  attempt: number;
  delayMs: number;
}

function reconnectLines(output: string, instanceId: string): ReconnectLine[] {
  return [...output.matchAll(RECONNECT_LINE)]
    .map(([, id, reason, attempt, delay]) => ({ instanceId: id, reason, attempt: Number(attempt), delayMs: Number(delay) }))
    .filter((line) => line.instanceId === instanceId);
}

describe('real instances while WhatsApp is unreachable', () => {
  let api: RunningApi;
  let worker: AppProcess;
  let http: Http;
  let customer: Customer;
  let paired: CreatedInstance;
  let db: Client;
  let prisma: PrismaService;
  let workerStartedAt: number;

  const headersOf = (instance: CreatedInstance) => ({ 'X-Api-Key': instance.apiKey, 'X-Instance-Id': instance.id });
  const healthy = async () => (await fetch(`${worker.url}/health`)).status;
  const workerStatus = async () =>
    (await (await fetch(`${worker.url}/status`)).json()) as { reconnecting: { instanceId: string; attempt: number; reason: string }[] };

  beforeAll(async () => {
    api = await startApi();
    http = new Http(api.url);
    await useServedOpenApi(api.url);
    customer = await createCustomer(http, 'Real Network Co');

    // A paired real instance, as the database holds it after a pairing: encrypted credentials, status and device.
    paired = await createInstance(http, customer.apiKey, { name: 'real paired' });
    const config = testConfig();
    prisma = new PrismaService(config);
    await new NetworkAuthRepository(prisma, new SecretBox(config.encryptionKey)).saveCredentials(paired.id, linkedDeviceCredentials());
    db = new Client({ connectionString: testEnv().DATABASE_URL });
    await db.connect();
    await db.query(`UPDATE instances SET status = 'disconnected', device_id = $2 WHERE id = $1`, [paired.id, DEVICE_ID]);

    // Nothing listens on this port: every connection attempt is refused at once, the way an unreachable network fails.
    const nowhere = `ws://127.0.0.1:${await freePort()}/ws/chat`;
    workerStartedAt = Date.now();
    worker = await spawnApp('worker', { BAILEYS_WS_URL: nowhere });
  });

  afterAll(async () => {
    await Promise.all([api?.close(), worker?.stop(), db?.end(), prisma?.onModuleDestroy()]);
  });

  it("answers a new real instance's QR request with 503 well within 45 s, and the worker stays healthy", async () => {
    const instance = await createInstance(http, customer.apiKey, { name: 'real unpaired' });
    const started = Date.now();
    const qr = await http.get('/session/qr/text', headersOf(instance));
    expect(Date.now() - started).toBeLessThan(45_000);
    expectErrorBody(qr, 503, 'instance not available');
    expectErrorBody(await http.get('/session/pair-code/447700900123', headersOf(instance)), 503, 'instance not available');
    expect(await healthy()).toBe(200);
    expect(worker.child.exitCode).toBeNull();
    expect(await http.get('/session/status', headersOf(instance))).toMatchObject({
      status: 200,
      body: { isConnected: false, isLoggedIn: false, deviceId: '' },
    });
  });

  it('keeps reconnecting a paired real instance with growing backoff, visible in status and logs, without a tight loop', async () => {
    const windowMs = 12_000;
    const started = Date.now();
    const seen = new Set<string>();
    while (Date.now() - started < windowMs) {
      expect(await healthy()).toBe(200);
      const live = (await http.get(`/account/instances/${paired.id}`, { 'X-Api-Key': customer.apiKey })).body as { status: string };
      seen.add(live.status);
      await new Promise((resolve) => setTimeout(resolve, 200));
    }
    expect(worker.child.exitCode).toBeNull();

    const attempts = reconnectLines(worker.output(), paired.id);
    // Delays of 0.5, 1, 2, 4 s ... (-20 % at most) allow attempt n only after 0.4 * (2^(n-1) - 1) s: a handful since the
    // worker started, where a tight loop would have made thousands.
    const atMost = Math.floor(Math.log2((Date.now() - workerStartedAt) / 400 + 1)) + 1;
    expect(attempts.length).toBeGreaterThanOrEqual(4);
    expect(attempts.length).toBeLessThanOrEqual(atMost);
    expect(attempts.map((line) => line.attempt)).toEqual(attempts.map((_, index) => index + 1));
    for (let i = 1; i < attempts.length; i++) expect(attempts[i].delayMs).toBeGreaterThan(attempts[i - 1].delayMs * 1.3);
    expect(attempts[0].reason).toMatch(/^WebSocket Error \(connect ECONNREFUSED 127\.0\.0\.1:\d+\) \(408\)$/);

    // Between attempts the instance is disconnected; each attempt shows as connecting for the moment it takes to fail.
    expect(seen.has('disconnected')).toBe(true);
    expect([...seen].filter((status) => status !== 'connecting' && status !== 'disconnected')).toEqual([]);
    expect((await http.get('/session/status', headersOf(paired))).body).toEqual({
      isConnected: false,
      isLoggedIn: true,
      deviceId: DEVICE_ID,
    });
    expectErrorBody(await http.post('/session/flush-history', undefined, headersOf(paired)), 503, 'instance not available');

    // The run's database may hold other suites' instances; only this one is looked at.
    const ours = async () => (await workerStatus()).reconnecting.filter((entry) => entry.instanceId === paired.id);
    const pending = await eventually(ours, (entries) => entries.length === 1);
    expect(pending).toEqual([
      {
        instanceId: paired.id,
        attempt: expect.any(Number),
        delayMs: expect.any(Number),
        at: expect.any(String),
        reason: attempts[0].reason,
      },
    ]);
    expect(pending[0].attempt).toBeGreaterThanOrEqual(attempts.length);
  });
});
