import { shardOf } from '@app/contracts';
import { startApi, type RunningApi } from './support/api-harness';
import { subPrefix } from './support/environment';
import { eventLog, eventually } from './support/event-log';
import { createCustomer, createInstance, type CreatedInstance } from './support/fixtures';
import { Http } from './support/http';
import { headersOf, waitForStatus } from './support/instance-world';
import { spawnApp, type AppProcess } from './support/processes';
import { FakeNetworkProcess } from './support/protocol-network/fake-network';

const LEASE_MS = 8_000;
const SHARDS = 4;
const ME = '447700900200';
const ANN_PHONE = '447700900123';
const ANN = `${ANN_PHONE}@s.whatsapp.net`;
const BOB_PHONE = '447700900124';
/** rc14 uploads this many pre-keys when the server's stock runs low (`MIN_PREKEY_COUNT`), and at a login with so few left. */
const MIN_PREKEY_COUNT = 5;

async function shardsOf(worker: AppProcess): Promise<number[]> {
  try {
    const response = await fetch(`${worker.url}/status`);
    return response.ok ? ((await response.json()) as { shards: number[] }).shards : [];
  } catch {
    return [];
  }
}

/**
 * Takeover of a real instance: the worker holding a connected instance dies (kill -9) and another one resumes it from
 * the credentials and Signal sessions in PostgreSQL only. If any key write had been lost, the next message in either
 * direction would fail to decrypt (Bad MAC) on one side of the fake network.
 */
describe('a real instance taken over by another worker after kill -9 (fake network on loopback)', () => {
  let network: FakeNetworkProcess;
  let api: RunningApi;
  let http: Http;
  const workers: AppProcess[] = [];
  let workerEnv: Record<string, string> = {};

  beforeAll(async () => {
    const prefix = subPrefix('takeover');
    network = await FakeNetworkProcess.start();
    api = await startApi({ queuePrefix: prefix, shardCount: SHARDS });
    http = new Http(api.url, { checkSpec: false });
    workerEnv = { ...network.workerEnv(), QUEUE_PREFIX: prefix, SHARD_LEASE_MS: String(LEASE_MS), SHARD_COUNT: String(SHARDS) };
    workers.push(...(await Promise.all([spawnApp('worker', workerEnv), spawnApp('worker', workerEnv)])));
    await eventually(
      async () => Promise.all(workers.map(shardsOf)),
      (owned) => owned.flat().length === SHARDS && owned.every((shards) => shards.length > 0),
      20_000,
    );
    await network.addContact(ANN_PHONE, 'Ann', '123456789012345@lid');
    await network.addContact(BOB_PHONE, 'Bob', '123456789012346@lid');
  });

  afterAll(async () => {
    await Promise.all(workers.map((worker) => worker.stop('SIGKILL')));
    await api?.close();
    await network?.stop();
  });

  const messagesOf = async (instance: CreatedInstance) =>
    (await eventLog(instance.id)).filter((event) => event.eventType === 'message').map((event) => event.data);

  it('resumes from PostgreSQL: the next inbound message decrypts and the next send is decryptable by the contact', async () => {
    const customer = await createCustomer(http, 'Takeover Co');
    const instance = await createInstance(http, customer.apiKey, { name: 'taken over', sandbox: false });
    const qr = await http.get('/session/qr/text', headersOf(instance));
    expect(qr.status).toBe(200);
    const { deviceJid } = await network.scan((qr.body as { code: string }).code, ME);
    await waitForStatus(http, instance, (status) => status.isConnected);

    // Sessions in both directions, ratcheted a few times in turn, the last step right before the kill.
    for (let round = 1; round <= 2; round += 1) {
      const sent = await http.post('/messages/text', { to: ANN_PHONE, message: `before ${round}` }, headersOf(instance));
      expect(sent.status).toBe(201);
      await eventually(
        () => network.inbox(ANN_PHONE),
        (entries) => entries.some((entry) => entry.id === (sent.body as { id: string }).id),
      );
      await network.sendFromContact(ANN_PHONE, deviceJid, { conversation: `inbound before ${round}` });
      await eventually(
        () => messagesOf(instance),
        (messages) => messages.some((message) => message.text === `inbound before ${round}`),
      );
    }
    const inboxBefore = await network.inbox(ANN_PHONE);
    expect(inboxBefore.filter((entry) => entry.error)).toEqual([]);
    expect(inboxBefore.map((entry) => (entry.message?.extendedTextMessage as { text?: string } | undefined)?.text)).toEqual([
      'before 1',
      'before 2',
    ]);

    const shard = shardOf(instance.id, SHARDS);
    const owned = await Promise.all(workers.map(shardsOf));
    const owner = workers[owned.findIndex((shards) => shards.includes(shard))];
    const survivor = workers.find((worker) => worker !== owner)!;
    const loginsBefore = (await network.device(deviceJid)).logins;
    await owner.stop('SIGKILL');

    // The survivor takes the shard over after the lease runs out and logs the device in again.
    const device = await eventually(
      () => network.device(deviceJid),
      (found) => found.connected && found.logins > loginsBefore,
      LEASE_MS + 15_000,
    );
    expect(device).toMatchObject({ linked: true, connected: true, logins: loginsBefore + 1 });
    expect(await shardsOf(survivor)).toContain(shard);
    expect(await waitForStatus(http, instance, (status) => status.isConnected)).toEqual({
      isConnected: true,
      isLoggedIn: true,
      deviceId: deviceJid,
    });

    await network.sendFromContact(ANN_PHONE, deviceJid, { conversation: 'inbound after the takeover' });
    const messages = await eventually(
      () => messagesOf(instance),
      (found) => found.some((message) => message.text === 'inbound after the takeover'),
    );
    expect(messages.find((message) => message.text === 'inbound after the takeover')).toMatchObject({
      chatId: ANN,
      type: 'text',
      sender: { id: ANN, phone: ANN_PHONE, isMe: false },
    });
    expect(survivor.output()).not.toMatch(/Bad MAC|No session|Invalid PreKey/);

    const after = await http.post('/messages/text', { to: ANN_PHONE, message: 'after the takeover' }, headersOf(instance));
    expect(after.status).toBe(201);
    const inbox = await eventually(
      () => network.inbox(ANN_PHONE),
      (entries) => entries.some((entry) => entry.id === (after.body as { id: string }).id),
    );
    const received = inbox.find((entry) => entry.id === (after.body as { id: string }).id)!;
    expect(received.error).toBeUndefined();
    expect(received.message).toMatchObject({ extendedTextMessage: { text: 'after the takeover' } });
  });

  /**
   * The window of the driver fix "close waits for the credentials writes, the lease is released after": rc14 uploads
   * pre-keys in a key transaction that writes the new `pre-key` rows and emits `creds.update` with the next ids, saved
   * asynchronously, and only then sends the upload. The fake server resolves `preKeyLow` as the upload arrives and the
   * test sends SIGTERM at once, so the owner's close starts with that save just queued (a few milliseconds old). The
   * race itself cannot be forced from outside the process (the unit tests in baileys-session.spec.ts do that); what
   * this proves end to end is its outcome. Had the owner stopped with the save lost, the survivor would load
   * credentials that still point at the batch before, and at its login, where the server holds only the last batch
   * (no more than MIN_PREKEY_COUNT, so rc14 uploads again), it would upload those ids again with new keys: the fake
   * server records such reuse, which breaks any peer that fetched the first key. Had the last batch's key rows been
   * lost, Bob's first message, built on the first key of that batch, would not decrypt.
   */
  it('a graceful handover right after a pre-key upload: the survivor knows the ids and keys the owner wrote last', async () => {
    // Two live workers (the test above killed one), the shards split between them (rebalanced) before pairing, so
    // that no shard moves mid-pairing: one owns the instance, the other takes it over.
    for (const [index, worker] of workers.entries()) {
      if (worker.child.exitCode !== null || worker.child.signalCode !== null) workers[index] = await spawnApp('worker', workerEnv);
    }
    await eventually(
      async () => Promise.all(workers.map(shardsOf)),
      (owned) => owned.flat().length === SHARDS && owned.every((shards) => shards.length === SHARDS / workers.length),
      LEASE_MS + 20_000,
    );
    const customer = await createCustomer(http, 'Handover Co');
    const instance = await createInstance(http, customer.apiKey, { name: 'handed over', sandbox: false });
    const qr = await http.get('/session/qr/text', headersOf(instance));
    expect(qr.status).toBe(200);
    const { deviceJid } = await network.scan((qr.body as { code: string }).code, '447700900201');
    await waitForStatus(http, instance, (status) => status.isConnected);

    // Ann's first message is a pre-key message: it consumes one of the first login's pre-keys and starts the session.
    await network.sendFromContact(ANN_PHONE, deviceJid, { conversation: 'inbound before the handover' });
    await eventually(
      () => messagesOf(instance),
      (messages) => messages.some((message) => message.text === 'inbound before the handover'),
    );

    const shard = shardOf(instance.id, SHARDS);
    const owned = await Promise.all(workers.map(shardsOf));
    const owner = workers[owned.findIndex((shards) => shards.includes(shard))];
    const loginsBefore = (await network.device(deviceJid)).logins;
    const { ids: lastBatch } = await network.preKeyLow(deviceJid);
    await owner.stop('SIGTERM');
    workers[workers.indexOf(owner)] = await spawnApp('worker', workerEnv);
    expect(lastBatch).toHaveLength(MIN_PREKEY_COUNT);

    await eventually(
      () => network.device(deviceJid),
      (found) => found.connected && found.logins > loginsBefore,
      LEASE_MS + 15_000,
    );
    await waitForStatus(http, instance, (status) => status.isConnected);
    const preKeys = await eventually(
      () => network.preKeys(deviceJid),
      // The survivor's upload at login: new ids, or (credentials lost) the last batch's ids again.
      (found) => found.held.length > lastBatch.length || found.reused.length > 0,
    );
    expect(preKeys.reused).toEqual([]);
    expect(preKeys.held.slice(0, lastBatch.length)).toEqual(lastBatch);
    expect(Math.min(...preKeys.held.slice(lastBatch.length))).toBeGreaterThan(Math.max(...lastBatch));

    // Bob's first message takes the first key of the batch the owner wrote just before it stopped.
    await network.sendFromContact(BOB_PHONE, deviceJid, { conversation: 'from Bob after the handover' });
    await network.sendFromContact(ANN_PHONE, deviceJid, { conversation: 'from Ann after the handover' });
    const afterHandover = ['from Bob after the handover', 'from Ann after the handover'];
    await eventually(
      () => messagesOf(instance),
      (messages) => afterHandover.every((text) => messages.some((message) => message.text === text)),
    );
    expect((await network.preKeys(deviceJid)).held).not.toContain(lastBatch[0]);

    const sent = await Promise.all(
      [ANN_PHONE, BOB_PHONE].map((to) => http.post('/messages/text', { to, message: `to ${to} after the handover` }, headersOf(instance))),
    );
    for (const [index, phone] of [ANN_PHONE, BOB_PHONE].entries()) {
      const id = (sent[index].body as { id: string }).id;
      const inbox = await eventually(
        () => network.inbox(phone),
        (entries) => entries.some((entry) => entry.id === id),
      );
      const received = inbox.find((entry) => entry.id === id)!;
      expect(received.error).toBeUndefined();
      expect(received.message).toMatchObject({ extendedTextMessage: { text: `to ${phone} after the handover` } });
    }
    for (const worker of workers) expect(worker.output()).not.toMatch(/Bad MAC|No session|Invalid PreKey|failed to decrypt/);
  }, 120_000);
});
