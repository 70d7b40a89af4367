import { createHash } from 'node:crypto';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { describeErrorMatrix, type MatrixEndpoint } from './support/endpoint-matrix';
import { eventLog, eventually } from './support/event-log';
import type { Http } from './support/http';
import { headersOf, pairedInstance, type InstanceWorld } from './support/instance-world';
import { expectErrorBody } from './support/openapi';
import { LOOPBACK_MEDIA, useInstanceWorld } from './support/world-suite';

const ANN = '447700900371';
const ANN_JID = `${ANN}@s.whatsapp.net`;
const BOB_JID = '447700900372@s.whatsapp.net';
const CAROL_JID = '447700900373@s.whatsapp.net';
const STATUS = 'status@broadcast';
const MESSAGE_ID = /^3EB0[0-9A-F]{18}$/;
const IMAGE = Buffer.from('image bytes').toString('base64');
const VIDEO = Buffer.from('video bytes, a little longer').toString('base64');
const sha256 = (base64: string) => createHash('sha256').update(Buffer.from(base64, 'base64')).digest('base64');
const CLIP = Buffer.from('a short clip served over http');
const BAD_MESSAGE_ID = 'validation error: messageId must be a message id (letters and digits)';

const mediaInvalid = (kind: 'image' | 'video') => [
  { label: 'data not base64', body: { data: 'not base64!' }, detail: 'validation error: data must be valid base64' },
  { label: 'data as a number', body: { data: 7 }, detail: 'invalid request body' },
  {
    label: 'a mimeType of another kind',
    body: { data: IMAGE, mimeType: kind === 'image' ? 'video/mp4' : 'image/png' },
    detail: `validation error: mimeType must be ${kind === 'image' ? 'an image' : 'a video'}/* MIME type`,
  },
  {
    label: 'caption too long',
    body: { data: IMAGE, caption: 'c'.repeat(1025) },
    detail: 'validation error: caption must be at most 1024 characters',
  },
  { label: 'neither url nor data', body: { caption: 'hi' }, detail: 'validation error: url or data is required' },
  {
    label: 'both url and data',
    body: { data: IMAGE, url: 'https://example.com/a.jpg' },
    detail: 'validation error: url and data cannot both be given',
  },
  {
    label: 'a url that is not http(s)',
    body: { url: 'ftp://example.com/a.jpg' },
    detail: 'validation error: url must be an http or https URL',
  },
];

const ENDPOINTS: MatrixEndpoint[] = [
  {
    method: 'get',
    route: '/status/privacy',
    path: '/status/privacy',
    badPaths: [{ path: '/status/privacy?format=array', detail: 'validation error: format must be one of object, list' }],
  },
  {
    method: 'post',
    route: '/status/text',
    path: '/status/text',
    body: { text: 'Back on Monday' },
    invalid: [
      { label: 'text missing', body: {}, detail: 'validation error: text is required' },
      { label: 'text blank', body: { text: ' ' }, detail: 'validation error: text must not be empty' },
      { label: 'text too long', body: { text: 't'.repeat(701) }, detail: 'validation error: text must be at most 700 characters' },
      { label: 'text as an object', body: { text: { a: 1 } }, detail: 'invalid request body' },
    ],
  },
  { method: 'post', route: '/status/image', path: '/status/image', body: { data: IMAGE }, invalid: mediaInvalid('image') },
  { method: 'post', route: '/status/video', path: '/status/video', body: { data: VIDEO }, invalid: mediaInvalid('video') },
  {
    method: 'post',
    route: '/status/{messageId}/delete',
    path: '/status/3EB0AAAAAAAAAAAAAAAAAA/delete',
    badPaths: [{ path: '/status/not_an_id/delete', detail: BAD_MESSAGE_ID }],
  },
];

describe('status', () => {
  let http: Http;
  let world: InstanceWorld;
  useInstanceWorld('1555039', (suite) => ({ http, world } = suite), LOOPBACK_MEDIA);
  let files: Server;
  let filesUrl: string;

  beforeAll(async () => {
    files = createServer((req, res) => {
      if (req.url === '/clip.mp4') {
        res.writeHead(200, { 'Content-Type': 'video/mp4', 'Content-Length': CLIP.length });
        res.end(CLIP);
        return;
      }
      res.writeHead(404).end();
    });
    await new Promise<void>((resolve) => files.listen(0, '127.0.0.1', resolve));
    filesUrl = `http://127.0.0.1:${(files.address() as AddressInfo).port}`;
    for (const id of [ANN, BOB_JID, CAROL_JID]) expect((await http.post('/sandbox/contacts', { id }, headers())).status).toBe(201);
  });

  afterAll(async () => {
    await new Promise((resolve) => files?.close(resolve));
  });

  const headers = () => headersOf(world.connected);
  const outboxEntry = async (id: string) => {
    const outbox = (await http.get('/sandbox/outbox', headers())).body as { id: string }[];
    const entry = outbox.find((message) => message.id === id) as Record<string, unknown>;
    return { ...entry, receivedAt: undefined } as Record<string, unknown>;
  };
  const setPrivacy = async (type: string, list?: string[]) =>
    expect((await http.put('/sandbox/status-privacy', { type, ...(list ? { list } : {}) }, headers())).status).toBe(204);

  it('reports the default privacy until the phone changes it, then the phone setting: one object, or a list on request', async () => {
    const initial = await http.get('/status/privacy', headers());
    expect(initial.status).toBe(200);
    expect(initial.body).toEqual({ type: 'contacts', list: [], isDefault: true });
    await setPrivacy('blacklist', [BOB_JID]);
    expect((await http.get('/status/privacy', headers())).body).toEqual({ type: 'blacklist', list: [BOB_JID], isDefault: false });
    expect((await http.get('/status/privacy?format=object', headers())).body).toEqual({
      type: 'blacklist',
      list: [BOB_JID],
      isDefault: false,
    });
    expect((await http.get('/status/privacy?format=list', headers())).body).toEqual([
      { type: 'blacklist', list: [BOB_JID], isDefault: false },
    ]);
    await setPrivacy('contacts');
  });

  it('posts a text status to every contact, with an id in the network format', async () => {
    const posted = await http.post('/status/text', { text: 'Back on Monday' }, headers());
    expect(posted.status).toBe(201);
    expect(Object.keys(posted.body as object)).toEqual(['id']);
    const { id } = posted.body as { id: string };
    expect(id).toMatch(MESSAGE_ID);
    expect(await outboxEntry(id)).toEqual({
      id,
      to: STATUS,
      type: 'text',
      content: { text: 'Back on Monday', audience: [ANN_JID, BOB_JID, CAROL_JID] },
      receivedAt: undefined,
    });
    const journal = (await world.operations(world.connected)).filter((operation) => operation.name === 'status.post');
    expect(journal.map(({ name, args }) => ({ name, args }))).toContainEqual({
      name: 'status.post',
      args: { id, post: { kind: 'text', text: 'Back on Monday' } },
    });
  });

  it('posts image and video statuses only to the people the privacy setting allows', async () => {
    await setPrivacy('blacklist', [BOB_JID]);
    const image = await http.post('/status/image', { data: IMAGE, mimeType: 'image/png', caption: 'Sunset' }, headers());
    expect(image.status).toBe(201);
    const imageId = (image.body as { id: string }).id;
    expect(imageId).toMatch(MESSAGE_ID);
    expect(await outboxEntry(imageId)).toEqual({
      id: imageId,
      to: STATUS,
      type: 'image',
      content: {
        mimeType: 'image/png',
        caption: 'Sunset',
        fileLength: 11,
        fileSha256: sha256(IMAGE),
        audience: [ANN_JID, CAROL_JID],
      },
      receivedAt: undefined,
    });

    await setPrivacy('whitelist', [CAROL_JID, '447700900374']);
    const video = await http.post('/status/video', { data: VIDEO }, headers());
    expect(video.status).toBe(201);
    const videoId = (video.body as { id: string }).id;
    expect(await outboxEntry(videoId)).toEqual({
      id: videoId,
      to: STATUS,
      type: 'video',
      content: {
        mimeType: 'video/mp4',
        fileLength: 28,
        fileSha256: sha256(VIDEO),
        audience: [CAROL_JID, '447700900374@s.whatsapp.net'],
      },
      receivedAt: undefined,
    });
    await setPrivacy('contacts');
  });

  it('downloads a video from a URL, taking its type from the download', async () => {
    const posted = await http.post('/status/video', { url: `${filesUrl}/clip.mp4`, caption: 'From the web' }, headers());
    expect(posted.status).toBe(201);
    const { id } = posted.body as { id: string };
    expect((await outboxEntry(id)).content).toEqual({
      mimeType: 'video/mp4',
      caption: 'From the web',
      fileLength: CLIP.length,
      fileSha256: createHash('sha256').update(CLIP).digest('base64'),
      audience: [ANN_JID, BOB_JID, CAROL_JID],
    });
    const journal = (await world.operations(world.connected)).filter((operation) => operation.name === 'status.post');
    expect(journal.map((operation) => operation.args)).toContainEqual({
      id,
      post: { kind: 'video', media: { url: `${filesUrl}/clip.mp4` }, caption: 'From the web' },
    });
  });

  it('refuses a URL that cannot be downloaded or is not public, and nothing reaches the network', async () => {
    const before = await world.operations(world.connected);
    expectErrorBody(
      await http.post('/status/image', { url: `${filesUrl}/missing.jpg` }, headers()),
      400,
      /^validation error: url could not be fetched: 127\.0\.0\.1:\d+ answered 404$/,
    );
    expectErrorBody(
      await http.post('/status/image', { url: 'http://10.0.0.1/a.jpg' }, headers()),
      400,
      'validation error: url must point to a public http(s) address: 10.0.0.1 is not a public address',
    );
    expect(await world.operations(world.connected)).toEqual(before);
  });

  it('deletes its own status post for everyone with a message_delete event; a second delete is 404', async () => {
    const { id } = (await http.post('/status/text', { text: 'Oops' }, headers())).body as { id: string };
    const deleted = await http.post(`/status/${id}/delete`, undefined, headers());
    expect(deleted.status).toBe(204);
    expect(deleted.body).toEqual({});
    const log = await eventually(
      () => eventLog(world.connected.id),
      (events) => events.some((event) => event.eventType === 'message_delete' && event.data.id === id),
    );
    expect(log.find((event) => event.eventType === 'message_delete' && event.data.id === id)?.data).toEqual({
      id,
      sender: expect.objectContaining({ isMe: true }),
      chatId: STATUS,
      time: expect.stringMatching(/^\d{4}-\d{2}-\d{2}T/),
      isDeletedForAll: true,
      isDeletedForMe: false,
      isStatus: true,
    });
    expect((await outboxEntry(id)).content).toEqual({ text: 'Oops', audience: [ANN_JID, BOB_JID, CAROL_JID], deleted: true });
    expectErrorBody(await http.post(`/status/${id}/delete`, undefined, headers()), 404, 'not found');
    const deletes = (await world.operations(world.connected)).filter((operation) => operation.name === 'status.delete');
    expect(deletes.map((operation) => operation.args)).toEqual([{ id }]);
  });

  it('answers 404 for an unknown id and for a message that is not a status post, changing nothing', async () => {
    const inbound = await http.post('/sandbox/inbound', { from: ANN, type: 'text', text: 'not a status' }, headers());
    expect(inbound.status).toBe(201);
    const before = await world.operations(world.connected);
    expectErrorBody(await http.post('/status/3EB0000000000000000000/delete', undefined, headers()), 404, 'not found');
    expectErrorBody(await http.post(`/status/${(inbound.body as { id: string }).id}/delete`, undefined, headers()), 404, 'not found');
    expect(await world.operations(world.connected)).toEqual(before);
  });

  it("never lets another instance, of this customer or another, see or delete this instance's posts", async () => {
    const { id } = (await http.post('/status/text', { text: 'Ours' }, headers())).body as { id: string };
    const sibling = await pairedInstance(http, world.customer, '15550379002');
    for (const other of [world.strangerInstance, sibling]) {
      expectErrorBody(await http.post(`/status/${id}/delete`, undefined, headersOf(other)), 404, 'not found');
      expect((await http.get('/status/privacy', headersOf(other))).body).toEqual({ type: 'contacts', list: [], isDefault: true });
    }
    expect((await outboxEntry(id)).content).toEqual({ text: 'Ours', audience: [ANN_JID, BOB_JID, CAROL_JID] });
  });

  describeErrorMatrix('status', ENDPOINTS, () => world);
});
