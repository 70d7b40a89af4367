import { randomBytes } from 'node:crypto';
import { Webhook } from 'standardwebhooks';
import { startApi, type RunningApi } from './support/api-harness';
import { eventLog, eventually } from './support/event-log';
import { createCustomer, createInstance, type CreatedInstance, type Customer } from './support/fixtures';
import { Http } from './support/http';
import { headersOf, waitForStatus } from './support/instance-world';
import { useServedOpenApi } from './support/openapi';
import { ownsAllShards, spawnApp, type AppProcess } from './support/processes';
import { FakeNetworkProcess, type ReceivedMessage } from './support/protocol-network/fake-network';
import { WebhookReceiver } from './support/webhook-receiver';
import { storedAuth } from './support/real-network-world';

const SIGNING_SECRET = `whsec_${randomBytes(32).toString('base64')}`;
const ME = '447700900100';
const ANN_PHONE = '447700900123';
const ANN = `${ANN_PHONE}@s.whatsapp.net`;
const ANN_LID = '123456789012345@lid';
/** Ann as the sender of what she sends, named by number and LID. */
const ANN_SENDER = { id: ANN, lid: ANN_LID, phone: ANN_PHONE, isMe: false };
/** What every message from Ann in the 1:1 chat carries, before its type and content. */
const fromAnn = (id: unknown = expect.any(String)) => ({
  id,
  time: expect.any(String),
  chatId: ANN,
  sender: ANN_SENDER,
  isGroup: false,
  isStatus: false,
});

type EventPair = [string, Record<string, unknown>];

/** The suite's message tests run in both ways the network addresses a one-to-one chat: by phone number and by LID. */
const ADDRESSING: [string, 'pn' | 'lid'][] = [
  ['phone number', 'pn'],
  ['LID (the phone number alongside)', 'lid'],
];

/**
 * Events with what must differ between two instances (message ids, times) replaced by stable placeholders. The sandbox
 * pairs its device without a LID, so the instance's own sender carries none there: `ownLid` is dropped from the real
 * events (the one known difference, asserted on its own in the send test).
 */
function comparable(events: EventPair[], ids: Map<string, string>, ownLid?: string): EventPair[] {
  const idOf = (value: string) => {
    if (!ids.has(value)) ids.set(value, `<id ${ids.size + 1}>`);
    return ids.get(value)!;
  };
  const walk = (value: unknown, key = ''): unknown => {
    if (Array.isArray(value)) return value.map((item) => walk(item, key));
    if (value && typeof value === 'object') {
      return Object.fromEntries(
        Object.entries(value)
          .filter(([k, v]) => !(k === 'lid' && ownLid !== undefined && v === ownLid))
          .map(([k, v]) => [k, walk(v, k)]),
      );
    }
    if (typeof value === 'string' && ['id', 'messageId', 'messageIds', 'originalMessageId'].includes(key) && !value.includes('@'))
      return idOf(value);
    if (typeof value === 'string' && ['time', 'originalMessageTime'].includes(key)) return '<time>';
    return value;
  };
  return events.map(([type, data]) => [type, walk(data) as Record<string, unknown>]);
}

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
  /** A real instance of ME, connected, and a sandbox instance of the same phone, for the same actions side by side. */
  let real: CreatedInstance;
  let realDevice: string;
  /** The account's LID user JID on the fake network (the real network knows it; the sandbox pairs without one). */
  let realLid: string;
  let sandbox: CreatedInstance;

  beforeAll(async () => {
    [network, receiver] = await Promise.all([FakeNetworkProcess.start(), WebhookReceiver.start()]);
    [api, worker] = await Promise.all([
      startApi({ webhookAllowedHosts: ['127.0.0.1'] }),
      spawnApp('worker', { ...network.workerEnv(), WEBHOOK_ALLOWED_HOSTS: '127.0.0.1' }),
    ]);
    await ownsAllShards(worker, api.config.shardCount);
    http = new Http(api.url);
    await useServedOpenApi(api.url);
    customer = await createCustomer(http, 'Protocol Co');
    await network.addContact(ANN_PHONE, 'Ann', ANN_LID);
    let deviceLid: string;
    [{ instance: real, deviceJid: realDevice, lid: deviceLid }, sandbox] = await Promise.all([
      pairedRealInstance('/real', ME),
      pairedSandboxInstance(ME),
    ]);
    realLid = deviceLid.replace(/:\d+@/, '@');
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

  async function pairedSandboxInstance(phone: string): Promise<CreatedInstance> {
    const instance = await createInstance(http, customer.apiKey, { name: 'sandbox twin', sandbox: true });
    expect((await http.post('/sandbox/pair', { phone }, headersOf(instance))).status).toBe(200);
    expect((await http.post('/sandbox/contacts', { id: `+${ANN_PHONE}`, pushName: 'Ann', lid: ANN_LID }, headersOf(instance))).status).toBe(
      201,
    );
    await waitForStatus(http, instance, (status) => status.isConnected);
    return instance;
  }

  /** The events an action causes on an instance: waits for `count`, then a moment more for any extra ones. */
  async function caused(instance: CreatedInstance, count: number, action: () => Promise<unknown>): Promise<EventPair[]> {
    const before = (await eventLog(instance.id)).length;
    await action();
    const log = await eventually(
      () => eventLog(instance.id),
      (events) => events.length >= before + count,
    );
    await new Promise((resolve) => setTimeout(resolve, 300));
    const settled = log.length > before + count ? log : await eventLog(instance.id);
    return settled.slice(before).map((event) => [event.eventType, event.data]);
  }

  /** The same action on the sandbox twin and on the real instance: the events must be the same, field by field. */
  async function sameOnBoth(
    count: number,
    onSandbox: () => Promise<unknown>,
    onReal: () => Promise<unknown>,
  ): Promise<{ sandbox: EventPair[]; real: EventPair[] }> {
    const sandboxEvents = await caused(sandbox, count, onSandbox);
    const realEvents = await caused(real, count, onReal);
    expect(comparable(realEvents, new Map(), realLid)).toEqual(comparable(sandboxEvents, new Map()));
    return { sandbox: sandboxEvents, real: realEvents };
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
    expect((await http.get(`/account/instances/${instance.id}`, { 'X-Api-Key': customer.apiKey })).body).toMatchObject({
      status: 'pairing',
    });

    const { deviceJid } = await network.scan(code, '447700900001');
    expect(deviceJid).toMatch(/^447700900001:\d+@s\.whatsapp\.net$/);
    expect(await waitForStatus(http, instance, (status) => status.isConnected)).toEqual({
      isConnected: true,
      isLoggedIn: true,
      deviceId: deviceJid,
    });
    expect((await http.get(`/account/instances/${instance.id}`, { 'X-Api-Key': customer.apiKey })).body).toMatchObject({
      status: 'connected',
    });

    // The device logged in on a second connection (after the 515) and uploaded its pre-keys there.
    const device = (await network.devices()).find((candidate) => candidate.jid === deviceJid);
    expect(device).toEqual({
      jid: deviceJid,
      lid: expect.stringMatching(/^\d+:\d+@lid$/),
      linked: true,
      connected: true,
      preKeys: 812,
      logins: 1,
    });

    const hooks = await eventually(
      () => Promise.resolve(receiver.at('/pair-qr')),
      (received) => received.length >= 1,
    );
    expect(hooks.map((hook) => [hook.envelope.eventType, hook.envelope.eventData])).toEqual([['logged_in', { deviceId: deviceJid }]]);
    expect(new Webhook(SIGNING_SECRET).verify(hooks[0].rawBody, hooks[0].headers as Record<string, string>)).toEqual(hooks[0].envelope);
    expect((await eventLog(instance.id)).map((event) => event.eventType)).toEqual(['logged_in']);
  });

  it('pairs by pair code: the phone enters the code the instance showed, then 515, login, connected, logged_in', async () => {
    const instance = await realInstance('/pair-code');
    const response = await http.get('/session/pair-code/447700900005', headersOf(instance));
    expect(response.status).toBe(200);
    const { code } = response.body as { code: string };
    // Shown as XXXX-XXXX; the phone's user types the eight characters.
    expect(code).toMatch(/^[A-Z0-9]{4}-[A-Z0-9]{4}$/);
    await network.enterPairCode('447700900005', code.replace('-', ''));
    const status = await waitForStatus(http, instance, (value) => value.isConnected);
    expect(status).toEqual({ isConnected: true, isLoggedIn: true, deviceId: expect.stringMatching(/^447700900005:\d+@s\.whatsapp\.net$/) });
    expect(await network.device(status.deviceId)).toMatchObject({ linked: true, connected: true, logins: 1, preKeys: 812 });
    const hooks = await eventually(
      () => Promise.resolve(receiver.at('/pair-code')),
      (received) => received.length >= 1,
    );
    expect(hooks.map((hook) => [hook.envelope.eventType, hook.envelope.eventData])).toEqual([['logged_in', { deviceId: status.deviceId }]]);
  });

  const BUTTONS = {
    to: ANN_PHONE,
    text: 'Confirm your order?',
    footer: 'Reply below',
    buttons: [
      { id: 'yes', text: 'Yes' },
      { type: 'url', text: 'Track', url: 'https://example.com/t/1' },
      { type: 'reply', id: 'no', text: 'No' },
    ],
  };
  const LIST = {
    to: ANN_PHONE,
    text: 'Pick a slot',
    buttonText: 'Slots',
    sections: [
      { title: 'Morning', rows: [{ id: 'm9', title: '9:00', description: 'Early' }] },
      { title: 'Evening', rows: [{ id: 'e6', title: '18:00' }] },
    ],
  };
  const BIZ = {
    tag: 'biz',
    attrs: { actual_actors: '2', host_storage: '2', privacy_mode_ts: expect.stringMatching(/^\d+$/) },
    content: [
      { tag: 'interactive', attrs: { type: 'native_flow', v: '1' }, content: [{ tag: 'native_flow', attrs: { v: '9', name: 'mixed' } }] },
      { tag: 'quality_control', attrs: { source_type: 'third_party' } },
    ],
  };

  /** Sends on the real instance; resolves with the id and what the contact's phone decrypted for it. */
  async function sendAndReceive(path: string, body: object): Promise<{ id: string; received: ReceivedMessage }> {
    const response = await http.post(path, body, headersOf(real));
    expect(response.status).toBe(201);
    const { id } = response.body as { id: string };
    const inbox = await eventually(
      () => network.inbox(ANN_PHONE),
      (entries) => entries.some((entry) => entry.id === id),
    );
    return { id, received: inbox.find((entry) => entry.id === id)! };
  }

  describe.each(ADDRESSING)('one-to-one chats addressed by %s', (_name, mode) => {
    beforeAll(() => network.addressing(mode));
    afterAll(() => network.addressing('pn'));

    it("sends text: the contact's phone decrypts it, and the account's phone gets the device-sent copy", async () => {
      const response = await http.post('/messages/text', { to: ANN_PHONE, message: 'Hello Ann' }, headersOf(real));
      expect(response.status).toBe(201);
      const { id } = response.body as { id: string };
      const inbox = await eventually(
        () => network.inbox(ANN_PHONE),
        (entries) => entries.some((entry) => entry.id === id),
      );
      // Baileys may attach a reporting token to a 1:1 text; nothing else (no <biz>, no <bot>) goes with plain text.
      const withoutReporting = (entry: ReceivedMessage) => ({
        ...entry,
        extras: entry.extras.filter((extra) => extra.tag !== 'reporting'),
      });
      // The suite's first send to Ann opens the Signal session (pkmsg); in the mode that runs second it exists (msg).
      const sessionType = mode === ADDRESSING[0][1] ? 'pkmsg' : 'msg';
      expect(inbox.filter((entry) => entry.id === id).map(withoutReporting)).toEqual([
        {
          id,
          to: ANN,
          recipient: ANN,
          from: realDevice,
          type: 'text',
          attrs: { id, to: ANN, type: 'text' },
          encType: sessionType,
          encAttrs: { v: '2', type: sessionType },
          hasDeviceIdentity: true,
          extras: [],
          message: { extendedTextMessage: { text: 'Hello Ann' }, messageContextInfo: { messageSecret: expect.any(String) } },
        },
      ]);
      const own = (await network.phoneInbox(ME)).filter((entry) => entry.id === id);
      expect(own).toHaveLength(1);
      expect(own[0].message).toEqual({
        deviceSentMessage: {
          destinationJid: ANN,
          message: { extendedTextMessage: { text: 'Hello Ann' }, messageContextInfo: { messageSecret: expect.any(String) } },
        },
        messageContextInfo: { messageSecret: expect.any(String) },
      });
      const log = await eventually(
        () => eventLog(real.id),
        (events) => events.some((event) => event.eventType === 'message_status' && event.data.id === id),
      );
      expect(log.filter((event) => event.data.id === id).map((event) => [event.eventType, event.data])).toEqual([
        ['message_status', { id, chatId: ANN, status: 'sent' }],
        [
          'message',
          {
            id,
            time: expect.any(String),
            chatId: ANN,
            sender: { id: `${ME}@s.whatsapp.net`, lid: realLid, phone: ME, isMe: true },
            isGroup: false,
            isStatus: false,
            type: 'text',
            text: 'Hello Ann',
          },
        ],
      ]);
    });

    it("receives the contact's text as the same message event the sandbox produces", async () => {
      const { real: events } = await sameOnBoth(
        1,
        () => http.post('/sandbox/inbound', { from: ANN_PHONE, type: 'text', text: 'Hi from Ann', pushName: 'Ann' }, headersOf(sandbox)),
        () => network.sendFromContact(ANN_PHONE, realDevice, { conversation: 'Hi from Ann' }),
      );
      expect(events.at(-1)).toEqual([
        'message',
        {
          ...fromAnn(),
          type: 'text',
          text: 'Hi from Ann',
        },
      ]);
    });

    it('delivery and read receipts become the same message_status and message_read events as on the sandbox', async () => {
      const sendOn = async (instance: CreatedInstance) => {
        const response = await http.post('/messages/text', { to: ANN_PHONE, message: 'receipts, please' }, headersOf(instance));
        expect(response.status).toBe(201);
        return (response.body as { id: string }).id;
      };
      const [sandboxId, realId] = [await sendOn(sandbox), await sendOn(real)];
      await eventually(
        () => network.inbox(ANN_PHONE),
        (entries) => entries.some((entry) => entry.id === realId),
      );
      const delivered = await sameOnBoth(
        1,
        () => http.post('/sandbox/receipts', { messageId: sandboxId, status: 'delivered' }, headersOf(sandbox)),
        () => network.receipt(ANN_PHONE, realDevice, [realId]),
      );
      const receipt = (receiptType: string) => ({
        chatId: ANN,
        sender: ANN_SENDER,
        messageSender: { id: `${ME}@s.whatsapp.net`, lid: realLid, phone: ME, isMe: true },
        isGroup: false,
        messageIds: [realId],
        time: expect.any(String),
        receiptType,
      });
      expect(delivered.real).toEqual([['message_read', receipt('delivered')]]);
      const read = await sameOnBoth(
        1,
        () => http.post('/sandbox/receipts', { messageId: sandboxId, status: 'read' }, headersOf(sandbox)),
        () => network.receipt(ANN_PHONE, realDevice, [realId], 'read'),
      );
      expect(read.real).toEqual([['message_read', receipt('read')]]);
    });

    it('sends buttons as a native-flow interactiveMessage with the <biz> node, <bot> only with aiLabel, then the text fallback', async () => {
      const plain = await sendAndReceive('/messages/buttons', BUTTONS);
      expect(plain.received.error).toBeUndefined();
      expect(plain.received.message).toEqual({
        interactiveMessage: {
          body: { text: 'Confirm your order?' },
          footer: { text: 'Reply below' },
          nativeFlowMessage: {
            buttons: [
              { name: 'quick_reply', buttonParamsJson: JSON.stringify({ display_text: 'Yes', id: 'yes' }) },
              { name: 'cta_url', buttonParamsJson: JSON.stringify({ display_text: 'Track', url: 'https://example.com/t/1' }) },
              { name: 'quick_reply', buttonParamsJson: JSON.stringify({ display_text: 'No', id: 'no' }) },
            ],
            messageVersion: 1,
          },
        },
      });
      expect(plain.received.extras.filter((extra) => extra.tag !== 'reporting')).toEqual([BIZ]);

      // The plain-text copy (INTERACTIVE_TEXT_FALLBACK=after, the default) follows as an ordinary text message.
      const inbox = await eventually(
        () => network.inbox(ANN_PHONE),
        (entries) => entries.findIndex((entry) => entry.id === plain.id) < entries.length - 1,
      );
      const fallback = inbox[inbox.findIndex((entry) => entry.id === plain.id) + 1];
      expect(fallback.message).toMatchObject({
        extendedTextMessage: { text: 'Confirm your order?\n\n1. Yes\n2. Track: https://example.com/t/1\n3. No\n\n_Reply below_' },
      });
      expect(fallback.extras.filter((extra) => extra.tag !== 'reporting')).toEqual([]);

      const labelled = await sendAndReceive('/messages/buttons', { ...BUTTONS, aiLabel: true });
      expect(labelled.received.extras.filter((extra) => extra.tag !== 'reporting')).toEqual([{ tag: 'bot', attrs: { biz_bot: '1' } }, BIZ]);
    });

    it('sends a list as one single_select native-flow button with its sections', async () => {
      const { received } = await sendAndReceive('/messages/list', LIST);
      expect(received.message?.interactiveMessage).toEqual({
        body: { text: 'Pick a slot' },
        nativeFlowMessage: {
          buttons: [
            {
              name: 'single_select',
              buttonParamsJson: JSON.stringify({
                title: 'Slots',
                sections: [
                  { title: 'Morning', rows: [{ title: '9:00', description: 'Early', id: 'm9' }] },
                  { title: 'Evening', rows: [{ title: '18:00', id: 'e6' }] },
                ],
              }),
            },
          ],
          messageVersion: 1,
        },
      });
      expect(received.extras.filter((extra) => extra.tag !== 'reporting')).toEqual([BIZ]);
    });

    describe('taps on buttons and lists arrive as the sandbox reports them', () => {
      let sandboxButtons: string;
      let realButtons: string;
      let sandboxList: string;
      let realList: string;

      beforeAll(async () => {
        const sendOn = async (instance: CreatedInstance, path: string, body: object) =>
          ((await http.post(path, body, headersOf(instance))).body as { id: string }).id;
        [sandboxButtons, sandboxList] = [
          await sendOn(sandbox, '/messages/buttons', BUTTONS),
          await sendOn(sandbox, '/messages/list', LIST),
        ];
        realButtons = (await sendAndReceive('/messages/buttons', BUTTONS)).id;
        realList = (await sendAndReceive('/messages/list', LIST)).id;
      });

      const quoting = (id: string) => ({ stanzaId: id, participant: `${ME}@s.whatsapp.net` });
      const tapForms: [string, (id: string) => object][] = [
        [
          'buttonsResponseMessage',
          (id) => ({ buttonsResponseMessage: { selectedButtonId: 'no', selectedDisplayText: 'No', type: 1, contextInfo: quoting(id) } }),
        ],
        [
          'templateButtonReplyMessage',
          (id) => ({
            templateButtonReplyMessage: { selectedId: 'no', selectedDisplayText: 'No', selectedIndex: 2, contextInfo: quoting(id) },
          }),
        ],
        [
          'interactiveResponseMessage (native flow)',
          (id) => ({
            interactiveResponseMessage: {
              body: { text: 'No' },
              nativeFlowResponseMessage: { name: 'quick_reply', paramsJson: JSON.stringify({ id: 'no' }), version: 3 },
              contextInfo: quoting(id),
            },
          }),
        ],
      ];

      it.each(tapForms)('a reply-button tap as %s is the sandbox button_reply', async (_form, tap) => {
        const { real: events } = await sameOnBoth(
          1,
          () =>
            http.post(
              '/sandbox/inbound',
              { from: ANN_PHONE, type: 'button_reply', replyTo: sandboxButtons, buttonId: 'no' },
              headersOf(sandbox),
            ),
          () => network.sendFromContact(ANN_PHONE, realDevice, tap(realButtons)),
        );
        expect(events[0][1]).toMatchObject({
          type: 'button_reply',
          buttonReply: { id: 'no', text: 'No' },
          replyTo: { id: realButtons },
          text: 'No',
        });
      });

      it('a list row tap (listResponseMessage) is the sandbox list_reply', async () => {
        const { real: events } = await sameOnBoth(
          1,
          () =>
            http.post('/sandbox/inbound', { from: ANN_PHONE, type: 'list_reply', replyTo: sandboxList, rowId: 'm9' }, headersOf(sandbox)),
          () =>
            network.sendFromContact(ANN_PHONE, realDevice, {
              listResponseMessage: {
                title: '9:00',
                description: 'Early',
                listType: 1,
                singleSelectReply: { selectedRowId: 'm9' },
                contextInfo: quoting(realList),
              },
            }),
        );
        expect(events[0][1]).toMatchObject({
          type: 'list_reply',
          listReply: { id: 'm9', title: '9:00', description: 'Early' },
          replyTo: { id: realList },
        });
      });

      it("a reaction to this account's message is the sandbox reaction", async () => {
        const { real: events } = await sameOnBoth(
          1,
          () =>
            http.post(
              '/sandbox/inbound',
              { from: ANN_PHONE, type: 'reaction', messageId: sandboxButtons, emoji: '👍' },
              headersOf(sandbox),
            ),
          () =>
            network.sendFromContact(ANN_PHONE, realDevice, {
              reactionMessage: {
                key: { remoteJid: `${ME}@s.whatsapp.net`, fromMe: false, id: realButtons },
                text: '👍',
                senderTimestampMs: Date.now(),
              },
            }),
        );
        expect(events[0][1]).toMatchObject({ type: 'reaction', reaction: { messageId: realButtons, emoji: '👍' } });
      });

      it('the contact deleting its message for everyone is the sandbox message_delete', async () => {
        const sandboxTheirs = (
          (await http.post('/sandbox/inbound', { from: ANN_PHONE, type: 'text', text: 'oops' }, headersOf(sandbox))).body as { id: string }
        ).id;
        const { id: realTheirs } = await network.sendFromContact(ANN_PHONE, realDevice, { conversation: 'oops' });
        await eventually(
          () => eventLog(real.id),
          (events) => events.some((event) => event.data.id === realTheirs),
        );
        const { real: events } = await sameOnBoth(
          1,
          () => http.post('/sandbox/delete', { messageId: sandboxTheirs, forEveryone: true }, headersOf(sandbox)),
          () =>
            network.sendFromContact(ANN_PHONE, realDevice, {
              protocolMessage: { type: 0, key: { remoteJid: `${ME}@s.whatsapp.net`, fromMe: true, id: realTheirs } },
            }),
        );
        expect(events).toEqual([
          [
            'message_delete',
            {
              id: realTheirs,
              chatId: ANN,
              sender: ANN_SENDER,
              isStatus: false,
              isDeletedForAll: true,
              isDeletedForMe: false,
              time: expect.any(String),
            },
          ],
        ]);
      });

      it('the contact editing its text is the sandbox edit: a message with isEdit naming the original', async () => {
        const sandboxTheirs = (
          (await http.post('/sandbox/inbound', { from: ANN_PHONE, type: 'text', text: 'at 9' }, headersOf(sandbox))).body as { id: string }
        ).id;
        const { id: realTheirs } = await network.sendFromContact(ANN_PHONE, realDevice, { conversation: 'at 9' });
        const original = (
          await eventually(
            () => eventLog(real.id),
            (events) => events.some((event) => event.data.id === realTheirs),
          )
        ).find((event) => event.data.id === realTheirs)!;
        const { real: events } = await sameOnBoth(
          1,
          () => http.post('/sandbox/edit', { messageId: sandboxTheirs, text: 'at 10' }, headersOf(sandbox)),
          () =>
            network.sendFromContact(ANN_PHONE, realDevice, {
              protocolMessage: {
                type: 14,
                key: { remoteJid: `${ME}@s.whatsapp.net`, fromMe: true, id: realTheirs },
                editedMessage: { conversation: 'at 10' },
                timestampMs: Date.now(),
              },
            }),
        );
        expect(events).toEqual([
          [
            'message',
            {
              ...fromAnn(expect.not.stringMatching(realTheirs)),
              type: 'text',
              text: 'at 10',
              isEdit: true,
              edit: { originalMessageId: realTheirs, originalMessageTime: original.data.time },
            },
          ],
        ]);
      });
    });
  });

  describe('in LID addressing mode (one-to-one chats by @lid, the phone number alongside)', () => {
    beforeAll(() => network.addressing('lid'));
    afterAll(() => network.addressing('pn'));

    it("the contact's text is the same message event as in phone-number mode, chat and sender by phone number", async () => {
      const { real: events } = await sameOnBoth(
        1,
        () => http.post('/sandbox/inbound', { from: ANN_PHONE, type: 'text', text: 'by LID' }, headersOf(sandbox)),
        () => network.sendFromContact(ANN_PHONE, realDevice, { conversation: 'by LID' }),
      );
      expect(events).toEqual([
        [
          'message',
          {
            ...fromAnn(),
            type: 'text',
            text: 'by LID',
          },
        ],
      ]);
    });

    it('a read receipt by LID for a message sent to the phone number finds it: the same message_read', async () => {
      const sandboxId = (
        (await http.post('/messages/text', { to: ANN_PHONE, message: 'read me' }, headersOf(sandbox))).body as { id: string }
      ).id;
      const { id: realId } = await sendAndReceive('/messages/text', { to: ANN_PHONE, message: 'read me' });
      const { real: events } = await sameOnBoth(
        1,
        () => http.post('/sandbox/receipts', { messageId: sandboxId, status: 'read' }, headersOf(sandbox)),
        () => network.receipt(ANN_PHONE, realDevice, [realId], 'read'),
      );
      expect(events).toEqual([
        [
          'message_read',
          {
            chatId: ANN,
            sender: ANN_SENDER,
            messageSender: { id: `${ME}@s.whatsapp.net`, lid: realLid, phone: ME, isMe: true },
            isGroup: false,
            messageIds: [realId],
            time: expect.any(String),
            receiptType: 'read',
          },
        ],
      ]);
    });

    it('a button tap quoting a message sent to the phone number resolves its reply and button text', async () => {
      const sandboxId = ((await http.post('/messages/buttons', BUTTONS, headersOf(sandbox))).body as { id: string }).id;
      const { id: realId } = await sendAndReceive('/messages/buttons', BUTTONS);
      const { real: events } = await sameOnBoth(
        1,
        () =>
          http.post('/sandbox/inbound', { from: ANN_PHONE, type: 'button_reply', replyTo: sandboxId, buttonId: 'yes' }, headersOf(sandbox)),
        () =>
          network.sendFromContact(ANN_PHONE, realDevice, {
            buttonsResponseMessage: {
              selectedButtonId: 'yes',
              selectedDisplayText: 'Yes',
              type: 1,
              contextInfo: { stanzaId: realId, participant: realLid },
            },
          }),
      );
      expect(events[0][1]).toMatchObject({
        chatId: ANN,
        type: 'button_reply',
        buttonReply: { id: 'yes', text: 'Yes' },
        replyTo: { id: realId },
      });
    });

    it('our send to the phone number is still decrypted by the contact', async () => {
      const { received } = await sendAndReceive('/messages/text', { to: ANN_PHONE, message: 'still there' });
      expect(received.error).toBeUndefined();
      expect(received.message).toMatchObject({ extendedTextMessage: { text: 'still there' } });
    });
  });

  it.each([408, 428, 500, 503])('after a %s from the server the instance backs off, reconnects and stays connected', async (code) => {
    const before = await network.device(realDevice);
    await network.disconnect(realDevice, code);
    const after = await eventually(
      () => network.device(realDevice),
      (device) => device.connected && device.logins > before.logins,
    );
    expect(after).toMatchObject({ linked: true, connected: true, logins: before.logins + 1 });
    expect(await waitForStatus(http, real, (status) => status.isConnected)).toEqual({
      isConnected: true,
      isLoggedIn: true,
      deviceId: realDevice,
    });
    expect(worker.output()).toMatch(new RegExp(`${real.id}: link down \\(.*\\(${code}\\)\\); reconnect attempt 1 in \\d+ ms`));
  });

  it('a takeover (440) while this worker holds the instance is retried, and the instance comes back', async () => {
    const before = await network.device(realDevice);
    await network.disconnect(realDevice, 440);
    const after = await eventually(
      () => network.device(realDevice),
      (device) => device.connected && device.logins > before.logins,
    );
    expect(after.logins).toBe(before.logins + 1);
    expect(await waitForStatus(http, real, (status) => status.isConnected)).toEqual({
      isConnected: true,
      isLoggedIn: true,
      deviceId: realDevice,
    });
    expect(worker.output()).toContain(`${real.id}: link down (taken over while this worker holds the instance`);
  });

  it('logged out from the phone (401): logged_out as on the sandbox, unpaired, credentials and keys deleted', async () => {
    const { instance, deviceJid } = await pairedRealInstance('/phone-logout', '447700900003');
    const twin = await pairedSandboxInstance('447700900003');
    expect(await storedAuth(instance)).toEqual({ credentials: 1, keys: expect.any(Number) });
    const events = await (async () => {
      const sandboxEvents = await caused(twin, 1, () => http.post('/sandbox/logout', undefined, headersOf(twin)));
      const realEvents = await caused(instance, 1, () => network.disconnect(deviceJid, 401));
      expect(realEvents).toEqual(sandboxEvents);
      return realEvents;
    })();
    expect(events).toEqual([['logged_out', { reason: 'user_logged_out' }]]);
    expect(await waitForStatus(http, instance, (status) => !status.isLoggedIn)).toEqual({
      isConnected: false,
      isLoggedIn: false,
      deviceId: '',
    });
    expect((await http.get(`/account/instances/${instance.id}`, { 'X-Api-Key': customer.apiKey })).body).toMatchObject({
      status: 'unpaired',
    });
    expect(await storedAuth(instance)).toEqual({ credentials: 0, keys: 0 });
  });

  it('logged out from the API: the phone unlinks the device, logged_out, unpaired, credentials and keys deleted', async () => {
    const { instance, deviceJid } = await pairedRealInstance('/api-logout', '447700900004');
    expect((await http.post('/session/logout', undefined, headersOf(instance))).status).toBe(204);
    const device = await eventually(
      () => network.device(deviceJid),
      (found) => !found.linked,
    );
    expect(device).toMatchObject({ linked: false, connected: false });
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
    const log = await eventually(
      () => eventLog(instance.id),
      (events) => events.some((event) => event.eventType === 'logged_out'),
    );
    expect(log.map((event) => [event.eventType, event.data])).toEqual([
      ['logged_in', { deviceId: deviceJid }],
      ['logged_out', { reason: 'api_logout' }],
    ]);
  });

  it('a paired real instance reconnects at once after a 515 from the server and stays connected', async () => {
    const { instance, deviceJid } = await pairedRealInstance('/restart', '447700900002');
    await network.disconnect(deviceJid, 515);
    await eventually(
      async () => (await network.devices()).find((device) => device.jid === deviceJid)?.connected,
      (connected) => connected === true,
    );
    expect(await waitForStatus(http, instance, (status) => status.isConnected)).toEqual({
      isConnected: true,
      isLoggedIn: true,
      deviceId: deviceJid,
    });
    expect(worker.child.exitCode).toBeNull();
  });
});
