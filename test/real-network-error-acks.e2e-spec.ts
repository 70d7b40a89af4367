import { randomBytes } from 'node:crypto';
import { Client } from 'pg';
import { startApi, type RunningApi } from './support/api-harness';
import { testEnv } from './support/environment';
import { eventLog, eventually, type LoggedEvent } from './support/event-log';
import { createCustomer, createInstance, type CreatedInstance, type Customer } from './support/fixtures';
import { Http } from './support/http';
import { headersOf, waitForStatus } from './support/instance-world';
import { useServedOpenApi } from './support/openapi';
import { ownsAllShards, spawnApp, type AppProcess } from './support/processes';
import { FakeNetworkProcess } from './support/protocol-network/fake-network';
import { WebhookReceiver } from './support/webhook-receiver';
import { storedAuth } from './support/real-network-world';

const SIGNING_SECRET = `whsec_${randomBytes(32).toString('base64')}`;
const ANN_PHONE = '447700900123';
const ANN = `${ANN_PHONE}@s.whatsapp.net`;
const ANN_LID = '123456789012345@lid';
/** The worker's breaker, short for the test: 3 restriction refusals in a minute pause sends for 2 s (then 4 s). */
const BREAKER_ENV = { SEND_REFUSAL_LIMIT: '3', SEND_REFUSAL_WINDOW_SECONDS: '60', SEND_REFUSAL_COOLDOWN_SECONDS: '2' };

const REASONS = {
  463: 'refused by the network (463): the account is restricted from reaching out: the network refuses messages to chats without a privacy token (new chats)',
  479: 'refused by the network (479): the network rejected the message stanza as invalid (SMAX invalid: often a stale device session or addressing)',
  421: 'refused by the network (421): the network refused the message for now (rate limited)',
} as const;

type EventPair = [string, Record<string, unknown>];
const pairs = (events: LoggedEvent[]): EventPair[] => events.map((event) => [event.eventType, event.data]);

/**
 * The network refusing our sends (error acks 463, 479, 421) and removing our device (`device_removed`), on the fake
 * WhatsApp Web network with the unmodified Baileys library in the built worker.
 */
describe('real instances whose sends the network refuses, and whose device it removes (fake network on loopback)', () => {
  let network: FakeNetworkProcess;
  let api: RunningApi;
  let worker: AppProcess;
  let http: Http;
  let customer: Customer;
  let receiver: WebhookReceiver;
  let real: CreatedInstance;
  /** Another instance for the 479 and 421 refusals, so that no test's refusals add up to a pause of another's. */
  let other: CreatedInstance;

  beforeAll(async () => {
    [network, receiver] = await Promise.all([FakeNetworkProcess.start(), WebhookReceiver.start()]);
    [api, worker] = await Promise.all([
      startApi({ webhookAllowedHosts: ['127.0.0.1'] }),
      spawnApp('worker', { ...network.workerEnv(), ...BREAKER_ENV, WEBHOOK_ALLOWED_HOSTS: '127.0.0.1' }),
    ]);
    await ownsAllShards(worker, api.config.shardCount);
    http = new Http(api.url);
    await useServedOpenApi(api.url);
    customer = await createCustomer(http, 'Refusals Co');
    await network.addContact(ANN_PHONE, 'Ann', ANN_LID);
    [{ instance: real }, { instance: other }] = await Promise.all([
      pairedRealInstance('/real', '447700900100'),
      pairedRealInstance('/other', '447700900101'),
    ]);
  });

  afterAll(async () => {
    await Promise.all([api?.close(), worker?.stop(), receiver?.close()]);
    await network?.stop();
  });

  async function pairedRealInstance(path: string, phone: string): Promise<{ instance: CreatedInstance; deviceJid: string }> {
    const instance = await createInstance(http, customer.apiKey, { name: path, sandbox: false });
    const saved = await http.put(
      '/instance/settings',
      { useCustomDefaults: false, webhookUrl: receiver.url(path), eventSigningSecret: SIGNING_SECRET },
      headersOf(instance),
    );
    expect(saved.status).toBe(204);
    const qr = await http.get('/session/qr/text', headersOf(instance));
    expect(qr.status).toBe(200);
    const { deviceJid } = await network.scan((qr.body as { code: string }).code, phone);
    await waitForStatus(http, instance, (status) => status.isConnected);
    return { instance, deviceJid };
  }

  async function sendText(instance: CreatedInstance, message: string): Promise<string> {
    const response = await http.post('/messages/text', { to: ANN_PHONE, message }, headersOf(instance));
    expect(response.status).toBe(201);
    return (response.body as { id: string }).id;
  }

  /** The events of one message once its outcome is logged. */
  async function outcomeOf(instance: CreatedInstance, id: string): Promise<EventPair[]> {
    await eventually(
      () => eventLog(instance.id),
      (events) => events.some((event) => event.eventType === 'message_status' && event.data.id === id),
    );
    await new Promise((resolve) => setTimeout(resolve, 300));
    return pairs((await eventLog(instance.id)).filter((event) => event.data.id === id));
  }

  async function storedStatus(id: string): Promise<{ status: string; error: string | null }> {
    const db = new Client({ connectionString: testEnv().DATABASE_URL });
    await db.connect();
    try {
      const { rows } = await db.query<{ status: string; error: string | null }>('SELECT status, error FROM messages WHERE id = $1', [id]);
      return rows[0];
    } finally {
      await db.end();
    }
  }

  describe.each([
    ['phone number', 'pn'],
    ['LID (the phone number alongside)', 'lid'],
  ] as const)('one-to-one chats addressed by %s', (_name, mode) => {
    beforeAll(() => network.addressing(mode));
    afterAll(() => network.addressing('pn'));

    it('a send the network refuses with 463 is failed with the code and the reason, never reported sent', async () => {
      await network.refuse({ phone: ANN_PHONE }, 463, 1);
      const id = await sendText(real, `refused in ${mode}`);
      expect(await outcomeOf(real, id)).toEqual([
        ['message_status', { id, chatId: ANN, status: 'failed', error: REASONS[463], code: 463 }],
      ]);
      expect(await storedStatus(id)).toEqual({ status: 'failed', error: REASONS[463] });
      expect((await network.refused()).filter((refusal) => refusal.id === id)).toEqual([
        { id, to: mode === 'lid' ? expect.stringMatching(/@(lid|s\.whatsapp\.net)$/) : ANN, code: 463 },
      ]);
      expect((await network.inbox(ANN_PHONE)).filter((entry) => entry.id === id)).toEqual([]);
      // The refusal used up, the next send is taken as before.
      const next = await sendText(real, `taken in ${mode}`);
      expect((await outcomeOf(real, next)).map(([type, data]) => [type, data.status ?? data.type])).toEqual([
        ['message_status', 'sent'],
        ['message', 'text'],
      ]);
    });
  });

  it.each([479, 421] as const)('a send refused with %s is failed with that code and its reason', async (code) => {
    await network.refuse({ phone: ANN_PHONE }, code, 1);
    const id = await sendText(other, `refused with ${code}`);
    expect(await outcomeOf(other, id)).toEqual([['message_status', { id, chatId: ANN, status: 'failed', error: REASONS[code], code }]]);
    const hooks = await eventually(
      () => Promise.resolve(receiver.at('/other').filter((hook) => hook.envelope.eventData.id === id)),
      (found) => found.length >= 1,
    );
    expect(hooks.map((hook) => [hook.envelope.eventType, hook.envelope.eventData])).toEqual([
      ['message_status', { id, chatId: ANN, status: 'failed', error: REASONS[code], code }],
    ]);
  });

  it('a group send the network refuses (479) is failed for the group, and no member gets it', async () => {
    const created = await http.post('/groups', { name: 'Refused crew', participants: [ANN_PHONE] }, headersOf(other));
    expect(created.status).toBe(201);
    const groupId = (created.body as { groupId: string }).groupId;
    await network.refuse({ group: groupId }, 479, 1);
    const response = await http.post('/messages/text', { to: groupId, message: 'not for the crew' }, headersOf(other));
    expect(response.status).toBe(201);
    const { id } = response.body as { id: string };
    expect(await outcomeOf(other, id)).toEqual([
      ['message_status', { id, chatId: groupId, status: 'failed', error: REASONS[479], code: 479 }],
    ]);
    expect((await network.refused()).filter((refusal) => refusal.id === id)).toEqual([{ id, to: groupId, code: 479 }]);
    expect((await network.inbox(ANN_PHONE)).filter((entry) => entry.id === id)).toEqual([]);
  });

  it('repeated 463s pause the instance: later sends wait, a refused probe pauses it twice as long, a taken probe resumes it', async () => {
    const { instance } = await pairedRealInstance('/restricted', '447700900200');
    await network.refuse({ phone: ANN_PHONE }, 463);
    const refused = [await sendText(instance, 'one'), await sendText(instance, 'two'), await sendText(instance, 'three')];
    const paused = await eventually(
      () => eventLog(instance.id),
      (events) => events.some((event) => event.eventType === 'instance_sending'),
    );
    const pausedAt = Date.now();
    // Accepted while paused: they wait, in order.
    const waiting = [await sendText(instance, 'four'), await sendText(instance, 'five')];
    await new Promise((resolve) => setTimeout(resolve, 1_000));
    expect((await network.refused()).filter((refusal) => waiting.includes(refusal.id))).toEqual([]);
    expect(await Promise.all(waiting.map(storedStatus))).toEqual([
      { status: 'accepted', error: null },
      { status: 'accepted', error: null },
    ]);
    expect(pairs(paused.filter((event) => event.eventType !== 'logged_in'))).toEqual([
      ...refused.slice(0, 2).map((id) => ['message_status', { id, chatId: ANN, status: 'failed', error: REASONS[463], code: 463 }]),
      ['message_status', { id: refused[2], chatId: ANN, status: 'failed', error: REASONS[463], code: 463 }],
      [
        'instance_sending',
        {
          state: 'paused',
          code: 463,
          refusals: 3,
          probeAt: expect.any(String),
          reason: 'the network refused 3 sends as from a restricted account (last: 463); sends wait, then one probes',
        },
      ],
    ]);
    const probeAt = Date.parse(paused.at(-1)!.data.probeAt as string);
    // The instance's status says so while the pause lasts.
    expect((await http.get('/session/status', headersOf(instance))).body).toEqual({
      isConnected: true,
      isLoggedIn: true,
      deviceId: expect.any(String),
      sending: { state: 'paused', code: 463, refusals: 3, probeAt: paused.at(-1)!.data.probeAt },
    });
    expect(probeAt - pausedAt).toBeGreaterThan(1_000);
    expect(probeAt - pausedAt).toBeLessThanOrEqual(2_100);

    // The probe ('four') is refused again: paused for twice the cool-down; 'five' still waits.
    const second = await eventually(
      () => eventLog(instance.id),
      (events) => events.filter((event) => event.eventType === 'instance_sending').length === 2,
      10_000,
    );
    const tail = pairs(second.slice(paused.length));
    expect(tail).toEqual([
      ['message_status', { id: waiting[0], chatId: ANN, status: 'failed', error: REASONS[463], code: 463 }],
      [
        'instance_sending',
        {
          state: 'paused',
          code: 463,
          refusals: 4,
          probeAt: expect.any(String),
          reason: 'the network refused 4 sends as from a restricted account (last: 463); sends wait, then one probes',
        },
      ],
    ]);
    const secondProbe = Date.parse(tail[1][1].probeAt as string);
    expect(secondProbe - Date.parse(paused.at(-1)!.data.probeAt as string)).toBeGreaterThan(3_500);

    // The restriction lifts: the next probe ('five') is taken and sends resume.
    await network.refuse({ phone: ANN_PHONE }, null);
    const resumed = await eventually(
      () => eventLog(instance.id),
      (events) => events.some((event) => event.eventType === 'instance_sending' && event.data.state === 'resumed'),
      15_000,
    );
    expect(pairs(resumed.slice(second.length)).map(([type, data]) => [type, data.id ?? data.state, data.status ?? data.type])).toEqual([
      ['message_status', waiting[1], 'sent'],
      ['message', waiting[1], 'text'],
      ['instance_sending', 'resumed', undefined],
    ]);
    expect(resumed.at(-1)!.data).toEqual({ state: 'resumed', reason: 'a probe send after the pause was taken by the network' });
    expect(
      await eventually(
        async () => (await http.get('/session/status', headersOf(instance))).body as Record<string, unknown>,
        (status) => !('sending' in status),
      ),
    ).toEqual({ isConnected: true, isLoggedIn: true, deviceId: expect.any(String) });
    // Nothing lost, nothing twice: Ann got 'five' once and none of the refused ones.
    const inbox = (await network.inbox(ANN_PHONE)).filter((entry) => [...refused, ...waiting].includes(entry.id));
    expect(inbox.map((entry) => entry.id)).toEqual([waiting[1]]);
    const hooks = await eventually(
      () => Promise.resolve(receiver.at('/restricted').filter((hook) => hook.envelope.eventType === 'instance_sending')),
      (found) => found.length >= 3,
    );
    expect(hooks.map((hook) => hook.envelope.eventData.state)).toEqual(['paused', 'paused', 'resumed']);
  });

  /** Events with the message ids replaced by their order of appearance and times by a placeholder. */
  function comparable(events: EventPair[]): EventPair[] {
    const ids = new Map<string, string>();
    return events.map(([type, data]) => [
      type,
      Object.fromEntries(
        Object.entries(data).map(([key, value]) => {
          if (key === 'id' && typeof value === 'string') {
            if (!ids.has(value)) ids.set(value, `<id ${ids.size + 1}>`);
            return [key, ids.get(value)];
          }
          return [key, key === 'probeAt' ? '<time>' : value];
        }),
      ),
    ]);
  }

  it('the sandbox refuses the same way (PUT /sandbox/refusals): the same failed message_status, and the same pause after three 463s', async () => {
    const twin = await createInstance(http, customer.apiKey, { name: 'sandbox twin', sandbox: true });
    expect((await http.post('/sandbox/pair', { phone: '447700900400' }, headersOf(twin))).status).toBe(200);
    expect((await http.post('/sandbox/contacts', { id: `+${ANN_PHONE}`, pushName: 'Ann', lid: ANN_LID }, headersOf(twin))).status).toBe(
      201,
    );
    await waitForStatus(http, twin, (status) => status.isConnected);
    const { instance: restricted } = await pairedRealInstance('/twin', '447700900401');
    const refuse = async (code: 421 | 463 | 479 | null, times?: number) => {
      const body = { chatId: ANN_PHONE, code, ...(times === undefined ? {} : { times }) };
      expect((await http.put('/sandbox/refusals', body, headersOf(twin))).status).toBe(204);
      await network.refuse({ phone: ANN_PHONE }, code, times);
    };
    /** The instance's message and sending events, once there are `count`. */
    const logged = async (instance: CreatedInstance, count: number) => {
      const read = async () =>
        pairs(await eventLog(instance.id)).filter(([type]) => type === 'message_status' || type === 'instance_sending');
      return eventually(read, (events) => events.length >= count);
    };

    await refuse(421, 1);
    await sendText(twin, 'refused once');
    await sendText(restricted, 'refused once');
    const [sandboxFirst, realFirst] = await Promise.all([logged(twin, 1), logged(restricted, 1)]);
    expect(sandboxFirst).toEqual([
      ['message_status', { id: expect.any(String), chatId: ANN, status: 'failed', error: REASONS[421], code: 421 }],
    ]);
    expect(comparable(realFirst)).toEqual(comparable(sandboxFirst));

    await refuse(463);
    for (const text of ['one', 'two', 'three']) {
      await sendText(twin, text);
      await sendText(restricted, text);
    }
    const [sandboxPaused, realPaused] = await Promise.all([logged(twin, 5), logged(restricted, 5)]);
    expect(sandboxPaused.at(-1)).toEqual([
      'instance_sending',
      {
        state: 'paused',
        code: 463,
        refusals: 3,
        probeAt: expect.any(String),
        reason: 'the network refused 3 sends as from a restricted account (last: 463); sends wait, then one probes',
      },
    ]);
    expect(comparable(realPaused)).toEqual(comparable(sandboxPaused));
    await refuse(null);
    expect((await http.put('/sandbox/refusals', { chatId: ANN_PHONE, code: 500 }, headersOf(twin))).body).toEqual({
      status: 400,
      detail: 'validation error: code must be 421, 463, 479 or null',
    });
  });

  it('a rival socket of the same device keeps logging in (440 each time): three reconnects, then login_error, credentials kept', async () => {
    const { instance, deviceJid } = await pairedRealInstance('/rival', '447700900500');
    await network.rival(deviceJid, 10, 300);
    const log = await eventually(
      () => eventLog(instance.id),
      (events) => events.some((event) => event.eventType === 'login_error'),
      20_000,
    );
    expect(pairs(log)).toEqual([
      ['logged_in', { deviceId: deviceJid }],
      ['login_error', { id: deviceJid, error: 'connection replaced' }],
    ]);
    expect(await waitForStatus(http, instance, (status) => !status.isConnected)).toEqual({
      isConnected: false,
      isLoggedIn: true,
      deviceId: deviceJid,
    });
    expect((await http.get(`/account/instances/${instance.id}`, { 'X-Api-Key': customer.apiKey })).body).toMatchObject({
      status: 'disconnected',
    });
    // No loop: four logins (the first and three reconnects), each replaced by the rival, and none after the fourth.
    await new Promise((resolve) => setTimeout(resolve, 1_500));
    const links = await network.links(deviceJid);
    expect(links.map((link) => link.endedBy)).toEqual(['replaced', 'replaced', 'replaced', 'replaced']);
    expect((await network.rivalReplaced(deviceJid)).replaced).toEqual(links.map((link) => link.connection));
    // Two sessions never acted at once: every stanza of a login came before the rival replaced it.
    for (const link of links) expect(link.stanzas.every((at) => at < link.ended!)).toBe(true);
    expect(await storedAuth(instance)).toEqual({ credentials: 1, keys: expect.any(Number) });
    expect(worker.output()).toContain(`${instance.id}: link down (taken over while this worker holds the instance`);
  });

  it('the phone removes the device (stream:error 401 with conflict device_removed): logged out, credentials deleted, no reconnect', async () => {
    const { instance, deviceJid } = await pairedRealInstance('/removed', '447700900300');
    expect(await storedAuth(instance)).toEqual({ credentials: 1, keys: expect.any(Number) });
    await network.disconnect(deviceJid, 'device_removed');
    expect(await waitForStatus(http, instance, (status) => !status.isLoggedIn)).toEqual({
      isConnected: false,
      isLoggedIn: false,
      deviceId: '',
    });
    expect((await http.get(`/account/instances/${instance.id}`, { 'X-Api-Key': customer.apiKey })).body).toMatchObject({
      status: 'unpaired',
    });
    expect(
      await eventually(
        () => storedAuth(instance),
        (auth) => auth.credentials === 0,
      ),
    ).toEqual({ credentials: 0, keys: 0 });
    expect(pairs(await eventLog(instance.id))).toEqual([
      ['logged_in', { deviceId: deviceJid }],
      ['logged_out', { reason: 'user_logged_out' }],
    ]);
    // No reconnect loop: the one login ended by the stream error, and none after it.
    await new Promise((resolve) => setTimeout(resolve, 1_500));
    expect((await network.links(deviceJid)).map((link) => link.endedBy)).toEqual(['stream error 401']);
    expect(await network.device(deviceJid)).toMatchObject({ linked: false, connected: false, logins: 1 });
  });
});
