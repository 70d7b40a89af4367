import request from 'supertest';
import { placeholderMediaBytes } from '@app/messaging';
import { describeErrorMatrix, type MatrixEndpoint } from './support/endpoint-matrix';
import { eventLog, eventually, type LoggedEvent } from './support/event-log';
import type { Headers, Http } from './support/http';
import { headersOf, type InstanceWorld } from './support/instance-world';
import { expectErrorBody } from './support/openapi';
import { useInstanceWorld, type WorldApi } from './support/world-suite';

const CALLER = '447700903701';
const CALLER_JID = `${CALLER}@s.whatsapp.net`;
const CALLER_LID = '900000003701@lid';
const OTHER_JID = '447700903702@s.whatsapp.net';
const UNKNOWN_CALL = '0123456789ABCDEF0123456789ABCDEF';
const CALLER_RULE = 'validation error: callerId must be a user JID, a LID or an international number';

const ENDPOINTS: MatrixEndpoint[] = [
  {
    method: 'post',
    route: '/calls/{callId}/reject',
    path: `/calls/${UNKNOWN_CALL}/reject`,
    body: { callerId: CALLER_JID },
    invalid: [
      { label: 'callerId missing', body: {}, detail: 'validation error: callerId is required' },
      { label: 'callerId not a person', body: { callerId: 'somebody' }, detail: CALLER_RULE },
      { label: 'a group as the caller', body: { callerId: '120363000000000001@g.us' }, detail: CALLER_RULE },
      { label: 'callerId as a number', body: { callerId: 447700903701 }, detail: 'invalid request body' },
    ],
    badPaths: [{ path: '/calls/not-a-call/reject', detail: 'validation error: callId must be the hexadecimal id of a call event' }],
  },
  {
    method: 'get',
    route: '/media/download',
    path: '/media/download?id=AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA',
    badPaths: [
      { path: '/media/download', detail: 'validation error: id is required' },
      { path: '/media/download?id=', detail: 'validation error: id must be the media.id of a received message' },
      { path: '/media/download?id=a%20b', detail: 'validation error: id must be the media.id of a received message' },
      { path: '/media/download?id=abc&name=x', detail: 'validation error: property name should not exist' },
    ],
  },
];

/** A download as raw bytes, whatever the content type. */
async function download(baseUrl: string, id: string, headers: Headers) {
  return request(baseUrl)
    .get(`/media/download?id=${encodeURIComponent(id)}`)
    .set(headers)
    .buffer(true)
    .parse((response, done) => {
      const chunks: Buffer[] = [];
      response.on('data', (chunk: Buffer) => chunks.push(chunk));
      response.on('end', () => done(null, Buffer.concat(chunks)));
    });
}

describe('calls and media', () => {
  let api: WorldApi;
  let http: Http;
  let world: InstanceWorld;
  useInstanceWorld('1555936', (suite) => ({ api, http, world } = suite));

  beforeAll(async () => {
    expect(
      (await http.post('/sandbox/contacts', { id: CALLER, fullName: 'Cal', lid: CALLER_LID }, headersOf(world.connected))).status,
    ).toBe(201);
  });

  describeErrorMatrix('calls and media', ENDPOINTS, () => world);

  const headers = () => headersOf(world.connected);
  const operationsNamed = async (name: string) =>
    (await world.operations(world.connected)).filter((operation) => operation.name === name).map((operation) => operation.args);
  const eventsOf = async (type: string, id: string, count = 1): Promise<LoggedEvent[]> => {
    const log = await eventually(
      () => eventLog(world.connected.id),
      (events) => events.filter((event) => event.eventType === type && event.data.id === id).length >= count,
    );
    return log.filter((event) => event.eventType === type && event.data.id === id);
  };
  const offer = async (from = CALLER, target = world.connected): Promise<string> => {
    const response = await http.post('/sandbox/calls', { from }, headersOf(target));
    expect(response.status).toBe(201);
    return (response.body as { id: string }).id;
  };

  describe('rejecting calls', () => {
    it('declines a ringing call: call_terminate with reason rejected; a second reject finds no call', async () => {
      const callId = await offer();
      await eventsOf('call_offer', callId);
      const rejected = await http.post(`/calls/${callId}/reject`, { callerId: CALLER_JID }, headers());
      expect(rejected.status).toBe(204);
      expect(rejected.body).toEqual({});
      const [terminated] = await eventsOf('call_terminate', callId);
      expect(terminated.data).toEqual({
        id: callId,
        caller: { id: CALLER_JID, lid: CALLER_LID, phone: CALLER },
        time: terminated.data.time,
        reason: 'rejected',
      });
      expect(await operationsNamed('calls.reject')).toEqual([{ callId, callerId: CALLER_JID }]);

      expectErrorBody(await http.post(`/calls/${callId}/reject`, { callerId: CALLER_JID }, headers()), 404, 'not found');
      expect(await operationsNamed('calls.reject')).toHaveLength(1);
    });

    it('takes the caller as a bare number or as the LID the call event named, and the call id in any case', async () => {
      const first = await offer();
      expect((await http.post(`/calls/${first}/reject`, { callerId: CALLER }, headers())).status).toBe(204);
      const second = await offer();
      expect((await http.post(`/calls/${second.toLowerCase()}/reject`, { callerId: CALLER_LID }, headers())).status).toBe(204);
      expect((await eventsOf('call_terminate', second))[0].data.reason).toBe('rejected');
      expect((await operationsNamed('calls.reject')).slice(-2)).toEqual([
        { callId: first, callerId: CALLER_JID },
        { callId: second, callerId: CALLER_LID },
      ]);
    });

    it('answers 404 for an unknown call, a call from someone else, and a call that ended', async () => {
      const before = await operationsNamed('calls.reject');
      expectErrorBody(await http.post(`/calls/${UNKNOWN_CALL}/reject`, { callerId: CALLER_JID }, headers()), 404, 'not found');

      const ringing = await offer();
      expectErrorBody(await http.post(`/calls/${ringing}/reject`, { callerId: OTHER_JID }, headers()), 404, 'not found');
      // Still ringing: the right caller's call can be declined.
      expect((await http.post(`/calls/${ringing}/reject`, { callerId: CALLER_JID }, headers())).status).toBe(204);

      const ended = await offer();
      expect((await http.post(`/sandbox/calls/${ended}/end`, { reason: 'ended' }, headers())).status).toBe(204);
      expectErrorBody(await http.post(`/calls/${ended}/reject`, { callerId: CALLER_JID }, headers()), 404, 'not found');
      expect(await operationsNamed('calls.reject')).toEqual([...before, { callId: ringing, callerId: CALLER_JID }]);
    });

    it('refuses an answered call with 400: only a ringing call can be declined', async () => {
      const callId = await offer();
      expect((await http.post(`/sandbox/calls/${callId}/accept`, undefined, headers())).status).toBe(204);
      const before = await operationsNamed('calls.reject');
      expectErrorBody(
        await http.post(`/calls/${callId}/reject`, { callerId: CALLER_JID }, headers()),
        400,
        `validation error: call ${callId} was already accepted; only a ringing call can be rejected`,
      );
      expect(await operationsNamed('calls.reject')).toEqual(before);
      expect(
        (await eventLog(world.connected.id)).filter((event) => event.eventType === 'call_terminate' && event.data.id === callId),
      ).toEqual([]);
    });

    it("cannot reject another customer's call", async () => {
      const theirs = await offer(CALLER, world.strangerInstance);
      expectErrorBody(await http.post(`/calls/${theirs}/reject`, { callerId: CALLER_JID }, headers()), 404, 'not found');
      expectErrorBody(
        await http.post(
          `/calls/${theirs}/reject`,
          { callerId: CALLER_JID },
          { 'X-Api-Key': world.customer.apiKey, 'X-Instance-Id': world.strangerInstance.id },
        ),
        401,
        'unauthorized',
      );
      expect((await http.post(`/calls/${theirs}/reject`, { callerId: CALLER_JID }, headersOf(world.strangerInstance))).status).toBe(204);
    });
  });

  describe('downloading media', () => {
    const receive = async (media: Record<string, unknown>, target = world.connected): Promise<Record<string, unknown>> => {
      const sent = await http.post('/sandbox/inbound', { from: CALLER, type: 'media', media }, headersOf(target));
      expect(sent.status).toBe(201);
      const messageId = (sent.body as { id: string }).id;
      const log = await eventually(
        () => eventLog(target.id),
        (events) => events.some((event) => event.eventType === 'message' && event.data.id === messageId),
      );
      return log.find((event) => event.eventType === 'message' && event.data.id === messageId)?.data.media as Record<string, unknown>;
    };

    it('answers exactly the bytes the contact sent, with their content type', async () => {
      const bytes = Buffer.from([0xff, 0xd8, 0xff, 0xe0, 0x00, 0x01, 0x02, 0x03, 0xfe, 0x00, 0x7f]);
      const media = await receive({ mediaType: 'image', data: bytes.toString('base64'), caption: 'snap' });
      expect(media).toEqual({ mediaType: 'image', mimeType: 'image/jpeg', id: media.id, fileLength: bytes.length, caption: 'snap' });
      const response = await download(api.url, media.id as string, headers());
      expect(response.status).toBe(200);
      expect(response.headers['content-type']).toBe('image/jpeg');
      expect(response.headers['content-length']).toBe(String(bytes.length));
      expect(response.headers['content-disposition']).toMatch(/^attachment; filename="/);
      expect(Buffer.compare(response.body as Buffer, bytes)).toBe(0);
      expect((await operationsNamed('media.download')).at(-1)).toEqual({ mediaId: media.id });
    });

    it('names a document by its file name', async () => {
      const bytes = Buffer.from('%PDF-1.7 a tiny document');
      const media = await receive({ mediaType: 'document', data: bytes.toString('base64'), filename: 'report.pdf' });
      const response = await download(api.url, media.id as string, headers());
      expect(response.status).toBe(200);
      expect(response.headers['content-type']).toBe('application/pdf');
      expect(response.headers['content-disposition']).toBe(`attachment; filename="report.pdf"; filename*=UTF-8''report.pdf`);
      expect(Buffer.compare(response.body as Buffer, bytes)).toBe(0);
    });

    it('serves stand-in bytes of the announced length when the contact sent no bytes', async () => {
      const media = await receive({ mediaType: 'audio', mimeType: 'audio/mp4', fileLength: 3000 });
      const response = await download(api.url, media.id as string, headers());
      expect(response.status).toBe(200);
      expect(response.headers['content-type']).toBe('audio/mp4');
      expect(Buffer.compare(response.body as Buffer, placeholderMediaBytes(media.id as string, 3000))).toBe(0);
    });

    it('refuses sandbox bytes that disagree with the announced length, or are not base64', async () => {
      expectErrorBody(
        await http.post(
          '/sandbox/inbound',
          { from: CALLER, type: 'media', media: { mediaType: 'image', data: 'AAAA', fileLength: 10 } },
          headers(),
        ),
        400,
        'validation error: media.fileLength must equal the size of media.data (3 bytes)',
      );
      expectErrorBody(
        await http.post('/sandbox/inbound', { from: CALLER, type: 'media', media: { mediaType: 'image', data: '***' } }, headers()),
        400,
        'validation error: media.data must be base64 (at least one byte)',
      );
    });

    it('answers 404 for an id no message carried', async () => {
      const before = await operationsNamed('media.download');
      expectErrorBody(await http.get('/media/download?id=AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA', headers()), 404, 'not found');
      expect(await operationsNamed('media.download')).toEqual(before);
    });

    it("answers 404 for a file another customer's instance received", async () => {
      const theirs = await receive(
        { mediaType: 'image', data: Buffer.from([0xff, 0xd8, 0xff]).toString('base64') },
        world.strangerInstance,
      );
      expectErrorBody(await http.get(`/media/download?id=${theirs.id as string}`, headers()), 404, 'not found');
      const own = await download(api.url, theirs.id as string, headersOf(world.strangerInstance));
      expect(own.status).toBe(200);
      expect(Buffer.compare(own.body as Buffer, Buffer.from([0xff, 0xd8, 0xff]))).toBe(0);
    });
  });
});
