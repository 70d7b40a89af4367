import { issueApiKey } from '@app/security';
import { Client } from 'pg';
import { testEnv } from './support/environment';
import { eventLog, eventually } from './support/event-log';
import type { CreatedInstance, Customer } from './support/fixtures';
import type { Headers, Http } from './support/http';
import { headersOf } from './support/instance-world';
import { expectErrorBody } from './support/openapi';
import { useInstanceWorld } from './support/world-suite';

/**
 * The error matrix of every message endpoint: 400, 401, 403/409 (device not paired), 503, and for the operations on a
 * message id the product's answers for unknown and foreign messages. One valid body per endpoint (proved valid by a
 * positive control), then the same table is run through each error state.
 */

const PREFIX = '1555043';
const TO = '447700900123';
/** The phones the world pairs its offline, refused and connected instances to. */
const OFFLINE_PHONE = `${PREFIX}0002`;
const REFUSED_PHONE = `${PREFIX}0003`;
const OPS_PHONE = `${PREFIX}0004`;
/** Well formed (`3EB0` + 18 hex digits) but never sent by anyone. */
const UNKNOWN_ID = `3EB0${'A'.repeat(18)}`;
const PNG = 'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk+M9QDwADhgGAWjR9awAAAABJRU5ErkJggg==';
const BYTES = Buffer.from('not really media, but bytes').toString('base64');
const MESSAGE_ID = /^3EB0[0-9A-F]{18}$/;

type Body = Record<string, unknown>;

interface Endpoint {
  /** As the OpenAPI document names the route. */
  route: string;
  path: (messageId: string) => string;
  valid: Body;
  /** The field every invalid variant breaks: `to`, or `chatId` for operations that identify a message by chat. */
  required: 'to' | 'chatId';
  whenUnpaired: 403 | 409;
  success: 200 | 201 | 204;
  /** For the positive control: which message the operation targets on the connected instance. */
  target?: 'own' | 'inbound';
}

const send = (kind: string, valid: Body, whenUnpaired: 403 | 409 = 403): Endpoint => ({
  route: `/messages/${kind}`,
  path: () => `/messages/${kind}`,
  valid,
  required: 'to',
  whenUnpaired,
  success: 201,
});

const operation = (name: string, valid: Body, success: 200 | 204, target: 'own' | 'inbound'): Endpoint => ({
  route: `/messages/{messageId}/${name}`,
  path: (messageId) => `/messages/${messageId}/${name}`,
  valid,
  required: 'to' in valid ? 'to' : 'chatId',
  whenUnpaired: 403,
  success,
  target,
});

const ENDPOINTS: Endpoint[] = [
  send('text', { to: TO, message: 'hello' }),
  send('buttons', { to: TO, text: 'Confirm?', buttons: [{ id: 'yes', text: 'Yes' }] }, 409),
  send('list', { to: TO, text: 'Pick', buttonText: 'Slots', sections: [{ rows: [{ id: 'r1', title: '9:00' }] }] }, 409),
  send('image', { to: TO, data: PNG, mimeType: 'image/png', caption: 'pixel' }),
  send('video', { to: TO, data: BYTES, mimeType: 'video/mp4' }),
  send('audio', { to: TO, data: BYTES, mimeType: 'audio/mpeg' }),
  send('voice', { to: TO, data: BYTES }),
  send('document', { to: TO, data: BYTES, filename: 'notes.txt', mimeType: 'text/plain' }),
  send('sticker', { to: TO, data: BYTES }),
  send('contact', { to: TO, displayName: 'Ann' }),
  send('location', { to: TO, latitude: 51.5, longitude: -0.12, name: 'London' }),
  send('link', { to: TO, text: 'See https://example.com', url: 'https://example.com' }),
  operation('edit', { to: TO, text: 'fixed' }, 200, 'own'),
  operation('delete', { chatId: TO, senderId: OPS_PHONE }, 204, 'own'),
  operation('reaction', { to: TO, reaction: '👍' }, 200, 'own'),
  operation('delete-for-me', { chatId: TO, isFromMe: true }, 204, 'own'),
  operation('read', { chatId: TO, senderId: TO, receiptType: 'read' }, 204, 'inbound'),
  operation('star', { chatId: TO, senderId: TO }, 204, 'inbound'),
  operation('pin', { chatId: TO, senderId: TO, pinExpiration: '24h' }, 204, 'inbound'),
];
const OPERATIONS = ENDPOINTS.filter((endpoint) => endpoint.target !== undefined);

/** The valid body without its required chat field. */
const missingRequired = (endpoint: Endpoint): Body => {
  const body = { ...endpoint.valid };
  delete body[endpoint.required];
  return body;
};

describe('message endpoints: error matrix', () => {
  let http: Http;
  let db: Client;
  let customer: Customer;
  let stranger: Customer;
  /** Never paired. */
  let unpaired: CreatedInstance;
  /** Paired, then logged out from the phone. */
  let loggedOut: CreatedInstance;
  /** Connected, and only ever sent requests that must be refused: nothing may be stored or sent for it. */
  let connected: CreatedInstance;
  /** Paired, link offline. */
  let offline: CreatedInstance;
  /** Connected, used for accepted requests (positive control, operations on unknown or foreign messages). */
  let ops: CreatedInstance;
  let ownMessageId: string;
  let inboundMessageId: string;
  useInstanceWorld(PREFIX, ({ http: client, world }) => {
    http = client;
    ({ customer, stranger, unpaired, loggedOut, offline } = world);
    connected = world.refused;
    ops = world.connected;
  });

  const post = (endpoint: Endpoint, body: unknown, headers: Headers, messageId = UNKNOWN_ID) =>
    http.post(endpoint.path(messageId), body, headers);

  async function storedMessages(instance: CreatedInstance): Promise<number> {
    const result = await db.query<{ n: number }>('SELECT count(*)::int AS n FROM messages WHERE instance_id = $1', [instance.id]);
    return result.rows[0].n;
  }

  const outbox = async (instance: CreatedInstance) => {
    const response = await http.get('/sandbox/outbox', headersOf(instance));
    expect(response.status).toBe(200);
    return response.body as { id: string; type: string; content: Body }[];
  };

  /** A refused request stores nothing (the accept is durable before the answer) and the network receives nothing. */
  async function expectNothingSent(instance: CreatedInstance): Promise<void> {
    expect(await storedMessages(instance)).toBe(0);
    expect(await outbox(instance)).toEqual([]);
  }

  beforeAll(async () => {
    db = new Client({ connectionString: testEnv().DATABASE_URL });
    await db.connect();
    const own = await http.post('/messages/text', { to: TO, message: 'mine' }, headersOf(ops));
    expect(own.status).toBe(201);
    ownMessageId = (own.body as { id: string }).id;
    const inbound = await http.post('/sandbox/inbound', { from: TO, type: 'text', text: 'theirs' }, headersOf(ops));
    expect(inbound.status).toBe(201);
    inboundMessageId = (inbound.body as { id: string }).id;
    // Operations on the own message must find it on the network, so let it arrive first.
    await eventually(
      () => outbox(ops),
      (entries) => entries.some((entry) => entry.id === ownMessageId),
    );
  });

  afterAll(async () => {
    await db?.end();
  });

  describe('positive control: every valid body is accepted on a connected instance', () => {
    it.each(ENDPOINTS)('POST $route answers $success', async (endpoint) => {
      const messageId = endpoint.target === 'inbound' ? inboundMessageId : ownMessageId;
      const response = await post(endpoint, endpoint.valid, headersOf(ops), messageId);
      expect(response.status).toBe(endpoint.success);
      if (endpoint.success === 204) expect(response.body).toEqual({});
      else expect(response.body).toEqual({ id: expect.stringMatching(MESSAGE_ID) });
    });
  });

  describe('400: nothing is stored or sent', () => {
    it.each(ENDPOINTS)('POST $route without $required: validation error naming the field', async (endpoint) => {
      expectErrorBody(
        await post(endpoint, missingRequired(endpoint), headersOf(connected)),
        400,
        `validation error: ${endpoint.required} is required`,
      );
      await expectNothingSent(connected);
    });

    it.each(ENDPOINTS)('POST $route with a number as $required: invalid request body', async (endpoint) => {
      expectErrorBody(
        await post(endpoint, { ...endpoint.valid, [endpoint.required]: 447700900123 }, headersOf(connected)),
        400,
        'invalid request body',
      );
      await expectNothingSent(connected);
    });

    it.each(ENDPOINTS)('POST $route with an unknown field: validation error naming it', async (endpoint) => {
      expectErrorBody(
        await post(endpoint, { ...endpoint.valid, bogus: 1 }, headersOf(connected)),
        400,
        'validation error: property bogus should not exist',
      );
      await expectNothingSent(connected);
    });

    it.each(ENDPOINTS)('POST $route without X-Instance-Id: missing X-Instance-Id header', async (endpoint) => {
      expectErrorBody(await post(endpoint, endpoint.valid, { 'X-Api-Key': connected.apiKey }), 400, 'missing X-Instance-Id header');
      await expectNothingSent(connected);
    });

    it.each(OPERATIONS)('POST $route with a malformed message id: validation error naming messageId', async (endpoint) => {
      expectErrorBody(
        await post(endpoint, endpoint.valid, headersOf(connected), 'A'.repeat(129)),
        400,
        'validation error: messageId must be a message id (letters, digits, ".", "_" or "-", at most 128)',
      );
      await expectNothingSent(connected);
    });
  });

  describe('401 unauthorized', () => {
    const credentials: [string, () => Headers][] = [
      ['no X-Api-Key', () => ({ 'X-Instance-Id': connected.id })],
      ['neither header', () => ({})],
      ['an unknown customer key', () => ({ 'X-Api-Key': issueApiKey('customer').key, 'X-Instance-Id': connected.id })],
      ['an unknown instance key', () => ({ 'X-Api-Key': issueApiKey('instance').key, 'X-Instance-Id': connected.id })],
      ['a malformed key', () => ({ 'X-Api-Key': 'not-a-key', 'X-Instance-Id': connected.id })],
      // The decisions record: a key "not valid for that instance" is 401, not 403.
      ["another instance's key (same customer)", () => ({ 'X-Api-Key': ops.apiKey, 'X-Instance-Id': connected.id })],
      ["another customer's key", () => ({ 'X-Api-Key': stranger.apiKey, 'X-Instance-Id': connected.id })],
    ];
    const cases = ENDPOINTS.flatMap((endpoint) => credentials.map(([label, headers]) => ({ ...endpoint, label, headers })));

    it.each(cases)('POST $route with $label', async (endpoint) => {
      expectErrorBody(await post(endpoint, endpoint.valid, endpoint.headers()), 401, 'unauthorized');
      await expectNothingSent(connected);
    });

    it('uses keys that are valid where they belong: the 401s are about the key/instance pairing', async () => {
      const headers = { 'X-Api-Key': customer.apiKey, 'X-Instance-Id': ops.id };
      expect((await http.post('/messages/text', { to: TO, message: 'via customer key' }, headers)).status).toBe(201);
      expect((await http.get('/account/instances', { 'X-Api-Key': stranger.apiKey })).status).toBe(200);
      expect((await http.get('/session/status', headersOf(ops))).status).toBe(200);
    });
  });

  describe('403 / 409 device not paired', () => {
    const cases = ENDPOINTS.flatMap((endpoint) => [
      { ...endpoint, state: 'never paired', instance: () => unpaired },
      { ...endpoint, state: 'logged out', instance: () => loggedOut },
    ]);

    it.each(cases)('POST $route on a $state instance: $whenUnpaired device not paired', async (endpoint) => {
      const instance = endpoint.instance();
      expectErrorBody(await post(endpoint, endpoint.valid, headersOf(instance)), endpoint.whenUnpaired, 'device not paired');
      await expectNothingSent(instance);
    });
  });

  describe('503 instance not available', () => {
    it('keeps the offline instance paired but not connected', async () => {
      expect((await http.get('/session/status', headersOf(offline))).body).toEqual({
        isConnected: false,
        isLoggedIn: true,
        deviceId: expect.stringMatching(new RegExp(`^${OFFLINE_PHONE}:\\d+@s\\.whatsapp\\.net$`)),
      });
    });

    it.each(ENDPOINTS)('POST $route on an instance whose link is offline', async (endpoint) => {
      expectErrorBody(await post(endpoint, endpoint.valid, headersOf(offline)), 503, 'instance not available');
      await expectNothingSent(offline);
    });
  });

  describe('precedence: authentication, then instance state, then the body', () => {
    it.each(ENDPOINTS)('POST $route unauthenticated and invalid: 401', async (endpoint) => {
      expectErrorBody(await post(endpoint, missingRequired(endpoint), { 'X-Instance-Id': connected.id }), 401, 'unauthorized');
      await expectNothingSent(connected);
    });

    it.each(ENDPOINTS)('POST $route with a wrongly typed body and no key: 401', async (endpoint) => {
      expectErrorBody(
        await post(endpoint, { ...endpoint.valid, [endpoint.required]: 1 }, { 'X-Instance-Id': connected.id }),
        401,
        'unauthorized',
      );
    });

    it.each(ENDPOINTS)('POST $route invalid on a never-paired instance: $whenUnpaired device not paired, not 400', async (endpoint) => {
      expectErrorBody(await post(endpoint, missingRequired(endpoint), headersOf(unpaired)), endpoint.whenUnpaired, 'device not paired');
      await expectNothingSent(unpaired);
    });

    it.each(ENDPOINTS)('POST $route invalid on an offline instance: 503, not 400', async (endpoint) => {
      expectErrorBody(await post(endpoint, missingRequired(endpoint), headersOf(offline)), 503, 'instance not available');
      await expectNothingSent(offline);
    });

    it.each(ENDPOINTS)('POST $route with malformed JSON and no key: 401, the body is never parsed', async (endpoint) => {
      expectErrorBody(
        await http.raw('post', endpoint.path(UNKNOWN_ID), '{"to":', { 'Content-Type': 'application/json', 'X-Instance-Id': connected.id }),
        401,
        'unauthorized',
      );
      await expectNothingSent(connected);
    });
  });

  describe('operations on a message id', () => {
    const UNKNOWN_CHAT = '447700900999';

    it('edit and delete of an unknown message: 404 not found', async () => {
      const edit = OPERATIONS.find((endpoint) => endpoint.route.endsWith('/edit')) as Endpoint;
      const del = OPERATIONS.find((endpoint) => endpoint.route.endsWith('/delete')) as Endpoint;
      expectErrorBody(await post(edit, { to: UNKNOWN_CHAT, text: 'x' }, headersOf(ops)), 404, 'not found');
      expectErrorBody(await post(del, { chatId: UNKNOWN_CHAT, senderId: OPS_PHONE }, headersOf(ops)), 404, 'not found');
    });

    it('reaction, delete-for-me, read, star and pin of an unknown message are accepted, then fail as sends (no 404)', async () => {
      const others = OPERATIONS.filter((endpoint) => !/\/(edit|delete)$/.test(endpoint.route));
      expect(others.map((endpoint) => endpoint.route.split('/').pop())).toEqual(['reaction', 'delete-for-me', 'read', 'star', 'pin']);
      const accepted: string[] = [];
      for (const endpoint of others) {
        const field = endpoint.required;
        const response = await post(endpoint, { ...endpoint.valid, [field]: UNKNOWN_CHAT }, headersOf(ops));
        expect([endpoint.route, response.status]).toEqual([endpoint.route, endpoint.success]);
        if (endpoint.success === 200) accepted.push((response.body as { id: string }).id);
      }
      expect(accepted).toEqual([expect.stringMatching(MESSAGE_ID)]);
      const failedHere = (events: Awaited<ReturnType<typeof eventLog>>) =>
        events.filter(
          (event) =>
            event.eventType === 'message_status' &&
            event.data.status === 'failed' &&
            event.data.chatId === `${UNKNOWN_CHAT}@s.whatsapp.net`,
        );
      const log = await eventually(
        () => eventLog(ops.id),
        (events) => failedHere(events).length === others.length,
      );
      expect(failedHere(log).map((event) => event.data.error)).toEqual(
        others.map(() => `message ${UNKNOWN_ID} is unknown to the network in ${UNKNOWN_CHAT}@s.whatsapp.net`),
      );
      expect(failedHere(log).map((event) => event.data.id)).toContain(accepted[0]);
    });

    it('edit and delete of a message the caller did not send (inbound): 403 forbidden', async () => {
      const inbound = await http.post('/sandbox/inbound', { from: TO, type: 'text', text: 'not yours' }, headersOf(ops));
      expect(inbound.status).toBe(201);
      const theirs = (inbound.body as { id: string }).id;
      await eventually(
        () => eventLog(ops.id),
        (events) => events.some((event) => event.eventType === 'message' && event.data.id === theirs),
      );
      const before = await storedMessages(ops);
      expectErrorBody(
        await http.post(`/messages/${theirs}/edit`, { to: TO, text: 'mine now' }, headersOf(ops)),
        403,
        'forbidden: only messages this instance sent can be edited',
      );
      expectErrorBody(
        await http.post(`/messages/${theirs}/delete`, { chatId: TO, senderId: TO }, headersOf(ops)),
        403,
        'forbidden: only messages this instance sent can be deleted for everyone',
      );
      // Claiming to be the sender does not help.
      expectErrorBody(
        await http.post(`/messages/${theirs}/delete`, { chatId: TO, senderId: OPS_PHONE }, headersOf(ops)),
        403,
        'forbidden: only messages this instance sent can be deleted for everyone',
      );
      expect(await storedMessages(ops)).toBe(before);
    });

    it("edit and delete of another instance's message (same customer): not found there, nothing sent", async () => {
      expectErrorBody(
        await http.post(`/messages/${ownMessageId}/edit`, { to: TO, text: 'hijack' }, headersOf(connected)),
        404,
        'not found',
      );
      expectErrorBody(
        await http.post(`/messages/${ownMessageId}/delete`, { chatId: TO, senderId: REFUSED_PHONE }, headersOf(connected)),
        404,
        'not found',
      );
      await expectNothingSent(connected);
    });
  });

  it('leaves the networks of every refused instance untouched, up to a send accepted after all the refusals', async () => {
    // Without a stored message there is nothing to send; and a connected instance's sends reach the network in the order
    // they were accepted, so once a later send has arrived, nothing refused before it can still come.
    for (const instance of [unpaired, loggedOut, offline]) await expectNothingSent(instance);
    const barrier = await http.post('/messages/text', { to: TO, message: 'after every refusal' }, headersOf(connected));
    expect(barrier.status).toBe(201);
    const { id } = barrier.body as { id: string };
    const arrived = await eventually(
      () => outbox(connected),
      (entries) => entries.some((entry) => entry.id === id),
    );
    expect(arrived.map((entry) => entry.content.text)).toEqual(['after every refusal']);
    expect(await storedMessages(connected)).toBe(1);
  });
});
