import { createHash, randomBytes } from 'node:crypto';
import { Client } from 'pg';
import { startApi, type RunningApi } from './support/api-harness';
import { testEnv } from './support/environment';
import { eventually } from './support/event-log';
import { createCustomer, createInstance, type CreatedInstance, type Customer } from './support/fixtures';
import { Http } from './support/http';
import { headersOf, waitForStatus } from './support/instance-world';
import { useServedOpenApi } from './support/openapi';
import { ownsAllShards, spawnApp, type AppProcess } from './support/processes';
import { FakeNetworkProcess } from './support/protocol-network/fake-network';
import { WebhookReceiver } from './support/webhook-receiver';

const SIGNING_SECRET = `whsec_${randomBytes(32).toString('base64')}`;
const ME = '447700900110';
const ANN_PHONE = '447700900123';
const ANN = `${ANN_PHONE}@s.whatsapp.net`;
const ANN_LID = '123456789012345@lid';

type EventPair = [string, Record<string, unknown>];

/**
 * What `sent` means when the link drops around a send (docs/delivery-semantics.md), on the fake WhatsApp Web network
 * with the unmodified Baileys library in the built worker: a stanza the server never acknowledged is reported
 * `unconfirmed`, never `sent`, and never sent again; the recipient's receipt settles it. A buttons message whose text
 * copy failed on the dropped link is retried without relaying the buttons again.
 */
describe('real instances whose link drops around a send (fake network on loopback)', () => {
  let network: FakeNetworkProcess;
  let api: RunningApi;
  let worker: AppProcess;
  let http: Http;
  let customer: Customer;
  let receiver: WebhookReceiver;
  let real: CreatedInstance;
  let realDevice: string;
  let realLid: string;

  beforeAll(async () => {
    [network, receiver] = await Promise.all([FakeNetworkProcess.start(), WebhookReceiver.start()]);
    [api, worker] = await Promise.all([
      startApi({ webhookAllowedHosts: ['127.0.0.1'] }),
      spawnApp('worker', { ...network.workerEnv(), WEBHOOK_ALLOWED_HOSTS: '127.0.0.1', INTERACTIVE_TEXT_FALLBACK: 'after' }),
    ]);
    await ownsAllShards(worker, api.config.shardCount);
    http = new Http(api.url);
    await useServedOpenApi(api.url);
    customer = await createCustomer(http, 'Link Drops Co');
    await network.addContact(ANN_PHONE, 'Ann', ANN_LID);
    real = await createInstance(http, customer.apiKey, { name: 'drops', sandbox: false });
    const saved = await http.put(
      '/instance/settings',
      { useCustomDefaults: false, webhookUrl: receiver.url('/drops'), eventSigningSecret: SIGNING_SECRET },
      headersOf(real),
    );
    expect(saved.status).toBe(204);
    const qr = await http.get('/session/qr/text', headersOf(real));
    expect(qr.status).toBe(200);
    const paired = await network.scan((qr.body as { code: string }).code, ME);
    realDevice = paired.deviceJid;
    realLid = paired.lid.replace(/:\d+@/, '@');
    await waitForStatus(http, real, (status) => status.isConnected);
  });

  afterAll(async () => {
    await Promise.all([api?.close(), worker?.stop(), receiver?.close()]);
    await network?.stop();
  });

  const me = () => ({ id: `${ME}@s.whatsapp.net`, lid: realLid, phone: ME, isMe: true });

  /** The webhook bodies (type and data) about message `id` that reached the receiver, once `done` holds for them. */
  async function hooksAbout(id: string, done: (pairs: EventPair[]) => boolean, path = '/drops'): Promise<EventPair[]> {
    const read = () =>
      Promise.resolve(
        receiver
          .at(path)
          .filter(
            (hook) => hook.envelope.eventData.id === id || (hook.envelope.eventData.messageIds as unknown[] | undefined)?.includes(id),
          )
          .map((hook): EventPair => [hook.envelope.eventType, hook.envelope.eventData]),
      );
    await eventually(read, done, 30_000);
    // Anything more about it would come right behind.
    await new Promise((resolve) => setTimeout(resolve, 500));
    return read();
  }

  async function storedStatus(id: string): Promise<{ status: string; error: string | null }> {
    const db = new Client({ connectionString: testEnv().DATABASE_URL });
    await db.connect();
    try {
      const { rows } = await db.query<{ status: string; error: string | null }>('SELECT status::text, error FROM messages WHERE id = $1', [
        id,
      ]);
      return rows[0];
    } finally {
      await db.end();
    }
  }

  /** How often the simulated network received the message again (at-least-once dispatch would show up here). */
  async function sandboxDuplicates(instance: CreatedInstance, id: string): Promise<number> {
    const db = new Client({ connectionString: testEnv().DATABASE_URL });
    await db.connect();
    try {
      const { rows } = await db.query<{ duplicates: number }>(
        'SELECT duplicates FROM sandbox_messages WHERE instance_id = $1 AND id = $2',
        [instance.id, id],
      );
      return rows[0].duplicates;
    } finally {
      await db.end();
    }
  }

  /** The link is back: the device logged in again after the drop. */
  async function reconnected(loginsBefore: number): Promise<void> {
    await eventually(
      () => network.device(realDevice),
      (device) => device.connected && device.logins > loginsBefore,
      30_000,
    );
    await waitForStatus(http, real, (status) => status.isConnected);
  }

  it("a link dropped before the server's ack: unconfirmed reaches the webhook, then sent with the recipient's receipt", async () => {
    await waitForStatus(http, real, (status) => status.isConnected);
    const { logins } = await network.device(realDevice);
    await network.dropLinkAfter(ANN_PHONE, false);
    const response = await http.post('/messages/text', { to: ANN_PHONE, message: 'did it arrive?' }, headersOf(real));
    expect(response.status).toBe(201);
    const { id } = response.body as { id: string };

    const ownMessage: EventPair = [
      'message',
      { id, time: expect.any(String), chatId: ANN, sender: me(), isGroup: false, isStatus: false, type: 'text', text: 'did it arrive?' },
    ];
    const unconfirmed: EventPair = [
      'message_status',
      { id, chatId: ANN, status: 'unconfirmed', error: 'the link closed before the network acknowledged the message' },
    ];
    expect(await hooksAbout(id, (pairs) => pairs.length >= 2)).toEqual([unconfirmed, ownMessage]);
    expect(await storedStatus(id)).toEqual({ status: 'unconfirmed', error: 'the link closed before the network acknowledged the message' });
    expect((await network.linkDrops()).at(-1)).toEqual({ id, to: ANN, acked: false });
    // Ann has it, once: the gateway does not send an unconfirmed message again after the reconnect.
    await reconnected(logins);
    await new Promise((resolve) => setTimeout(resolve, 1_000));
    expect((await network.inbox(ANN_PHONE)).filter((entry) => entry.id === id)).toHaveLength(1);

    // The server does not ack the old stanza on the new connection; Ann's phone reports it delivered.
    await network.receipt(ANN_PHONE, realDevice, [id]);
    expect(await hooksAbout(id, (pairs) => pairs.length >= 4)).toEqual([
      unconfirmed,
      ownMessage,
      ['message_status', { id, chatId: ANN, status: 'sent' }],
      [
        'message_read',
        {
          chatId: ANN,
          sender: { id: ANN, lid: ANN_LID, phone: ANN_PHONE, isMe: false },
          messageSender: me(),
          isGroup: false,
          messageIds: [id],
          time: expect.any(String),
          receiptType: 'delivered',
        },
      ],
    ]);
    expect(await storedStatus(id)).toEqual({ status: 'sent', error: null });

    // A later receipt (read) is only a receipt: the send is settled already.
    await network.receipt(ANN_PHONE, realDevice, [id], 'read');
    const after = await hooksAbout(id, (pairs) => pairs.length >= 5);
    expect(after.slice(4)).toEqual([['message_read', expect.objectContaining({ messageIds: [id], receiptType: 'read' })]]);
  });

  it('the sandbox drops the link the same way (PUT /sandbox/link-drops): unconfirmed, not sent again, sent with the receipt', async () => {
    const twinPhone = '447700900410';
    const twin = await createInstance(http, customer.apiKey, { name: 'sandbox twin', sandbox: true });
    const settings = { useCustomDefaults: false, webhookUrl: receiver.url('/twin'), eventSigningSecret: SIGNING_SECRET };
    expect((await http.put('/instance/settings', settings, headersOf(twin))).status).toBe(204);
    expect((await http.post('/sandbox/pair', { phone: twinPhone }, headersOf(twin))).status).toBe(200);
    expect((await http.post('/sandbox/contacts', { id: `+${ANN_PHONE}`, pushName: 'Ann', lid: ANN_LID }, headersOf(twin))).status).toBe(
      201,
    );
    await waitForStatus(http, twin, (status) => status.isConnected);
    expect((await http.put('/sandbox/link-drops', { chatId: ANN_PHONE }, headersOf(twin))).status).toBe(204);
    const response = await http.post('/messages/text', { to: ANN_PHONE, message: 'did it arrive?' }, headersOf(twin));
    expect(response.status).toBe(201);
    const { id } = response.body as { id: string };

    const twinSender = { id: `${twinPhone}@s.whatsapp.net`, phone: twinPhone, isMe: true };
    const unconfirmed: EventPair = [
      'message_status',
      { id, chatId: ANN, status: 'unconfirmed', error: 'the link closed before the network acknowledged the message' },
    ];
    const ownMessage: EventPair = [
      'message',
      {
        id,
        time: expect.any(String),
        chatId: ANN,
        sender: twinSender,
        isGroup: false,
        isStatus: false,
        type: 'text',
        text: 'did it arrive?',
      },
    ];
    expect(await hooksAbout(id, (pairs) => pairs.length >= 2, '/twin')).toEqual([unconfirmed, ownMessage]);
    expect(await storedStatus(id)).toEqual({ status: 'unconfirmed', error: 'the link closed before the network acknowledged the message' });
    // The link comes back on its own (the phone stayed online), and the message is not sent again.
    await waitForStatus(http, twin, (status) => status.isConnected);
    await new Promise((resolve) => setTimeout(resolve, 1_000));
    const outbox = (await http.get('/sandbox/outbox', headersOf(twin))).body as { id: string }[];
    expect(outbox.filter((entry) => entry.id === id)).toHaveLength(1);
    expect(await sandboxDuplicates(twin, id)).toBe(0);

    expect((await http.post('/sandbox/receipts', { messageId: id, status: 'delivered' }, headersOf(twin))).status).toBe(204);
    expect(await hooksAbout(id, (pairs) => pairs.length >= 4, '/twin')).toEqual([
      unconfirmed,
      ownMessage,
      ['message_status', { id, chatId: ANN, status: 'sent' }],
      [
        'message_read',
        {
          chatId: ANN,
          sender: { id: ANN, lid: ANN_LID, phone: ANN_PHONE, isMe: false },
          messageSender: twinSender,
          isGroup: false,
          messageIds: [id],
          time: expect.any(String),
          receiptType: 'delivered',
        },
      ],
    ]);
    expect(await storedStatus(id)).toEqual({ status: 'sent', error: null });
  });

  it('an ack later than the 10 s wait on a link that stayed up: unconfirmed, then sent when the ack comes', async () => {
    await waitForStatus(http, real, (status) => status.isConnected);
    await network.delayAcks(ANN_PHONE, 12_000);
    const response = await http.post('/messages/text', { to: ANN_PHONE, message: 'slow server' }, headersOf(real));
    expect(response.status).toBe(201);
    const { id } = response.body as { id: string };

    const unconfirmed: EventPair = [
      'message_status',
      { id, chatId: ANN, status: 'unconfirmed', error: 'the network did not acknowledge the message within 10 s' },
    ];
    const ownMessage: EventPair = [
      'message',
      { id, time: expect.any(String), chatId: ANN, sender: me(), isGroup: false, isStatus: false, type: 'text', text: 'slow server' },
    ];
    expect(await hooksAbout(id, (pairs) => pairs.length >= 2)).toEqual([unconfirmed, ownMessage]);
    expect(await hooksAbout(id, (pairs) => pairs.length >= 3)).toEqual([
      unconfirmed,
      ownMessage,
      ['message_status', { id, chatId: ANN, status: 'sent' }],
    ]);
    expect(await storedStatus(id)).toEqual({ status: 'sent', error: null });
    expect((await network.inbox(ANN_PHONE)).filter((entry) => entry.id === id)).toHaveLength(1);
  }, 60_000);

  it('buttons relayed, then the link drops before the text copy: the retry sends only the text copy, and each part reaches Ann once', async () => {
    await waitForStatus(http, real, (status) => status.isConnected);
    const { logins } = await network.device(realDevice);
    // The server acks the buttons and the link drops right after: the text copy fails (Boom 428) and the send is retried.
    await network.dropLinkAfter(ANN_PHONE, true);
    const response = await http.post(
      '/messages/buttons',
      { to: ANN_PHONE, text: 'Confirm your order?', buttons: [{ type: 'reply', text: 'Yes', id: 'yes' }] },
      headersOf(real),
    );
    expect(response.status).toBe(201);
    const { id } = response.body as { id: string };
    const copyId = `3EB0${createHash('sha256').update(`${id}:text`).digest('hex').slice(0, 18).toUpperCase()}`;

    expect(await hooksAbout(id, (pairs) => pairs.length >= 2)).toEqual([
      ['message_status', { id, chatId: ANN, status: 'sent' }],
      [
        'message',
        {
          id,
          time: expect.any(String),
          chatId: ANN,
          sender: me(),
          isGroup: false,
          isStatus: false,
          type: 'buttons',
          text: 'Confirm your order?',
        },
      ],
    ]);
    await reconnected(logins);
    expect((await network.linkDrops()).at(-1)).toEqual({ id, to: ANN, acked: true });
    const inbox = (await network.inbox(ANN_PHONE)).filter((entry) => entry.id === id || entry.id === copyId);
    expect(inbox.map((entry) => [entry.id, entry.message])).toEqual([
      [
        id,
        {
          interactiveMessage: {
            body: { text: 'Confirm your order?' },
            nativeFlowMessage: {
              buttons: [{ name: 'quick_reply', buttonParamsJson: JSON.stringify({ display_text: 'Yes', id: 'yes' }) }],
              messageVersion: 1,
            },
          },
        },
      ],
      [copyId, expect.objectContaining({ extendedTextMessage: expect.objectContaining({ text: 'Confirm your order?\n\n1. Yes' }) })],
    ]);
    expect(await storedStatus(id)).toEqual({ status: 'sent', error: null });
    expect(worker.output()).toMatch(new RegExp(`${real.id}: ${id} not sent yet: Connection Closed`));
  });
});
