import { Client } from 'pg';
import { eventsOfType, eventually } from './support/event-log';
import { createInstance, type CreatedInstance } from './support/fixtures';
import { headersOf, waitForStatus } from './support/instance-world';
import { expectErrorBody } from './support/openapi';
import { startDante, startTinyproxy, type OutboundProxy } from './support/outbound-proxies';
import { freePort } from './support/processes';
import { RealNetworkWorld } from './support/real-network-world';
import { WebhookReceiver } from './support/webhook-receiver';
import { ScratchDatabase } from './repositories/scratch-database';

const ME = '447700900410';
const SOCKS_ME = '447700900411';
const ANN = { phone: '447700900123', name: 'Ann', lid: '123456789012345@lid' };
/** The source addresses the proxies connect from; the fake network takes devices only from these. */
const TINYPROXY_SOURCE = '127.0.0.3';
const DANTE_SOURCE = '127.0.0.4';
const CREDENTIALS = { user: 'alice', password: 's3cret-proxy' };

interface InstanceDetail {
  status: string;
  statusReason: string;
  settings: Record<string, unknown>;
}

/**
 * The outbound proxy per instance, end to end: the unmodified Baileys library in the built worker reaches the fake
 * WhatsApp network only through real proxies on loopback (tinyproxy for HTTP CONNECT with credentials, dante for
 * SOCKS5). The fake network refuses every device that does not come from a proxy's source address, and each proxy's own
 * log shows the tunnels it opened.
 */
describe('outbound proxy per instance (tinyproxy and dante in front of the fake network)', () => {
  let world: RealNetworkWorld;
  let httpProxy: OutboundProxy;
  let socksProxy: OutboundProxy;
  let egressProxy: OutboundProxy;
  let receiver: WebhookReceiver;
  let viaHttp: { instance: CreatedInstance; deviceJid: string };
  let viaSocks: { instance: CreatedInstance; deviceJid: string };
  let networkHostPort: string;

  // Its own database: the run's holds the real instances of earlier suites, which this suite's worker would resume and
  // send straight at this network (refused peers the assertions below must not see).
  const scratch = new ScratchDatabase('proxy');

  beforeAll(async () => {
    await scratch.create();
    await scratch.migrate();
    [httpProxy, socksProxy, egressProxy, receiver] = await Promise.all([
      startTinyproxy({ credentials: CREDENTIALS, bind: TINYPROXY_SOURCE }),
      startDante({ external: DANTE_SOURCE }),
      startTinyproxy(),
      WebhookReceiver.start(),
    ]);
    world = await RealNetworkWorld.start({
      customer: 'Proxy Co',
      people: [ANN],
      networkEnv: { FAKE_NETWORK_DEVICE_PEERS: `${TINYPROXY_SOURCE},${DANTE_SOURCE}` },
      workerEnv: { DATABASE_URL: scratch.url, WEBHOOK_ALLOWED_HOSTS: '127.0.0.1', WEBHOOK_EGRESS_PROXY: egressProxy.url },
      api: { databaseUrl: scratch.url, webhookAllowedHosts: ['127.0.0.1'] },
    });
    networkHostPort = new URL(world.network.webSocketUrl).host;
  }, 120_000);

  afterAll(async () => {
    await world?.stop();
    await Promise.all([httpProxy?.stop(), socksProxy?.stop(), egressProxy?.stop(), receiver?.close()]);
    await scratch.drop();
  });

  const detail = async (instance: CreatedInstance) =>
    (await world.http.get(`/account/instances/${instance.id}`, { 'X-Api-Key': world.customer.apiKey })).body as InstanceDetail;

  /** A real instance with `proxyUrl`, paired by QR through the fake phone; resolves once it is connected. */
  async function pairThrough(proxyUrl: string, phone: string): Promise<{ instance: CreatedInstance; deviceJid: string }> {
    const instance = await createInstance(world.http, world.customer.apiKey, { name: `via ${phone}`, sandbox: false });
    const saved = await world.http.put('/instance/settings', { useCustomDefaults: false, proxyUrl }, headersOf(instance));
    expect(saved.status).toBe(204);
    const qr = await world.http.get('/session/qr/text', headersOf(instance));
    expect(qr.status).toBe(200);
    const { deviceJid } = await world.network.scan((qr.body as { code: string }).code, phone);
    await waitForStatus(world.http, instance, (status) => status.isConnected);
    return { instance, deviceJid };
  }

  async function sendText(instance: CreatedInstance, message: string): Promise<string> {
    const response = await world.http.post('/messages/text', { to: ANN.phone, message }, headersOf(instance));
    expect(response.status).toBe(201);
    return (response.body as { id: string }).id;
  }

  const reachedAnn = (id: string) =>
    eventually(
      () => world.network.inbox(ANN.phone),
      (inbox) => inbox.some((entry) => entry.id === id),
      20_000,
    );

  it('pairs and sends through an HTTP proxy that wants credentials, and shows the proxy with its password masked', async () => {
    viaHttp = await pairThrough(httpProxy.url, ME);
    const id = await sendText(viaHttp.instance, 'through tinyproxy');
    await reachedAnn(id);
    expect(httpProxy.tunnels()).toContain(networkHostPort);
    expect(await world.network.refusedPeers()).toEqual([]);

    const settings = await world.http.get('/instance/settings', headersOf(viaHttp.instance));
    expect(settings.body).toEqual({
      name: `via ${ME}`,
      useCustomDefaults: false,
      pullMode: false,
      webhookUrl: '',
      eventSigningSecret: '',
      historySync: false,
      eventFilters: [],
      proxyUrl: `http://alice:…@127.0.0.1:${httpProxy.port}`,
      eventSink: null,
    });
    expect(JSON.stringify(await detail(viaHttp.instance))).not.toContain(CREDENTIALS.password);
    expect(await detail(viaHttp.instance)).toMatchObject({ status: 'connected', statusReason: '' });
  }, 60_000);

  it('uploads media through the same proxy (the media server takes no direct peer either)', async () => {
    // A 1×1 PNG.
    const png = 'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8BQDwAEhQGAhKmMIQAAAABJRU5ErkJggg==';
    const sent = await world.http.post('/messages/image', { to: ANN.phone, data: png, caption: 'via proxy' }, headersOf(viaHttp.instance));
    expect(sent.status).toBe(201);
    const id = (sent.body as { id: string }).id;
    const [status] = await eventually(
      () => eventsOfType(viaHttp.instance.id, 'message_status', 0, scratch.url),
      (events) => events.some((event) => event.data.id === id),
      20_000,
    ).then((events) => events.filter((event) => event.data.id === id));
    expect(status.data).toEqual({ id, chatId: `${ANN.phone}@s.whatsapp.net`, status: 'sent' });
    const mediaHost = new URL(world.network.mediaOrigin).host;
    expect(httpProxy.tunnels()).toContain(mediaHost);
    expect(await world.network.refusedPeers()).toEqual([]);
  }, 60_000);

  it('pairs and sends through a SOCKS5 proxy', async () => {
    viaSocks = await pairThrough(socksProxy.url, SOCKS_ME);
    const id = await sendText(viaSocks.instance, 'through dante');
    await reachedAnn(id);
    expect(socksProxy.tunnels()).toContain(networkHostPort);
    expect(await world.network.refusedPeers()).toEqual([]);
  }, 60_000);

  it('shows that the network refuses an instance without a proxy (the check the tests above rely on)', async () => {
    const direct = await createInstance(world.http, world.customer.apiKey, { name: 'direct', sandbox: false });
    const qr = await world.http.get('/session/qr/text', headersOf(direct));
    expectErrorBody(qr, 503, 'instance not available');
    expect(await world.network.refusedPeers()).toContain('127.0.0.1');
    await world.http.delete(`/account/instances/${direct.id}`, { 'X-Api-Key': world.customer.apiKey });
  }, 30_000);

  it('reports refused credentials in the status and one event, and stops trying', async () => {
    const instance = await createInstance(world.http, world.customer.apiKey, { name: 'wrong password', sandbox: false });
    const wrong = `http://alice:wrong@127.0.0.1:${httpProxy.port}`;
    expect((await world.http.put('/instance/settings', { useCustomDefaults: false, proxyUrl: wrong }, headersOf(instance))).status).toBe(
      204,
    );
    expectErrorBody(await world.http.get('/session/qr/text', headersOf(instance)), 503, 'instance not available');
    const shown = await eventually(
      () => detail(instance),
      (read) => read.statusReason !== '',
    );
    expect(shown).toMatchObject({ status: 'unpaired', statusReason: 'proxy_auth_failed' });
    const events = await eventually(
      () => eventsOfType(instance.id, 'instance_connection', 0, scratch.url),
      (found) => found.length > 0,
    );
    expect(events.map((event) => event.data)).toEqual([
      {
        state: 'failed',
        reason: 'proxy_auth_failed',
        // tinyproxy answers 401 where RFC 9110 says 407; both mean the credentials.
        detail: 'the proxy refused the credentials (HTTP/1.0 401 Unauthorized)',
      },
    ]);
    // No reconnect loop: the pairing stopped (the worker schedules nothing), and a moment later nothing more happened.
    const status = (await (await fetch(`${world.worker.url}/status`)).json()) as { reconnecting: { instanceId: string }[] };
    expect(status.reconnecting.filter((entry) => entry.instanceId === instance.id)).toEqual([]);
    await new Promise((resolve) => setTimeout(resolve, 2_000));
    expect(await eventsOfType(instance.id, 'instance_connection', 0, scratch.url)).toHaveLength(1);
  }, 30_000);

  it('a dead proxy disconnects only the instance it was set on, with the reason; the proxy set back restores it', async () => {
    const linksOfOther = (await world.network.links(viaHttp.deviceJid)).length;
    const dead = `http://127.0.0.1:${await freePort()}`;
    const changed = await world.http.put('/instance/settings', { proxyUrl: dead }, headersOf(viaSocks.instance));
    expect(changed.status).toBe(204);
    const down = await eventually(
      () => detail(viaSocks.instance),
      (read) => read.statusReason === 'proxy_unreachable',
      20_000,
    );
    expect(down.status).toBe('disconnected');
    // The instance-scoped view says the same (a client holding only the instance key).
    expect((await world.http.get('/session/status', headersOf(viaSocks.instance))).body).toEqual({
      isConnected: false,
      isLoggedIn: true,
      deviceId: viaSocks.deviceJid,
      statusReason: 'proxy_unreachable',
    });
    const [failed] = await eventually(
      () => eventsOfType(viaSocks.instance.id, 'instance_connection', 0, scratch.url),
      (found) => found.length > 0,
    );
    expect(failed.data).toEqual({
      state: 'failed',
      reason: 'proxy_unreachable',
      detail: `the proxy ${new URL(dead).host} cannot be reached: ECONNREFUSED`,
      retryAt: expect.stringMatching(/^\d{4}-\d\d-\d\dT/),
    });
    // The other instance's link never moved.
    expect(await world.network.links(viaHttp.deviceJid)).toHaveLength(linksOfOther);
    expect(await detail(viaHttp.instance)).toMatchObject({ status: 'connected', statusReason: '' });

    const back = await world.http.put('/instance/settings', { proxyUrl: socksProxy.url }, headersOf(viaSocks.instance));
    expect(back.status).toBe(204);
    await waitForStatus(world.http, viaSocks.instance, (status) => status.isConnected);
    expect(await detail(viaSocks.instance)).toMatchObject({ status: 'connected', statusReason: '' });
    expect((await world.http.get('/session/status', headersOf(viaSocks.instance))).body).toEqual({
      isConnected: true,
      isLoggedIn: true,
      deviceId: viaSocks.deviceJid,
    });
    const events = await eventually(
      () => eventsOfType(viaSocks.instance.id, 'instance_connection', 0, scratch.url),
      (found) => found.length === 2,
    );
    expect(events[1].data).toEqual({ state: 'restored' });
    expect(await world.network.links(viaHttp.deviceJid)).toHaveLength(linksOfOther);
  }, 60_000);

  it('delivers webhooks through the webhook egress proxy, never through the instance proxy', async () => {
    const saved = await world.http.put('/instance/settings', { webhookUrl: receiver.url('/proxied') }, headersOf(viaHttp.instance));
    expect(saved.status).toBe(204);
    const { id } = await world.network.sendFromContact(ANN.phone, viaHttp.deviceJid, { conversation: 'hello via proxy' });
    const hook = await eventually(
      () => Promise.resolve(receiver.received.filter((received) => received.envelope.eventData.id === id)),
      (found) => found.length > 0,
      20_000,
    );
    expect(hook[0].envelope.eventType).toBe('message');
    const receiverHost = new URL(receiver.url('/proxied')).host;
    expect(egressProxy.tunnels()).toContain(receiverHost);
    expect(httpProxy.tunnels()).not.toContain(receiverHost);
  }, 30_000);

  it('refuses proxy URLs it cannot use, with the reason, and keeps the stored one', async () => {
    const cases: [string, string][] = [
      ['ftp://proxy.example:21', 'validation error: proxyUrl must use one of the schemes http, socks5'],
      ['http://proxy.example', 'validation error: proxyUrl must name the proxy port, e.g. :3128'],
      ['http://proxy.example:3128/path', 'validation error: proxyUrl must end after host:port (no path, query or fragment)'],
      [
        'not a url',
        'validation error: proxyUrl must be a URL such as http://user:password@proxy.example:3128 or socks5://proxy.example:1080',
      ],
      ['http://10.1.2.3:3128', 'validation error: proxyUrl must point to a public address: 10.1.2.3 is not a public address'],
      [
        'http://bob:…@127.0.0.1:1',
        'validation error: proxyUrl is a masked value that does not match the current secret; send the full new secret, or the value read back unchanged to keep it',
      ],
    ];
    for (const [proxyUrl, message] of cases) {
      expectErrorBody(await world.http.put('/instance/settings', { proxyUrl }, headersOf(viaHttp.instance)), 400, message);
    }
    const masked = `http://alice:…@127.0.0.1:${httpProxy.port}`;
    expect((await world.http.put('/instance/settings', { proxyUrl: masked }, headersOf(viaHttp.instance))).status).toBe(204);
    expect(((await world.http.get('/instance/settings', headersOf(viaHttp.instance))).body as { proxyUrl: string }).proxyUrl).toBe(masked);
    expect(await detail(viaHttp.instance)).toMatchObject({ status: 'connected' });
  }, 30_000);

  it('keeps a customer default proxy masked and encrypted like the signing secret', async () => {
    const headers = { 'X-Api-Key': world.customer.apiKey };
    const defaults = {
      defaultWebhookUrl: '',
      defaultSigningSecret: '',
      defaultEventFilters: [],
      defaultHistorySync: false,
      defaultPullMode: false,
      defaultProxyUrl: `socks5://carol:p4ss@127.0.0.1:${socksProxy.port}`,
    };
    expect((await world.http.put('/account/instances/defaults', defaults, headers)).status).toBe(204);
    expect((await world.http.get('/account/instances/defaults', headers)).body).toEqual({
      ...defaults,
      defaultProxyUrl: `socks5://carol:…@127.0.0.1:${socksProxy.port}`,
      defaultEventSink: null,
    });

    // At rest: AES-GCM like the signing secrets (`v1.<iv>.<tag>.<ciphertext>`), no credential in clear.
    const db = new Client({ connectionString: scratch.url });
    await db.connect();
    try {
      const customerRow = await db.query<{ stored: string }>('SELECT default_proxy_url_enc AS stored FROM customers WHERE id = $1', [
        world.customer.id,
      ]);
      const instanceRow = await db.query<{ stored: string }>('SELECT proxy_url_enc AS stored FROM instances WHERE id = $1', [
        viaHttp.instance.id,
      ]);
      for (const { stored } of [...customerRow.rows, ...instanceRow.rows]) {
        expect(stored).toMatch(/^v1\.[\w-]+\.[\w-]+\.[\w-]+$/);
        expect(stored).not.toContain('p4ss');
        expect(stored).not.toContain(CREDENTIALS.password);
      }
      expect(customerRow.rows).toHaveLength(1);
      expect(instanceRow.rows).toHaveLength(1);
    } finally {
      await db.end();
    }
  });
});
