import { randomBytes } from 'node:crypto';
import { Webhook } from 'standardwebhooks';
import { startApi, type RunningApi } from './support/api-harness';
import { eventLog, eventually } from './support/event-log';
import { createCustomer, createInstance, type CreatedInstance, type Customer } from './support/fixtures';
import { Http } from './support/http';
import { headersOf, waitForStatus } from './support/instance-world';
import { useServedOpenApi } from './support/openapi';
import { spawnApp, type AppProcess } from './support/processes';
import { FakeNetworkProcess } from './support/protocol-network/fake-network';
import { WebhookReceiver } from './support/webhook-receiver';

const SIGNING_SECRET = `whsec_${randomBytes(32).toString('base64')}`;

/**
 * The real-network driver end to end: the unmodified Baileys library in the built worker talks the WhatsApp Web
 * protocol (Noise handshake, binary nodes, pairing, login) with the fake network in test/support/protocol-network.
 */
describe('real instances over the WhatsApp Web protocol (fake network on loopback)', () => {
  let network: FakeNetworkProcess;
  let api: RunningApi;
  let worker: AppProcess;
  let http: Http;
  let customer: Customer;
  let receiver: WebhookReceiver;

  beforeAll(async () => {
    [network, receiver] = await Promise.all([FakeNetworkProcess.start(), WebhookReceiver.start()]);
    [api, worker] = await Promise.all([
      startApi({ webhookAllowedHosts: ['127.0.0.1'] }),
      spawnApp('worker', { ...network.workerEnv(), WEBHOOK_ALLOWED_HOSTS: '127.0.0.1' }),
    ]);
    http = new Http(api.url);
    await useServedOpenApi(api.url);
    customer = await createCustomer(http, 'Protocol Co');
  });

  afterAll(async () => {
    await Promise.all([api?.close(), worker?.stop(), receiver?.close()]);
    await network?.stop();
  });

  /** A new real instance delivering its events to `path` on the receiver, signed. */
  async function realInstance(path: string): Promise<CreatedInstance> {
    const instance = await createInstance(http, customer.apiKey, { name: path, sandbox: false });
    const saved = await http.put(
      '/instance/settings',
      { useCustomDefaults: false, webhookUrl: receiver.url(path), eventSigningSecret: SIGNING_SECRET },
      headersOf(instance),
    );
    expect(saved.status).toBe(204);
    return instance;
  }

  /** Pairs a new real instance by QR through the fake phone; resolves once it is connected. */
  async function pairedRealInstance(path: string, phone: string): Promise<{ instance: CreatedInstance; deviceJid: string; lid: string }> {
    const instance = await realInstance(path);
    const qr = await http.get('/session/qr/text', headersOf(instance));
    expect(qr.status).toBe(200);
    const { deviceJid, lid } = await network.scan((qr.body as { code: string }).code, phone);
    await waitForStatus(http, instance, (status) => status.isConnected);
    return { instance, deviceJid, lid };
  }

  it('pairs by QR: the QR the network issued, the phone scans it, 515 restart, login, connected, signed logged_in webhook', async () => {
    const instance = await realInstance('/pair-qr');
    const qr = await http.get('/session/qr/text', headersOf(instance));
    expect(qr.status).toBe(200);

    // The QR carries the first ref the server issued to this companion, its noise and identity keys, its ADV secret.
    const companions = await network.companions();
    const code = (qr.body as { code: string }).code;
    const companion = companions.find((candidate) => code.includes(candidate.noiseKey));
    expect(companion).toBeDefined();
    expect(code).toBe(
      `https://wa.me/settings/linked_devices#${companion!.refs[0]},${companion!.noiseKey},${companion!.identityKey},${code.split(',')[3]},1`,
    );
    expect(Buffer.from(code.split(',')[3], 'base64')).toHaveLength(32);
    expect((await http.get(`/account/instances/${instance.id}`, { 'X-Api-Key': customer.apiKey })).body).toMatchObject({ status: 'pairing' });

    const { deviceJid } = await network.scan(code, '447700900001');
    expect(deviceJid).toMatch(/^447700900001:\d+@s\.whatsapp\.net$/);
    expect(await waitForStatus(http, instance, (status) => status.isConnected)).toEqual({
      isConnected: true,
      isLoggedIn: true,
      deviceId: deviceJid,
    });
    expect((await http.get(`/account/instances/${instance.id}`, { 'X-Api-Key': customer.apiKey })).body).toMatchObject({ status: 'connected' });

    // The device logged in on a second connection (after the 515) and uploaded its pre-keys there.
    const device = (await network.devices()).find((candidate) => candidate.jid === deviceJid);
    expect(device).toEqual({ jid: deviceJid, lid: expect.stringMatching(/^\d+:\d+@lid$/), linked: true, connected: true, preKeys: 812 });

    const hooks = await eventually(
      async () => receiver.at('/pair-qr'),
      (received) => received.length >= 1,
    );
    expect(hooks.map((hook) => [hook.envelope.eventType, hook.envelope.eventData])).toEqual([['logged_in', { deviceId: deviceJid }]]);
    expect(new Webhook(SIGNING_SECRET).verify(hooks[0].rawBody, hooks[0].headers as Record<string, string>)).toEqual(hooks[0].envelope);
    expect((await eventLog(instance.id)).map((event) => event.eventType)).toEqual(['logged_in']);
  });

  it('a paired real instance reconnects at once after a 515 from the server and stays connected', async () => {
    const { instance, deviceJid } = await pairedRealInstance('/restart', '447700900002');
    await network.disconnect(deviceJid, 515);
    await eventually(
      async () => (await network.devices()).find((device) => device.jid === deviceJid)?.connected,
      (connected) => connected === true,
    );
    expect(await waitForStatus(http, instance, (status) => status.isConnected)).toEqual({ isConnected: true, isLoggedIn: true, deviceId: deviceJid });
    expect(worker.child.exitCode).toBeNull();
  });
});
