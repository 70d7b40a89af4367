import { createHash, randomBytes } from 'node:crypto';
import request from 'supertest';
import { eventLog, eventually } from './support/event-log';
import type { CreatedInstance } from './support/fixtures';
import type { Http } from './support/http';
import { headersOf, waitForStatus } from './support/instance-world';
import { FakeMedia } from './support/protocol-network/fake-media';
import type { FakeNetworkProcess, ReceivedMessage } from './support/protocol-network/fake-network';
import { RealNetworkWorld } from './support/real-network-world';

const ME = '447700900300';
const ANN_PHONE = '447700900323';
const ANN = `${ANN_PHONE}@s.whatsapp.net`;
const ANN_LID = '123456789012399@lid';
const ANN_SENDER = { id: ANN, lid: ANN_LID, phone: ANN_PHONE, isMe: false };
/** The message event of media Ann sent the 1:1 chat, its file described by `media`. */
const annMedia = (id: string, media: Record<string, unknown>) => ({
  id,
  time: expect.any(String),
  chatId: ANN,
  sender: ANN_SENDER,
  isGroup: false,
  isStatus: false,
  type: 'media',
  media,
});
const BOB_PHONE = '447700900324';
const BOB = `${BOB_PHONE}@s.whatsapp.net`;
const BOB_LID = '123456789012398@lid';

const sha256 = (data: Buffer) => createHash('sha256').update(data).digest('base64');

/** A download through the gateway as raw bytes, whatever the content type. */
function download(baseUrl: string, id: string, instance: CreatedInstance) {
  return request(baseUrl)
    .get(`/media/download?id=${encodeURIComponent(id)}`)
    .set(headersOf(instance))
    .buffer(true)
    .parse((response, done) => {
      const chunks: Buffer[] = [];
      response.on('data', (chunk: Buffer) => chunks.push(chunk));
      response.on('end', () => done(null, Buffer.concat(chunks)));
    });
}

/**
 * Files and groups through the real-network driver: the unmodified Baileys library in the built worker uploads and
 * downloads encrypted files over HTTPS at the fake network's media server, and sends to and receives from groups with
 * sender keys, against the fake network in test/support/protocol-network.
 */
describe('real instances: media and groups over the WhatsApp Web protocol (fake network on loopback)', () => {
  let world: RealNetworkWorld;
  let network: FakeNetworkProcess;
  let media: FakeMedia;
  let http: Http;
  let real: CreatedInstance;
  let realDevice: string;
  let sandbox: CreatedInstance;

  beforeAll(async () => {
    world = await RealNetworkWorld.start({
      customer: 'Media Co',
      people: [
        { phone: ANN_PHONE, name: 'Ann', lid: ANN_LID },
        { phone: BOB_PHONE, name: 'Bob', lid: BOB_LID },
      ],
    });
    ({ network, http } = world);
    media = new FakeMedia(network);
    [{ instance: real, deviceJid: realDevice }, sandbox] = await Promise.all([world.pairReal(ME, 'real'), world.pairSandbox(ME)]);
  });

  afterAll(() => world?.stop());

  /** The `message` event an instance logged for message `id`. */
  async function messageEvent(instance: CreatedInstance, id: string): Promise<Record<string, unknown>> {
    const log = await eventually(
      () => eventLog(instance.id),
      (events) => events.some((event) => event.eventType === 'message' && event.data.id === id),
    );
    return log.find((event) => event.eventType === 'message' && event.data.id === id)!.data;
  }

  /** Sends on the real instance; resolves with the id and what Ann's phone decrypted for it. */
  async function sendToAnn(path: string, body: object): Promise<{ id: string; received: ReceivedMessage }> {
    const response = await http.post(path, { to: ANN_PHONE, ...body }, headersOf(real));
    expect(response.status).toBe(201);
    const { id } = response.body as { id: string };
    const inbox = await eventually(
      () => network.inbox(ANN_PHONE),
      (entries) => entries.some((entry) => entry.id === id),
      30_000,
    );
    return { id, received: inbox.find((entry) => entry.id === id)! };
  }

  describe('media', () => {
    it.each([
      [
        'image',
        '/messages/image',
        { mimeType: 'image/png', caption: 'the plan' },
        'imageMessage',
        { mimetype: 'image/png', caption: 'the plan' },
      ],
      [
        'document',
        '/messages/document',
        { mimeType: 'application/pdf', filename: 'plan.pdf', caption: 'signed' },
        'documentMessage',
        { mimetype: 'application/pdf', fileName: 'plan.pdf', caption: 'signed' },
      ],
      ['audio', '/messages/audio', { mimeType: 'audio/ogg; codecs=opus' }, 'audioMessage', { mimetype: 'audio/ogg; codecs=opus' }],
    ])(
      'sends %s: uploaded encrypted over HTTPS, the contact decrypts the message and the file to the exact bytes',
      async (_kind, path, body, field, fields) => {
        const bytes = randomBytes(5_000 + Math.floor(Math.random() * 100));
        const uploadsBefore = (await media.uploads()).length;
        const { id, received } = await sendToAnn(path, { ...body, data: bytes.toString('base64') });
        expect(received.error).toBeUndefined();
        const content = (received.message as Record<string, Record<string, unknown>>)[field];
        expect(content).toMatchObject({
          ...fields,
          url: expect.stringMatching(/^https:\/\/127\.0\.0\.1:\d+\/v\/t62\.7118-24\/[0-9a-f]+\.enc\?ccb=11-4&oh=[0-9a-f]+$/),
          directPath: expect.stringMatching(/^\/v\/t62\.7118-24\//),
          mediaKey: expect.any(String),
          fileSha256: sha256(bytes),
          fileEncSha256: expect.any(String),
          fileLength: String(bytes.length),
        });
        expect(Buffer.from(content.mediaKey as string, 'base64')).toHaveLength(32);

        // One upload, to the path of its media type, named by the SHA-256 of the encrypted file (URL-safe base64).
        const uploads = (await media.uploads()).slice(uploadsBefore);
        const token = (content.fileEncSha256 as string).replace(/\+/g, '-').replace(/\//g, '_').replace(/=+$/, '');
        expect(uploads).toEqual([
          {
            path: `/mms/${field.replace('Message', '')}/${token}`,
            directPath: content.directPath,
            length: expect.any(Number),
          },
        ]);

        const file = await media.received(ANN_PHONE, id);
        expect(file).toEqual({
          field,
          urlHost: new URL(content.url as string).host,
          encryptedMatches: true,
          plainMatches: true,
          data: bytes.toString('base64'),
        });
      },
    );

    it("receives the contact's image as the sandbox's media message, and /media/download answers the exact bytes", async () => {
      const bytes = randomBytes(3_000);
      const sandboxSent = await http.post(
        '/sandbox/inbound',
        {
          from: ANN_PHONE,
          type: 'media',
          pushName: 'Ann',
          media: { mediaType: 'image', mimeType: 'image/png', caption: 'look', data: bytes.toString('base64') },
        },
        headersOf(sandbox),
      );
      expect(sandboxSent.status).toBe(201);
      const { id } = await media.send(ANN_PHONE, realDevice, { mediaType: 'image', mimetype: 'image/png', caption: 'look', data: bytes });

      const [sandboxEvent, realEvent] = [
        await messageEvent(sandbox, (sandboxSent.body as { id: string }).id),
        await messageEvent(real, id),
      ];
      const withoutIds = ({ id: _id, time: _time, media: file, ...rest }: Record<string, unknown>) => {
        const { id: _mediaId, ...described } = file as Record<string, unknown>;
        return { ...rest, media: described };
      };
      expect(withoutIds(realEvent)).toEqual(withoutIds(sandboxEvent));
      expect(realEvent).toEqual(annMedia(id, { mediaType: 'image', mimeType: 'image/png', id, fileLength: bytes.length, caption: 'look' }));

      const response = await download(world.api.url, id, real);
      expect(response.status).toBe(200);
      expect(response.headers['content-type']).toBe('image/png');
      expect(response.headers['content-length']).toBe(String(bytes.length));
      expect(Buffer.compare(response.body as Buffer, bytes)).toBe(0);
    });

    it("an expired file is asked of the sender's phone with the message's media key, re-uploaded and downloaded", async () => {
      const bytes = randomBytes(2_000);
      const { id } = await media.send(ANN_PHONE, realDevice, {
        mediaType: 'document',
        mimetype: 'application/pdf',
        fileName: 'old.pdf',
        data: bytes,
      });
      await messageEvent(real, id);
      await media.expire(id);
      // A fresh socket (after a reconnect) that has uploaded nothing, so it has not asked the network for its media hosts.
      const before = await network.device(realDevice);
      await network.disconnect(realDevice, 428);
      await eventually(
        () => network.device(realDevice),
        (device) => device.connected && device.logins > before.logins,
        30_000,
      );
      await waitForStatus(http, real, (status) => status.isConnected);

      const response = await download(world.api.url, id, real);
      expect(response.status).toBe(200);
      expect(response.headers['content-type']).toBe('application/pdf');
      expect(Buffer.compare(response.body as Buffer, bytes)).toBe(0);
      // The phone could decrypt the request only with the key derived from the mediaKey bytes.
      expect((await media.retries()).filter((retry) => retry.id === id)).toEqual([
        { id, understood: true, result: 'SUCCESS', directPath: expect.stringMatching(/^\/v\/t62\.7118-24\//) },
      ]);
    });
  });

  describe('in LID addressing mode (one-to-one chats by @lid, the phone number alongside)', () => {
    beforeAll(() => network.addressing('lid'));
    afterAll(() => network.addressing('pn'));

    it("the contact's document is the same media event as by phone number, and downloads to its bytes", async () => {
      const bytes = randomBytes(1_500);
      const { id } = await media.send(ANN_PHONE, realDevice, {
        mediaType: 'document',
        mimetype: 'application/pdf',
        fileName: 'by-lid.pdf',
        data: bytes,
      });
      expect(await messageEvent(real, id)).toEqual(
        annMedia(id, { mediaType: 'document', mimeType: 'application/pdf', id, fileLength: bytes.length, filename: 'by-lid.pdf' }),
      );
      const response = await download(world.api.url, id, real);
      expect(response.status).toBe(200);
      expect(response.headers['content-disposition']).toBe(`attachment; filename="by-lid.pdf"; filename*=UTF-8''by-lid.pdf`);
      expect(Buffer.compare(response.body as Buffer, bytes)).toBe(0);
    });
  });

  describe('groups', () => {
    let groupId: string;

    beforeAll(async () => {
      const created = await http.post('/groups', { name: 'Crew', participants: [ANN_PHONE, BOB_PHONE] }, headersOf(real));
      expect(created.status).toBe(201);
      groupId = (created.body as { groupId: string }).groupId;
    });

    it('creates the group on the network with the contacts as members, and reads it back from there', async () => {
      expect(groupId).toMatch(/^120363\d+@g\.us$/);
      const [onNetwork] = (
        await network.call<{ id: string; subject: string; participants: { jid: string; admin?: string }[] }[]>('GET', '/groups')
      ).filter((group) => group.id === groupId);
      expect(onNetwork).toMatchObject({
        subject: 'Crew',
        participants: [{ jid: `${ME}@s.whatsapp.net`, admin: 'superadmin' }, { jid: ANN }, { jid: BOB }],
      });
      const read = await http.get(`/groups/${groupId}`, headersOf(real));
      expect(read.status).toBe(200);
      expect(read.body).toMatchObject({
        groupId,
        name: 'Crew',
        participants: expect.arrayContaining([
          expect.objectContaining({ id: `${ME}@s.whatsapp.net` }),
          expect.objectContaining({ id: ANN }),
          expect.objectContaining({ id: BOB }),
        ]),
      });
      expect((read.body as { participants: unknown[] }).participants).toHaveLength(3);
    });

    it("sends text to the group: the sender key reaches every member's phone pairwise, and each decrypts the one skmsg", async () => {
      const response = await http.post('/messages/text', { to: groupId, message: 'Hello crew' }, headersOf(real));
      expect(response.status).toBe(201);
      const { id } = response.body as { id: string };
      const copyOf = async (inbox: () => Promise<ReceivedMessage[]>) =>
        (await eventually(inbox, (entries) => entries.some((entry) => entry.id === id), 30_000)).filter((entry) => entry.id === id);
      for (const [member, inbox] of [
        [ANN, () => network.inbox(ANN_PHONE)],
        [BOB, () => network.inbox(BOB_PHONE)],
        [`${ME}@s.whatsapp.net`, () => network.phoneInbox(ME)],
      ] as const) {
        const copies = await copyOf(inbox);
        expect(copies).toHaveLength(1);
        expect(copies[0]).toMatchObject({
          id,
          to: groupId,
          recipient: member,
          from: realDevice,
          encType: 'skmsg',
          distribution: { recipient: member, encType: 'pkmsg', groupId },
        });
        expect(copies[0].error).toBeUndefined();
        expect(copies[0].message).toMatchObject({ extendedTextMessage: { text: 'Hello crew' } });
      }
    });

    it("a member's message (with its own sender key) is the same message event the sandbox produces for a group", async () => {
      const sandboxGroup = await http.post(
        '/sandbox/groups',
        { name: 'Crew', participants: [ANN_PHONE, BOB_PHONE], admins: [], selfIsAdmin: true },
        headersOf(sandbox),
      );
      expect(sandboxGroup.status).toBe(201);
      const sandboxGroupId = (sandboxGroup.body as { id: string }).id;
      const sandboxSent = await http.post(
        '/sandbox/inbound',
        { from: ANN_PHONE, chatId: sandboxGroupId, type: 'text', text: 'Hi all', pushName: 'Ann' },
        headersOf(sandbox),
      );
      expect(sandboxSent.status).toBe(201);
      const { id } = await network.call<{ id: string }>('POST', '/groups/send', {
        from: ANN_PHONE,
        to: realDevice,
        group: groupId,
        message: { conversation: 'Hi all' },
      });
      const [sandboxEvent, realEvent] = [
        await messageEvent(sandbox, (sandboxSent.body as { id: string }).id),
        await messageEvent(real, id),
      ];
      const comparable = ({ id: _id, time: _time, chatId, ...rest }: Record<string, unknown>) => ({
        ...rest,
        chatId: chatId === groupId || chatId === sandboxGroupId ? '<group>' : chatId,
      });
      expect(comparable(realEvent)).toEqual(comparable(sandboxEvent));
      expect(realEvent).toEqual({
        id,
        time: expect.any(String),
        chatId: groupId,
        sender: ANN_SENDER,
        isGroup: true,
        isStatus: false,
        type: 'text',
        text: 'Hi all',
      });
    });
  });

  describe('history sync with real content', () => {
    const CAROL_PHONE = '447700900325';
    const CAROL = `${CAROL_PHONE}@s.whatsapp.net`;
    const CAROL_LID = '123456789012397@lid';
    const at = (secondsAgo: number) => Math.floor(Date.now() / 1000) - secondsAgo;

    /** The `message_history_sync` events an instance logged for a chat, after `since` (an event count). */
    async function historyOf(instance: CreatedInstance, chatId: string, since: number) {
      const log = await eventually(
        () => eventLog(instance.id),
        (events) => events.slice(since).some((event) => event.eventType === 'message_history_sync' && event.data.chatId === chatId),
        30_000,
      );
      return log.slice(since).filter((event) => event.eventType === 'message_history_sync' && event.data.chatId === chatId);
    }

    it('with historySync off (the default) it teaches contacts and LIDs but reports no message_history_sync', async () => {
      const DAVE_PHONE = '447700900326';
      const DAVE_LID = '123456789012396@lid';
      const since = (await eventLog(real.id)).length;
      await network.sendHistory(realDevice, 'RECENT', {
        conversations: [
          {
            id: DAVE_LID,
            messages: [
              {
                message: {
                  key: { remoteJid: DAVE_LID, fromMe: false, id: '3EB0HISTORYDAV01' },
                  message: { conversation: 'Did you get my quote?' },
                  messageTimestamp: at(5400),
                },
              },
            ],
          },
        ],
        phoneNumberToLidMappings: [{ pnJid: `${DAVE_PHONE}@s.whatsapp.net`, lidJid: DAVE_LID }],
      });
      await network.sendHistory(realDevice, 'PUSH_NAME', { pushnames: [{ id: `${DAVE_PHONE}@s.whatsapp.net`, pushname: 'Dave Doe' }] });
      const dave = await eventually(
        () => http.get(`/contacts/${DAVE_PHONE}`, headersOf(real)),
        (response) => response.status === 200 && (response.body as { pushName?: string }).pushName === 'Dave Doe',
        30_000,
      );
      expect(dave.body).toEqual(expect.objectContaining({ id: `${DAVE_PHONE}@s.whatsapp.net`, lid: DAVE_LID, pushName: 'Dave Doe' }));
      // The phone's chunks are handled in order: the push names came after the chat, so its event would be logged by now.
      expect((await eventLog(real.id)).slice(since).filter((event) => event.eventType === 'message_history_sync')).toEqual([]);
    });

    it('arrives as blobs on the media server: chats, push names and LID mappings become events and contacts', async () => {
      const own = { useCustomDefaults: false, historySync: true };
      expect((await http.put('/instance/settings', own, headersOf(real))).status).toBe(204);
      const since = (await eventLog(real.id)).length;
      // Carol talks to the account in a LID-addressed chat; only the history says which phone number that LID is.
      const recent = await network.sendHistory(realDevice, 'RECENT', {
        conversations: [
          {
            id: ANN,
            messages: [
              {
                message: {
                  key: { remoteJid: ANN, fromMe: false, id: '3EB0HISTORYANN01' },
                  message: { conversation: 'Are we still on for Friday?' },
                  messageTimestamp: at(7200),
                  pushName: 'Ann',
                },
              },
              {
                message: {
                  key: { remoteJid: ANN, fromMe: true, id: '3EB0HISTORYME001' },
                  message: { conversation: 'Yes, 7pm' },
                  messageTimestamp: at(7100),
                  status: 'READ',
                },
              },
            ],
          },
          {
            id: CAROL_LID,
            messages: [
              {
                message: {
                  key: { remoteJid: CAROL_LID, fromMe: false, id: '3EB0HISTORYCAR01' },
                  message: { conversation: 'Invoice attached tomorrow' },
                  messageTimestamp: at(3600),
                },
              },
            ],
          },
        ],
        phoneNumberToLidMappings: [
          { pnJid: ANN, lidJid: ANN_LID },
          { pnJid: CAROL, lidJid: CAROL_LID },
        ],
      });
      const names = await network.sendHistory(realDevice, 'PUSH_NAME', { pushnames: [{ id: CAROL, pushname: 'Carol Client' }] });
      const blobs = [recent.directPath, names.directPath].map((path) => new URL(path, 'https://x').pathname);
      await eventually(
        () => network.mediaDownloads(),
        (downloads) => blobs.every((blob) => downloads.includes(blob)),
        30_000,
      );

      const [annHistory] = await historyOf(real, ANN, since);
      expect(annHistory.data).toEqual({
        chatId: ANN,
        messages: [
          {
            id: '3EB0HISTORYANN01',
            time: expect.any(String),
            chatId: ANN,
            sender: ANN_SENDER,
            isGroup: false,
            isStatus: false,
            type: 'text',
            text: 'Are we still on for Friday?',
          },
          {
            id: '3EB0HISTORYME001',
            time: expect.any(String),
            chatId: ANN,
            sender: { id: `${ME}@s.whatsapp.net`, lid: expect.stringMatching(/^\d+@lid$/), phone: ME, isMe: true },
            isGroup: false,
            isStatus: false,
            type: 'text',
            text: 'Yes, 7pm',
          },
        ],
      });
      // A history item is the message event itself: the sandbox's live event for the same message from Ann matches.
      const text = 'Are we still on for Friday?';
      const sandboxSent = await http.post('/sandbox/inbound', { from: ANN_PHONE, type: 'text', text, pushName: 'Ann' }, headersOf(sandbox));
      expect(sandboxSent.status).toBe(201);
      const withoutIdentity = ({ id: _id, time: _time, ...rest }: Record<string, unknown>) => rest;
      expect(withoutIdentity(await messageEvent(sandbox, (sandboxSent.body as { id: string }).id))).toEqual(
        withoutIdentity((annHistory.data.messages as Record<string, unknown>[])[0]),
      );

      const [carolHistory] = await historyOf(real, CAROL, since);
      expect(carolHistory.data).toEqual({
        chatId: CAROL,
        messages: [
          {
            id: '3EB0HISTORYCAR01',
            time: expect.any(String),
            chatId: CAROL,
            sender: { id: CAROL, lid: CAROL_LID, phone: CAROL_PHONE, isMe: false },
            isGroup: false,
            isStatus: false,
            type: 'text',
            text: 'Invoice attached tomorrow',
          },
        ],
      });
      const carol = await eventually(
        () => http.get(`/contacts/${CAROL_PHONE}`, headersOf(real)),
        (response) => response.status === 200 && (response.body as { pushName?: string }).pushName === 'Carol Client',
        30_000,
      );
      expect(carol.body).toEqual(expect.objectContaining({ id: CAROL, lid: CAROL_LID, pushName: 'Carol Client' }));
    });
  });
});
