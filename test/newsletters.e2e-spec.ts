import { startApi, type RunningApi } from './support/api-harness';
import { describeErrorMatrix, type MatrixEndpoint } from './support/endpoint-matrix';
import { eventLog } from './support/event-log';
import { Http } from './support/http';
import { createInstanceWorld, headersOf, pairedInstance, type InstanceWorld } from './support/instance-world';
import { expectErrorBody, useServedOpenApi } from './support/openapi';
import { spawnApp, type AppProcess } from './support/processes';

const CHANNEL = '120363000000000001@newsletter';
const ISO = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/;
const NEWSLETTER_JID = /^\d+@newsletter$/;
const INVITE = /^0029Va[A-Za-z0-9]{18}$/;
const BAD_ID = 'validation error: id must be a channel JID (<digits>@newsletter)';
const PICTURE = Buffer.from('fake jpeg bytes').toString('base64');

const ENDPOINTS: MatrixEndpoint[] = [
  { method: 'get', route: '/newsletters', path: '/newsletters' },
  {
    method: 'post',
    route: '/newsletters',
    path: '/newsletters',
    body: { name: 'Release notes' },
    invalid: [
      { label: 'name missing', body: {}, detail: 'validation error: name is required' },
      { label: 'name blank', body: { name: '  ' }, detail: 'validation error: name must not be empty' },
      { label: 'name too long', body: { name: 'x'.repeat(101) }, detail: 'validation error: name must be at most 100 characters' },
      { label: 'name as a number', body: { name: 5 }, detail: 'invalid request body' },
      {
        label: 'description too long',
        body: { name: 'n', description: 'd'.repeat(2049) },
        detail: 'validation error: description must be at most 2048 characters',
      },
      {
        label: 'picture not base64',
        body: { name: 'n', picture: 'not base64!' },
        detail: 'validation error: picture must be valid base64',
      },
    ],
  },
  {
    method: 'get',
    route: '/newsletters/invite/{code}',
    path: '/newsletters/invite/0029VaAbCdEfGhIjKlMnOpQrSt',
    badPaths: [
      { path: '/newsletters/invite/bad_code', detail: 'validation error: code must be a channel invite code (letters and digits)' },
    ],
  },
  {
    method: 'get',
    route: '/newsletters/{id}',
    path: `/newsletters/${CHANNEL}`,
    badPaths: [
      { path: '/newsletters/12345', detail: BAD_ID },
      { path: '/newsletters/abc@newsletter', detail: BAD_ID },
      { path: '/newsletters/12345@g.us', detail: BAD_ID },
    ],
  },
  {
    method: 'put',
    route: '/newsletters/{id}/subscription',
    path: `/newsletters/${CHANNEL}/subscription`,
    body: { subscribed: true },
    invalid: [
      { label: 'subscribed missing', body: {}, detail: 'validation error: subscribed is required' },
      { label: 'subscribed as text', body: { subscribed: 'yes' }, detail: 'invalid request body' },
    ],
    badPaths: [{ path: '/newsletters/x@newsletter/subscription', detail: BAD_ID }],
  },
  {
    method: 'put',
    route: '/newsletters/{id}/mute',
    path: `/newsletters/${CHANNEL}/mute`,
    body: { mute: true },
    invalid: [
      { label: 'mute missing', body: {}, detail: 'validation error: mute is required' },
      { label: 'mute as a number', body: { mute: 1 }, detail: 'invalid request body' },
    ],
    badPaths: [{ path: '/newsletters/1@s.whatsapp.net/mute', detail: BAD_ID }],
  },
];

describe('newsletters', () => {
  let api: RunningApi;
  let worker: AppProcess;
  let http: Http;
  let world: InstanceWorld;

  beforeAll(async () => {
    [api, worker] = await Promise.all([startApi(), spawnApp('worker')]);
    http = new Http(api.url);
    await useServedOpenApi(api.url);
    world = await createInstanceWorld(http, '1555037');
  });

  afterAll(async () => {
    await Promise.all([api?.close(), worker?.stop()]);
  });

  const headers = () => headersOf(world.connected);
  const newsletterEvents = async () =>
    (await eventLog(world.connected.id)).filter((event) => event.eventType === 'newsletter').map((event) => event.data);
  const journal = async (prefix: string) =>
    (await world.operations(world.connected))
      .filter((operation) => operation.name.startsWith(prefix))
      .map(({ name, args }) => ({ name, args }));
  const publish = async (body: Record<string, unknown>) => {
    const response = await http.post('/sandbox/channels', body, headers());
    expect(response.status).toBe(201);
    return response.body as { id: string; inviteCode: string };
  };

  describe('own channels', () => {
    let own: string;
    let createdAt: string;
    let inviteCode: string;

    beforeAll(async () => {
      const created = await http.post('/newsletters', { name: 'Release notes', description: 'What changed', picture: PICTURE }, headers());
      expect(created.status).toBe(201);
      expect(Object.keys(created.body as object)).toEqual(['id']);
      own = (created.body as { id: string }).id;
    });

    it('creates a channel this account owns, with a join event as OWNER, and the network carried it out', async () => {
      expect(own).toMatch(NEWSLETTER_JID);
      const info = await http.get(`/newsletters/${own}`, headers());
      expect(info.status).toBe(200);
      const body = info.body as Record<string, string>;
      createdAt = body.createdAt;
      inviteCode = body.inviteCode;
      expect(createdAt).toMatch(ISO);
      expect(inviteCode).toMatch(INVITE);
      expect(body).toEqual({
        id: own,
        name: 'Release notes',
        description: 'What changed',
        subscriberCount: 0,
        verificationState: 'UNVERIFIED',
        state: 'ACTIVE',
        createdAt,
        inviteCode,
        pictureUrl: expect.stringMatching(/^https:\/\/pps\.whatsapp\.net\/.+\.jpg$/),
        role: 'OWNER',
        mute: 'UNMUTED',
      });
      expect(await newsletterEvents()).toContainEqual({ id: own, action: 'join', name: 'Release notes', role: 'OWNER' });
      expect(await journal('newsletters.create')).toEqual([
        { name: 'newsletters.create', args: { name: 'Release notes', description: 'What changed', picture: PICTURE } },
      ]);
    });

    it('finds its own channel by its invite code', async () => {
      const byCode = await http.get(`/newsletters/invite/${inviteCode}`, headers());
      expect(byCode.status).toBe(200);
      expect(byCode.body).toMatchObject({ id: own, inviteCode, role: 'OWNER', createdAt });
    });

    it('refuses to let the owner unfollow their own channel, and changes nothing', async () => {
      const before = (await newsletterEvents()).length;
      expectErrorBody(
        await http.put(`/newsletters/${own}/subscription`, { subscribed: false }, headers()),
        403,
        'forbidden: the owner cannot unfollow their own channel',
      );
      expect((await newsletterEvents()).length).toBe(before);
      expect(await journal('newsletters.subscription')).toEqual([]);
      expect((await http.get(`/newsletters/${own}`, headers())).body).toMatchObject({ role: 'OWNER' });
    });
  });

  describe("someone else's channel", () => {
    let channel: { id: string; inviteCode: string };

    beforeAll(async () => {
      channel = await publish({ name: 'City news', description: 'Daily', subscriberCount: 41, verified: true });
    });

    it('shows it by invite code and by id without viewer fields while not followed', async () => {
      const expected = {
        id: channel.id,
        name: 'City news',
        description: 'Daily',
        subscriberCount: 41,
        verificationState: 'VERIFIED',
        state: 'ACTIVE',
        createdAt: expect.stringMatching(ISO),
        inviteCode: channel.inviteCode,
      };
      const byCode = await http.get(`/newsletters/invite/${channel.inviteCode}`, headers());
      expect(byCode.status).toBe(200);
      expect(byCode.body).toEqual(expected);
      const byId = await http.get(`/newsletters/${channel.id}`, headers());
      expect(byId.status).toBe(200);
      expect(byId.body).toEqual(byCode.body);
    });

    it('follows, mutes, unmutes and unfollows, each with its event, and lists it while followed', async () => {
      const before = (await newsletterEvents()).length;
      const put = (path: string, body: Record<string, boolean>) => http.put(`/newsletters/${channel.id}/${path}`, body, headers());

      const followed = await put('subscription', { subscribed: true });
      expect(followed.status).toBe(204);
      expect(followed.body).toEqual({});
      expect((await put('subscription', { subscribed: true })).status).toBe(204);
      const info = await http.get(`/newsletters/${channel.id}`, headers());
      expect(info.body).toMatchObject({ subscriberCount: 42, role: 'SUBSCRIBER', mute: 'UNMUTED' });
      const list = await http.get('/newsletters', headers());
      expect(list.status).toBe(200);
      expect(list.body).toContainEqual(info.body);

      expect((await put('mute', { mute: true })).status).toBe(204);
      expect((await http.get(`/newsletters/${channel.id}`, headers())).body).toMatchObject({ mute: 'MUTED' });
      expect((await put('mute', { mute: false })).status).toBe(204);
      expect((await put('subscription', { subscribed: false })).status).toBe(204);
      expect(await http.get(`/newsletters/${channel.id}`, headers())).toMatchObject({ status: 200, body: { subscriberCount: 41 } });
      expect((await http.get(`/newsletters/${channel.id}`, headers())).body).not.toHaveProperty('role');
      expect(((await http.get('/newsletters', headers())).body as { id: string }[]).map((entry) => entry.id)).not.toContain(channel.id);

      expect((await newsletterEvents()).slice(before)).toEqual([
        { id: channel.id, action: 'join', name: 'City news', role: 'SUBSCRIBER' },
        { id: channel.id, action: 'mute', mute: 'MUTED' },
        { id: channel.id, action: 'mute', mute: 'UNMUTED' },
        { id: channel.id, action: 'leave', role: 'SUBSCRIBER' },
      ]);
      const changes = (await journal('newsletters.')).filter((entry) =>
        ['newsletters.subscription', 'newsletters.mute'].includes(entry.name),
      );
      expect(changes).toEqual([
        { name: 'newsletters.subscription', args: { id: channel.id, subscribed: true } },
        { name: 'newsletters.subscription', args: { id: channel.id, subscribed: true } },
        { name: 'newsletters.mute', args: { id: channel.id, muted: true } },
        { name: 'newsletters.mute', args: { id: channel.id, muted: false } },
        { name: 'newsletters.subscription', args: { id: channel.id, subscribed: false } },
      ]);
    });

    it('answers 404 when muting a channel the account does not follow', async () => {
      expectErrorBody(await http.put(`/newsletters/${channel.id}/mute`, { mute: true }, headers()), 404, 'not found');
    });
  });

  describe('channels followed from the phone', () => {
    it('lists them with their role and mute state', async () => {
      const joined = await http.post('/sandbox/newsletters', { name: 'Phone pick', role: 'ADMIN' }, headers());
      expect(joined.status).toBe(201);
      const id = (joined.body as { id: string }).id;
      const list = (await http.get('/newsletters', headers())).body as Record<string, unknown>[];
      expect(list.find((entry) => entry.id === id)).toEqual({
        id,
        name: 'Phone pick',
        description: '',
        subscriberCount: 1,
        verificationState: 'UNVERIFIED',
        state: 'ACTIVE',
        createdAt: expect.stringMatching(ISO),
        inviteCode: expect.stringMatching(INVITE),
        role: 'ADMIN',
        mute: 'UNMUTED',
      });
    });
  });

  describe('not found and other tenants', () => {
    it('answers 404 for unknown channels and invite codes, and nothing reaches the network', async () => {
      const before = await world.operations(world.connected);
      expectErrorBody(await http.get(`/newsletters/${CHANNEL}`, headers()), 404, 'not found');
      expectErrorBody(await http.get('/newsletters/invite/0029VaUnknownCode000000000', headers()), 404, 'not found');
      expectErrorBody(await http.put(`/newsletters/${CHANNEL}/subscription`, { subscribed: true }, headers()), 404, 'not found');
      expectErrorBody(await http.put(`/newsletters/${CHANNEL}/mute`, { mute: true }, headers()), 404, 'not found');
      expect(await world.operations(world.connected)).toEqual(before);
    });

    it("never shows one instance's channels to another instance, of this customer or another", async () => {
      const created = await http.post('/newsletters', { name: 'Private to us' }, headers());
      const id = (created.body as { id: string }).id;
      const channel = await publish({ name: 'Only in our world' });
      const sibling = await pairedInstance(http, world.customer, '15550379001');
      for (const other of [world.strangerInstance, sibling]) {
        const list = await http.get('/newsletters', headersOf(other));
        expect(list.status).toBe(200);
        expect(list.body).toEqual([]);
        expectErrorBody(await http.get(`/newsletters/${id}`, headersOf(other)), 404, 'not found');
        expectErrorBody(await http.get(`/newsletters/invite/${channel.inviteCode}`, headersOf(other)), 404, 'not found');
        expectErrorBody(await http.put(`/newsletters/${id}/subscription`, { subscribed: true }, headersOf(other)), 404, 'not found');
      }
    });
  });

  describeErrorMatrix('newsletters', ENDPOINTS, () => world);
});
