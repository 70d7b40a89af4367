import { Client } from 'pg';
import { testEnv } from './support/environment';
import { eventLog, eventually, type LoggedEvent } from './support/event-log';
import type { CreatedInstance } from './support/fixtures';
import type { Http } from './support/http';
import { headersOf, waitForStatus } from './support/instance-world';
import type { AppProcess } from './support/processes';
import type { FakeNetworkProcess, ReceivedMessage } from './support/protocol-network/fake-network';
import { RealNetworkWorld } from './support/real-network-world';

// Retry receipts both ways on the fake network (issue 26 items 2 and 3): messages our device cannot decrypt are asked
// for again and, when they never arrive, reported as `message_undecryptable`; a contact that cannot decrypt what we
// sent asks again and gets it, also long after the send.

const ME = '447700900300';
const ANN_PHONE = '447700900323';
const ANN = `${ANN_PHONE}@s.whatsapp.net`;
const ANN_LID = '123456789012399@lid';
const ANN_SENDER = { id: ANN, lid: ANN_LID, phone: ANN_PHONE, isMe: false };
/** How long the worker waits for a decryptable copy before a failure is final (`UNDECRYPTABLE_AFTER_SECONDS`). */
const FINAL_AFTER_MS = 2_000;
/**
 * libsignal's error for a copy whose MAC does not verify, as Baileys puts it on the stub: a `pkmsg` fails with the
 * session it sets up, a `msg` after trying every session of the sender.
 */
const failureOf = (encType: string) => (encType === 'pkmsg' ? 'Bad MAC' : 'No matching sessions found for message');

const ADDRESSING: [string, 'pn' | 'lid'][] = [
  ['phone number', 'pn'],
  ['LID (the phone number alongside)', 'lid'],
];

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

describe('retry receipts on the fake network (undecryptable messages, resends)', () => {
  let world: RealNetworkWorld;
  let network: FakeNetworkProcess;
  let worker: AppProcess;
  let http: Http;
  let real: CreatedInstance;
  let device: string;
  let sandbox: CreatedInstance;

  beforeAll(async () => {
    world = await RealNetworkWorld.start({
      customer: 'Retries Co',
      people: [{ phone: ANN_PHONE, name: 'Ann', lid: ANN_LID }],
      workerEnv: { UNDECRYPTABLE_AFTER_SECONDS: String(FINAL_AFTER_MS / 1000) },
    });
    ({ network, worker, http } = world);
    [{ instance: real, deviceJid: device }, sandbox] = await Promise.all([
      world.pairReal(ME, 'retries real'),
      world.pairSandbox(ME, 'retries sandbox'),
    ]);
    // Ann and the device have a Signal session before anything is damaged (a first message from her opens it).
    await network.sendFromContact(ANN_PHONE, device, { conversation: 'hello' });
    await eventually(
      () => eventLog(real.id),
      (events) => events.some((event) => event.eventType === 'message'),
    );
  });

  afterAll(() => world?.stop());

  const eventsAbout = (log: LoggedEvent[], id: string) =>
    log.filter((event) => event.data.id === id).map((event) => [event.eventType, event.data] as [string, Record<string, unknown>]);

  async function metric(outcome: string): Promise<number> {
    const text = await (await fetch(`${worker.url}/metrics`)).text();
    const line = text.split('\n').find((row) => row.startsWith(`worker_undecryptable_messages_total{outcome="${outcome}"}`));
    return line ? Number(line.split(' ').at(-1)) : 0;
  }

  describe.each(ADDRESSING)('from a contact addressed by %s', (_name, mode) => {
    beforeAll(() => network.addressing(mode));
    afterAll(() => network.addressing('pn'));
    const chatAddress = () => (mode === 'lid' ? ANN_LID : ANN);

    it('asks for a message it cannot decrypt; the resend arrives as one message event and nothing undecryptable follows', async () => {
      const recovered = await metric('recovered');
      const { id, encType } = await network.sendUndecryptable(ANN_PHONE, device, { conversation: 'second try' }, { resends: 1 });
      const log = await eventually(
        () => eventLog(real.id),
        (events) => events.some((event) => event.data.id === id),
      );
      const receipts = (await network.retryReceiptsFromUs()).filter((receipt) => receipt.id === id);
      // rc14 `sendRetryRequest`: the first request names the message and our registration, without a key bundle; Ann
      // resends on the session she has (a `pkmsg` while this device never answered on it).
      expect(receipts).toEqual([
        {
          device,
          to: chatAddress(),
          id,
          attrs: { id, type: 'retry', to: chatAddress() },
          retry: { count: '1', id, t: expect.stringMatching(/^\d+$/), v: '1', error: '0' },
          registration: true,
          answered: `resent (${encType})`,
        },
      ]);
      await sleep(FINAL_AFTER_MS + 1_000);
      expect(eventsAbout(await eventLog(real.id), id)).toEqual([
        [
          'message',
          {
            id,
            time: expect.any(String),
            chatId: ANN,
            sender: ANN_SENDER,
            isGroup: false,
            isStatus: false,
            type: 'text',
            text: 'second try',
          },
        ],
      ]);
      expect(log.length).toBeGreaterThan(0);
      expect(await metric('recovered')).toBe(recovered + 1);
    });

    it('a message never resent becomes message_undecryptable once final, with sender, chat and reason', async () => {
      const reported = await metric('reported');
      const { id, encType } = await network.sendUndecryptable(ANN_PHONE, device, { conversation: 'lost' }, { resends: 0 });
      const log = await eventually(
        () => eventLog(real.id),
        (events) => events.some((event) => event.data.id === id),
        FINAL_AFTER_MS + 8_000,
      );
      expect(eventsAbout(log, id)).toEqual([
        [
          'message_undecryptable',
          { id, time: expect.any(String), chatId: ANN, sender: ANN_SENDER, isGroup: false, reason: failureOf(encType), attempts: 1 },
        ],
      ]);
      expect((await network.retryReceiptsFromUs()).filter((receipt) => receipt.id === id).map((receipt) => receipt.answered)).toEqual([
        'ignored',
      ]);
      expect(await metric('reported')).toBe(reported + 1);
    });
  });

  it('a resend that comes after message_undecryptable is still reported, as the message with the same id', async () => {
    const { id, encType } = await network.sendUndecryptable(ANN_PHONE, device, { conversation: 'late but here' }, { resends: 0 });
    await eventually(
      () => eventLog(real.id),
      (events) => events.some((event) => event.data.id === id),
      FINAL_AFTER_MS + 8_000,
    );
    await network.resendLate(id);
    const log = await eventually(
      () => eventLog(real.id),
      (events) => events.filter((event) => event.data.id === id).length >= 2,
    );
    expect(eventsAbout(log, id)).toEqual([
      [
        'message_undecryptable',
        { id, time: expect.any(String), chatId: ANN, sender: ANN_SENDER, isGroup: false, reason: failureOf(encType), attempts: 1 },
      ],
      [
        'message',
        {
          id,
          time: expect.any(String),
          chatId: ANN,
          sender: ANN_SENDER,
          isGroup: false,
          isStatus: false,
          type: 'text',
          text: 'late but here',
        },
      ],
    ]);
  });

  it('after a damaged resend the contact starts a new session from the key bundle of the second request (pkmsg)', async () => {
    const { id, encType } = await network.sendUndecryptable(
      ANN_PHONE,
      device,
      { conversation: 'third time' },
      { resends: 2, failingResends: 1 },
    );
    await eventually(
      () => eventLog(real.id),
      (events) => events.some((event) => event.data.id === id),
    );
    const receipts = (await network.retryReceiptsFromUs()).filter((receipt) => receipt.id === id);
    expect(receipts.map(({ retry, keys, answered }) => ({ count: retry.count, keys, answered }))).toEqual([
      { count: '1', keys: undefined, answered: `resent damaged (${encType})` },
      { count: '2', keys: ['type', 'identity', 'key', 'skey', 'device-identity'], answered: 'resent (pkmsg)' },
    ]);
    await sleep(FINAL_AFTER_MS + 1_000);
    expect(eventsAbout(await eventLog(real.id), id).map(([type, data]) => [type, data.text])).toEqual([['message', 'third time']]);
  });

  it('a contact whose resends all fail: Baileys asks five times, then message_undecryptable counts six failed copies', async () => {
    const { id } = await network.sendUndecryptable(ANN_PHONE, device, { conversation: 'never' }, { resends: 10, failingResends: 10 });
    const log = await eventually(
      () => eventLog(real.id),
      (events) => events.some((event) => event.data.id === id),
      FINAL_AFTER_MS + 15_000,
    );
    expect(eventsAbout(log, id)).toEqual([
      [
        'message_undecryptable',
        // The reason of the last copy: from the second request on, Ann resends on a new session (pkmsg).
        { id, time: expect.any(String), chatId: ANN, sender: ANN_SENDER, isGroup: false, reason: failureOf('pkmsg'), attempts: 6 },
      ],
    ]);
    const receipts = (await network.retryReceiptsFromUs()).filter((receipt) => receipt.id === id);
    expect(receipts.map((receipt) => receipt.retry.count)).toEqual(['1', '2', '3', '4', '5']);
  });

  it('the sandbox reports an undecryptable message with the same event', async () => {
    const response = await http.post('/sandbox/inbound/undecryptable', { from: ANN_PHONE }, headersOf(sandbox));
    expect(response.status).toBe(201);
    const { id } = response.body as { id: string };
    const log = await eventually(
      () => eventLog(sandbox.id),
      (events) => events.some((event) => event.data.id === id),
    );
    expect(eventsAbout(log, id)).toEqual([
      [
        'message_undecryptable',
        { id, time: expect.any(String), chatId: ANN, sender: ANN_SENDER, isGroup: false, reason: 'Bad MAC', attempts: 1 },
      ],
    ]);
    const refused = await http.post('/sandbox/inbound/undecryptable', { from: ANN_PHONE, attempts: 7 }, headersOf(sandbox));
    expect([refused.status, refused.body]).toEqual([400, { status: 400, detail: 'validation error: attempts must be at most 6' }]);
    expect((await http.post('/sandbox/inbound/undecryptable', { from: ANN_PHONE }, headersOf(real))).status).toBe(404);
  });

  describe.each(ADDRESSING)('toward a contact addressed by %s', (_name, mode) => {
    beforeAll(() => network.addressing(mode));
    afterAll(() => network.addressing('pn'));

    it('a contact that cannot decrypt our message asks again, and the resend reaches its phone decrypted', async () => {
      // This device has a session with Ann's phone (a message of ours reached her), and then her phone loses it.
      await deliveredToAnn(`before the loss (${mode})`);
      await network.asksForRetries(ANN_PHONE);
      await network.forgetSession(ANN_PHONE, device);
      try {
        const response = await http.post('/messages/text', { to: ANN_PHONE, message: `again, please (${mode})` }, headersOf(real));
        expect(response.status).toBe(201);
        const { id } = response.body as { id: string };
        const copies = await eventually(
          () => network.inbox(ANN_PHONE),
          (entries) => entries.some((entry) => entry.id === id && entry.message !== undefined),
        );
        const mine = copies.filter((entry) => entry.id === id);
        // The first copy fails on Ann's phone (it lost its session and pre-keys); the resend starts a new session from a
        // bundle fetched again (pkmsg). Asked by a phone (device 0), Baileys resends to all her devices, without `count`.
        expect(
          mine.map(({ encType, encAttrs, error, message }) => ({ encType, count: encAttrs.count, failed: error !== undefined, message })),
        ).toEqual([
          { encType: expect.stringMatching(/^(msg|pkmsg)$/), count: undefined, failed: true, message: undefined },
          {
            encType: 'pkmsg',
            count: undefined,
            failed: false,
            message: {
              extendedTextMessage: { text: `again, please (${mode})` },
              messageContextInfo: { messageSecret: expect.any(String) },
            },
          },
        ]);
      } finally {
        await network.asksForRetries(ANN_PHONE, false);
      }
    });
  });

  /** Backdates a kept message, as if it had been sent `minutes` ago. */
  async function sentMinutesAgo(id: string, minutes: number): Promise<void> {
    const db = new Client({ connectionString: testEnv().DATABASE_URL });
    await db.connect();
    try {
      const result = await db.query(
        `UPDATE network_messages SET sent_at = now() - make_interval(mins => $3) WHERE instance_id = $1 AND id = $2`,
        [real.id, id, minutes],
      );
      expect(result.rowCount).toBe(1);
    } finally {
      await db.end();
    }
  }

  /** A send of ours that reached Ann's phone, kept by the worker. */
  async function deliveredToAnn(text: string): Promise<string> {
    const response = await http.post('/messages/text', { to: ANN_PHONE, message: text }, headersOf(real));
    expect(response.status).toBe(201);
    const { id } = response.body as { id: string };
    await eventually(
      () => network.inbox(ANN_PHONE),
      (entries) => entries.some((entry) => entry.id === id && entry.message !== undefined),
    );
    await eventually(
      () => eventLog(real.id),
      (events) => events.some((event) => event.eventType === 'message' && event.data.id === id),
    );
    return id;
  }

  const copiesOf = async (id: string): Promise<ReceivedMessage[]> => (await network.inbox(ANN_PHONE)).filter((entry) => entry.id === id);

  it('answers a retry receipt for a message sent 20 minutes ago (past the old 15-minute window) from the kept copy', async () => {
    const id = await deliveredToAnn('sent long ago');
    await sentMinutesAgo(id, 20);
    // A new socket: Baileys' own cache of recent sends (5 minutes, in the socket) is empty, as after any reconnect.
    await network.disconnect(device, 515);
    await eventually(
      () => network.device(device),
      (fake) => fake.logins >= 2 && fake.connected,
    );
    await waitForStatus(http, real, (s) => s.isConnected);
    await network.forgetSession(ANN_PHONE, device);
    await network.askAgain(ANN_PHONE, device, id);
    const copies = await eventually(
      () => copiesOf(id),
      (entries) => entries.length >= 2,
    );
    expect(
      copies.map(({ encType, encAttrs, message }) => ({
        encType,
        count: encAttrs.count,
        text: (message?.extendedTextMessage as { text?: string })?.text,
      })),
    ).toEqual([
      { encType: expect.any(String), count: undefined, text: 'sent long ago' },
      { encType: 'pkmsg', count: undefined, text: 'sent long ago' },
    ]);
  });

  it('resends one message at most five times to a device: the sixth request gets nothing', async () => {
    const id = await deliveredToAnn('ask me five times');
    for (let count = 1; count <= 6; count += 1) {
      await network.askAgain(ANN_PHONE, device, id, { count });
      await sleep(400);
    }
    await sleep(1_000);
    const copies = await copiesOf(id);
    // The first copy and one resend for each of the first five requests.
    expect(copies).toHaveLength(6);
    expect(copies.every((entry) => entry.message !== undefined)).toBe(true);
  });
});
