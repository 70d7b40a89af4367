import { Redis } from 'ioredis';
import { liveStatusKey } from '@app/contracts';
import { testEnv } from './support/environment';
import { eventLog, eventsOfType, eventually } from './support/event-log';
import { createInstance, type CreatedInstance, type Customer } from './support/fixtures';
import type { Http } from './support/http';
import { expectErrorBody } from './support/openapi';
import { useInstanceWorld, type WorldApi } from './support/world-suite';

describe('sessions on the sandbox network', () => {
  let api: WorldApi;
  let http: Http;
  let customer: Customer;
  let redis: Redis;
  useInstanceWorld(
    '1555045',
    (suite) =>
      ({
        api,
        http,
        world: { customer },
      } = suite),
  );
  beforeAll(() => {
    redis = new Redis(testEnv().REDIS_URL);
  });
  afterAll(() => redis?.disconnect());

  const headersOf = (instance: CreatedInstance) => ({ 'X-Api-Key': instance.apiKey, 'X-Instance-Id': instance.id });
  const status = async (instance: CreatedInstance) =>
    (await http.get('/session/status', headersOf(instance))).body as Record<string, unknown>;
  const until = (instance: CreatedInstance, expected: Record<string, unknown>) =>
    eventually(
      () => status(instance),
      (value) => JSON.stringify(value) === JSON.stringify({ ...value, ...expected }),
    );

  async function pairedInstance(): Promise<{ instance: CreatedInstance; deviceId: string }> {
    const instance = await createInstance(http, customer.apiKey);
    const paired = await http.post('/sandbox/pair', { phone: '15550001111' }, headersOf(instance));
    expect(paired.status).toBe(200);
    return { instance, deviceId: (paired.body as { deviceId: string }).deviceId };
  }

  it('pairs by QR: unpaired → QR text and PNG → paired and connected, with logged_in in the event log', async () => {
    const instance = await createInstance(http, customer.apiKey);
    const headers = headersOf(instance);
    expect(await status(instance)).toEqual({ isConnected: false, isLoggedIn: false, deviceId: '' });

    const qr = await http.get('/session/qr/text', headers);
    expect(qr.status).toBe(200);
    expect(qr.body).toEqual({ code: expect.stringMatching(/^2@[A-Za-z0-9+/=]+,[A-Za-z0-9+/=]+,[A-Za-z0-9+/=]+,[A-Za-z0-9+/=]+$/) });
    const png = await http.get('/session/qr', headers);
    expect(png.status).toBe(200);
    expect(png.headers['content-type']).toBe('image/png');
    expect((png.body as Buffer).subarray(0, 8)).toEqual(Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]));
    expect((await http.get(`/account/instances/${instance.id}`, { 'X-Api-Key': customer.apiKey })).body).toMatchObject({
      status: 'pairing',
    });

    const paired = await http.post('/sandbox/pair', {}, headers);
    expect(paired.status).toBe(200);
    const deviceId = (paired.body as { deviceId: string }).deviceId;
    expect(deviceId).toMatch(/^1555\d{7}:\d+@s\.whatsapp\.net$/);
    expect(await until(instance, { isConnected: true })).toEqual({ isConnected: true, isLoggedIn: true, deviceId });
    expect((await http.get(`/account/instances/${instance.id}`, { 'X-Api-Key': customer.apiKey })).body).toMatchObject({
      status: 'connected',
      deviceId,
    });

    expectErrorBody(await http.get('/session/qr/text', headers), 400, 'device already paired');
    expectErrorBody(await http.get('/session/pair-code/15551234567', headers), 400, 'device already paired');
    expectErrorBody(await http.post('/sandbox/pair', {}, headers), 400, 'device already paired');
    const events = await eventually(
      () => eventLog(instance.id),
      (log) => log.length >= 1,
    );
    expect(events).toEqual([{ seq: '1', eventType: 'logged_in', data: { deviceId } }]);
  });

  it('answers an unpaired instance from a copy of its record, and shows pairing and logout as soon as they are announced', async () => {
    const instance = await createInstance(http, customer.apiKey);
    const headers = headersOf(instance);
    const send = () => http.post('/messages/text', { to: '447700900123', message: 'status copy' }, headers);
    expect(await status(instance)).toEqual({ isConnected: false, isLoggedIn: false, deviceId: '' });
    // The worker wrote no live copy for an instance it never opened: the first read copied PostgreSQL's record into
    // Redis, so polling it (and the connection gate) no longer reads PostgreSQL on every request.
    const stored = await eventually(
      () => redis.get(liveStatusKey(api.config.queuePrefix, instance.id)),
      (value) => value !== null,
    );
    const copy = JSON.parse(stored ?? 'null') as Record<string, unknown>;
    expect(copy).toMatchObject({ status: 'unpaired', deviceId: null });
    expect(copy.token).toBeUndefined();
    expectErrorBody(await send(), 403, 'device not paired');

    // The copy never hides a change: right after logged_in is recorded, status and sends see the connected instance.
    const paired = await http.post('/sandbox/pair', {}, headers);
    expect(paired.status).toBe(200);
    const { deviceId } = paired.body as { deviceId: string };
    await eventually(
      () => eventsOfType(instance.id, 'logged_in'),
      (events) => events.length === 1,
    );
    expect(await status(instance)).toEqual({ isConnected: true, isLoggedIn: true, deviceId });
    expect((await send()).status).toBe(201);

    expect((await http.post('/session/logout', undefined, headers)).status).toBe(204);
    await eventually(
      () => eventsOfType(instance.id, 'logged_out'),
      (events) => events.length === 1,
    );
    expect(await status(instance)).toEqual({ isConnected: false, isLoggedIn: false, deviceId: '' });
    expectErrorBody(await send(), 403, 'device not paired');
  });

  it('pairs by phone number with a pair code', async () => {
    const instance = await createInstance(http, customer.apiKey);
    const code = await http.get('/session/pair-code/+15557654321', headersOf(instance));
    expect(code.status).toBe(200);
    expect(code.body).toEqual({ code: expect.stringMatching(/^[A-Z0-9]{4}-[A-Z0-9]{4}$/) });
    const paired = await http.post('/sandbox/pair', {}, headersOf(instance));
    expect((paired.body as { deviceId: string }).deviceId).toMatch(/^15557654321:\d+@s\.whatsapp\.net$/);
    expectErrorBody(
      await http.get('/session/pair-code/12ab', headersOf(instance)),
      400,
      "validation error: phone: remove the letters 'ab'",
    );
  });

  it('goes unavailable (503) while the phone is offline and reconnects when it is back', async () => {
    const { instance, deviceId } = await pairedInstance();
    const headers = headersOf(instance);
    await until(instance, { isConnected: true });
    const flushed = await http.post('/session/flush-history', undefined, headers);
    // A JSON body, as the contract family answers: clients parse it.
    expect({ status: flushed.status, type: flushed.headers['content-type'], body: flushed.body }).toEqual({
      status: 202,
      type: expect.stringContaining('application/json'),
      body: { status: 'ok' },
    });

    expect((await http.post('/sandbox/connection', { state: 'offline' }, headers)).status).toBe(204);
    expect(await until(instance, { isConnected: false })).toEqual({ isConnected: false, isLoggedIn: true, deviceId });
    expectErrorBody(await http.post('/session/flush-history', undefined, headers), 503, 'instance not available');
    expect((await http.get(`/account/instances/${instance.id}`, { 'X-Api-Key': customer.apiKey })).body).toMatchObject({
      status: 'disconnected',
    });

    expect((await http.post('/sandbox/connection', { state: 'online' }, headers)).status).toBe(204);
    expect(await until(instance, { isConnected: true })).toEqual({ isConnected: true, isLoggedIn: true, deviceId });
    expect((await http.post('/session/flush-history', undefined, headers)).status).toBe(202);
  });

  it('treats a logout from the phone as unpaired: 403 device not paired, logged_out in the log', async () => {
    const { instance } = await pairedInstance();
    const headers = headersOf(instance);
    await until(instance, { isConnected: true });
    expect((await http.post('/sandbox/logout', undefined, headers)).status).toBe(204);
    expect(await until(instance, { isLoggedIn: false })).toEqual({ isConnected: false, isLoggedIn: false, deviceId: '' });
    expectErrorBody(await http.post('/session/flush-history', undefined, headers), 403, 'device not paired');
    expectErrorBody(await http.post('/session/logout', undefined, headers), 403, 'device not paired');
    const log = await eventually(
      () => eventLog(instance.id),
      (events) => events.length >= 2,
    );
    expect(log.map((event) => event.eventType)).toEqual(['logged_in', 'logged_out']);
    expect(log[1].data).toEqual({ reason: 'user_logged_out' });
    // It can pair again afterwards.
    expect((await http.get('/session/qr/text', headers)).status).toBe(200);
  });

  it('logs out through the API', async () => {
    const { instance } = await pairedInstance();
    await until(instance, { isConnected: true });
    expect((await http.post('/session/logout', undefined, headersOf(instance))).status).toBe(204);
    expect(await until(instance, { isLoggedIn: false })).toEqual({ isConnected: false, isLoggedIn: false, deviceId: '' });
    const log = await eventually(
      () => eventLog(instance.id),
      (events) => events.length >= 2,
    );
    expect(log.map((event) => [event.eventType, event.data])).toEqual([
      ['logged_in', expect.any(Object)],
      ['logged_out', { reason: 'api_logout' }],
    ]);
  });

  it('shows a sending pause as soon as it is announced, though the status without one was read just before', async () => {
    const { instance, deviceId } = await pairedInstance();
    const headers = headersOf(instance);
    // Read repeatedly, so this API keeps "no pause" in memory; the worker's record must still show at once.
    expect(await until(instance, { isConnected: true })).toEqual({ isConnected: true, isLoggedIn: true, deviceId });
    expect(await status(instance)).toEqual({ isConnected: true, isLoggedIn: true, deviceId });
    expect((await http.put('/sandbox/refusals', { chatId: '447700900777', code: 463 }, headers)).status).toBe(204);
    for (const text of ['one', 'two', 'three']) {
      expect((await http.post('/messages/text', { to: '447700900777', message: text }, headers)).status).toBe(201);
    }
    const [paused] = await eventually(
      () => eventsOfType(instance.id, 'instance_sending'),
      (events) => events.length === 1,
    );
    expect(await status(instance)).toEqual({
      isConnected: true,
      isLoggedIn: true,
      deviceId,
      sending: { state: 'paused', code: 463, refusals: 3, probeAt: (paused.data as { probeAt: string }).probeAt },
    });
  });

  it('restarts a session, which comes back connected', async () => {
    const { instance, deviceId } = await pairedInstance();
    await until(instance, { isConnected: true });
    expect((await http.put('/instance/restart', undefined, headersOf(instance))).status).toBe(204);
    expect((await http.put(`/account/instances/${instance.id}/restart`, undefined, { 'X-Api-Key': customer.apiKey })).status).toBe(204);
    expect(await until(instance, { isConnected: true })).toEqual({ isConnected: true, isLoggedIn: true, deviceId });
  });

  it('logs a paired device out before deleting its instance', async () => {
    const { instance } = await pairedInstance();
    await until(instance, { isConnected: true });
    expect((await http.delete(`/account/instances/${instance.id}`, { 'X-Api-Key': customer.apiKey })).status).toBe(204);
    expectErrorBody(await http.get(`/account/instances/${instance.id}`, { 'X-Api-Key': customer.apiKey }), 404, 'not found');
  });

  it('delivers inbound messages as events and refuses taps on messages never sent', async () => {
    const { instance } = await pairedInstance();
    const headers = headersOf(instance);
    await until(instance, { isConnected: true });
    const inbound = await http.post('/sandbox/inbound', { from: '447700900123', type: 'text', text: 'hello', pushName: 'Ann' }, headers);
    expect(inbound.status).toBe(201);
    const id = (inbound.body as { id: string }).id;
    expect(id).toMatch(/^3EB0[0-9A-F]{18}$/);
    const log = await eventually(
      () => eventLog(instance.id),
      (events) => events.some((event) => event.eventType === 'message'),
    );
    // The push name is not part of a message event: a new or changed one is announced as chat_push_name first.
    expect(log.slice(1).map((event) => [event.eventType, event.data])).toEqual([
      ['chat_push_name', { user: { id: '447700900123@s.whatsapp.net', phone: '447700900123' }, pushName: 'Ann' }],
      [
        'message',
        {
          id,
          time: expect.any(String),
          chatId: '447700900123@s.whatsapp.net',
          sender: { id: '447700900123@s.whatsapp.net', phone: '447700900123', isMe: false },
          isGroup: false,
          isStatus: false,
          type: 'text',
          text: 'hello',
        },
      ],
    ]);
    expectErrorBody(
      await http.post(
        '/sandbox/inbound',
        { from: '447700900123', type: 'button_reply', replyTo: '3EB0000000000000000000', buttonId: 'yes' },
        headers,
      ),
      400,
      'validation error: replyTo 3EB0000000000000000000 is not a message this instance sent',
    );
    expectErrorBody(
      await http.post('/sandbox/inbound', { from: 'nobody', type: 'text', text: 'x' }, headers),
      400,
      'validation error: from must be a user JID or an international number',
    );
    expectErrorBody(await http.post('/sandbox/receipts', { messageId: id, status: 'read' }, headers), 404, 'not found');
  });

  it('keeps contacts and groups, validating them like the network would', async () => {
    const { instance } = await pairedInstance();
    const headers = headersOf(instance);
    const contact = await http.post('/sandbox/contacts', { id: '+447700900555', pushName: 'Bo', lid: '123456789012@lid' }, headers);
    expect(contact.status).toBe(201);
    expect(contact.body).toEqual({ id: '447700900555@s.whatsapp.net' });
    const group = await http.post(
      '/sandbox/groups',
      { name: 'Team', participants: ['447700900555', '447700900556'], admins: ['447700900555'], selfIsAdmin: true },
      headers,
    );
    expect(group.status).toBe(201);
    expect((group.body as { id: string }).id).toMatch(/^\d+@g\.us$/);
    const community = await http.post(
      '/sandbox/groups',
      { name: 'Hub', participants: ['447700900555'], admins: [], selfIsAdmin: false, community: true },
      headers,
    );
    expect(community.status).toBe(201);
    expectErrorBody(
      await http.post(
        '/sandbox/groups',
        { name: 'Bad', participants: ['447700900555'], admins: ['447700900999'], selfIsAdmin: true },
        headers,
      ),
      400,
      'validation error: admins must be participants: 447700900999@s.whatsapp.net is not',
    );
    expectErrorBody(
      await http.post('/sandbox/contacts', { id: '123@g.us' }, headers),
      400,
      'validation error: id must be a user JID or an international number',
    );
    expectErrorBody(
      await http.post('/sandbox/connection', { state: 'sideways' }, headers),
      400,
      'validation error: state must be offline or online',
    );
    expect((await http.get('/sandbox/outbox', headers)).body).toEqual([]);
  });

  it('answers 404 on the sandbox surface for a real-network instance, and 503 for its QR', async () => {
    const real = await createInstance(http, customer.apiKey, { name: 'real', sandbox: false });
    expectErrorBody(await http.post('/sandbox/pair', {}, headersOf(real)), 404, 'not found');
    expectErrorBody(await http.get('/sandbox/outbox', headersOf(real)), 404, 'not found');
    expectErrorBody(await http.get('/session/qr/text', headersOf(real)), 503, 'instance not available');
  });
});
