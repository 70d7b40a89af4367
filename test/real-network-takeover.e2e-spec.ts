import { eventually } from './support/event-log';
import { headersOf, waitForStatus } from './support/instance-world';
import {
  ANN_PHONE,
  LEASE_MS,
  messagesOf,
  ownerOf,
  pairedRealInstance,
  shardsOf,
  useTakeoverCluster,
  type TakeoverCluster,
} from './support/takeover-cluster';

const ME = '447700900200';
const ANN = `${ANN_PHONE}@s.whatsapp.net`;

/**
 * Takeover of a real instance: the worker holding a connected instance dies (kill -9) and another one resumes it from
 * the credentials and Signal sessions in PostgreSQL only. If any key write had been lost, the next message in either
 * direction would fail to decrypt (Bad MAC) on one side of the fake network.
 */
describe('a real instance taken over by another worker after kill -9 (fake network on loopback)', () => {
  let cluster: TakeoverCluster;
  useTakeoverCluster('takeover', (started) => (cluster = started));

  it('resumes from PostgreSQL: the next inbound message decrypts and the next send is decryptable by the contact', async () => {
    const { http, network, workers } = cluster;
    const { instance, deviceJid } = await pairedRealInstance(cluster, { customer: 'Takeover Co', instance: 'taken over' }, ME);

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

    const { owner, shard } = await ownerOf(workers, instance);
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
});
