import { describeErrorMatrix, type MatrixEndpoint } from './support/endpoint-matrix';
import { eventsOfType, eventually, lastSeqOf } from './support/event-log';
import type { Http } from './support/http';
import { headersOf, operationsNamed as journaled, type InstanceWorld } from './support/instance-world';
import { expectErrorBody } from './support/openapi';
import { useInstanceWorld } from './support/world-suite';

const ANN = '447700900501';
const ANN_JID = `${ANN}@s.whatsapp.net`;
const BOB_JID = '447700900502@s.whatsapp.net';
const SHOP_JID = '447700900503@s.whatsapp.net';
const STRANGER_JID = '447700900599@s.whatsapp.net';
const BAD_CHAT = 'validation error: chatId must be a chat JID or an international number';

const ENDPOINTS: MatrixEndpoint[] = [
  { method: 'delete', route: '/chats/{chatId}', path: `/chats/${ANN_JID}`, badPaths: [{ path: '/chats/nobody', detail: BAD_CHAT }] },
  {
    method: 'get',
    route: '/chats/{chatId}/picture',
    path: `/chats/${ANN_JID}/picture`,
    badPaths: [{ path: '/chats/x@y/picture', detail: BAD_CHAT }],
  },
  {
    method: 'get',
    route: '/chats/{chatId}/business',
    path: `/chats/${ANN_JID}/business`,
    badPaths: [
      { path: '/chats/1-2/business', detail: 'validation error: chatId: too short: 2 digits, an international number has 7 to 15' },
    ],
  },
  {
    method: 'put',
    route: '/chats/{chatId}/presence',
    path: `/chats/${ANN_JID}/presence`,
    body: { state: 'typing' },
    invalid: [
      { label: 'state missing', body: {}, detail: 'validation error: state is required' },
      { label: 'an unknown state', body: { state: 'dancing' }, detail: 'validation error: state must be one of typing, recording, paused' },
      { label: 'state as a number', body: { state: 1 }, detail: 'invalid request body' },
    ],
    badPaths: [{ path: '/chats/abc/presence', detail: BAD_CHAT }],
  },
  {
    method: 'put',
    route: '/chats/{chatId}/presence/subscribe',
    path: `/chats/${ANN_JID}/presence/subscribe`,
    badPaths: [{ path: '/chats/abc/presence/subscribe', detail: BAD_CHAT }],
  },
  {
    method: 'put',
    route: '/chats/{chatId}/ephemeral',
    path: `/chats/${ANN_JID}/ephemeral`,
    body: { expiration: '7d' },
    invalid: [
      { label: 'expiration missing', body: {}, detail: 'validation error: expiration is required' },
      { label: 'an unknown timer', body: { expiration: '1h' }, detail: 'validation error: expiration must be one of off, 24h, 7d, 90d' },
    ],
    badPaths: [{ path: '/chats/abc/ephemeral', detail: BAD_CHAT }],
  },
  {
    method: 'put',
    route: '/chats/{chatId}/mute',
    path: `/chats/${ANN_JID}/mute`,
    body: { duration: '8h' },
    invalid: [
      { label: 'duration missing', body: {}, detail: 'validation error: duration is required' },
      { label: 'an unknown duration', body: { duration: '2h' }, detail: 'validation error: duration must be one of 8h, 1w, always, off' },
      { label: 'duration as a boolean', body: { duration: true }, detail: 'invalid request body' },
    ],
    badPaths: [{ path: '/chats/abc/mute', detail: BAD_CHAT }],
  },
  {
    method: 'put',
    route: '/chats/{chatId}/pin',
    path: `/chats/${ANN_JID}/pin`,
    body: { pinned: true },
    invalid: [
      { label: 'pinned missing', body: {}, detail: 'validation error: pinned is required' },
      { label: 'pinned as text', body: { pinned: 'yes' }, detail: 'invalid request body' },
    ],
    badPaths: [{ path: '/chats/abc/pin', detail: BAD_CHAT }],
  },
  {
    method: 'put',
    route: '/chats/{chatId}/read',
    path: `/chats/${ANN_JID}/read`,
    body: { read: true },
    invalid: [
      { label: 'read missing', body: {}, detail: 'validation error: read is required' },
      { label: 'read as a number', body: { read: 1 }, detail: 'invalid request body' },
    ],
    badPaths: [{ path: '/chats/abc/read', detail: BAD_CHAT }],
  },
  {
    method: 'post',
    route: '/chats/{chatId}/messages',
    path: `/chats/${ANN_JID}/messages`,
    body: { lastMessageId: '3EB0AAAAAAAAAAAAAAAAAA', lastMessageSenderId: ANN, count: 10 },
    invalid: [
      { label: 'lastMessageId missing', body: { lastMessageSenderId: ANN }, detail: 'validation error: lastMessageId is required' },
      {
        label: 'lastMessageSenderId missing',
        body: { lastMessageId: '3EB0' },
        detail: 'validation error: lastMessageSenderId is required',
      },
      {
        label: 'count 0',
        body: { lastMessageId: '3EB0', lastMessageSenderId: ANN, count: 0 },
        detail: 'validation error: count must be at least 1',
      },
      {
        label: 'count 501',
        body: { lastMessageId: '3EB0', lastMessageSenderId: ANN, count: 501 },
        detail: 'validation error: count must be at most 500',
      },
      { label: 'count as text', body: { lastMessageId: '3EB0', lastMessageSenderId: ANN, count: '5' }, detail: 'invalid request body' },
      {
        label: 'a sender that is no user',
        body: { lastMessageId: '3EB0', lastMessageSenderId: 'someone' },
        detail: 'validation error: lastMessageSenderId must be a user JID or an international number',
      },
    ],
    badPaths: [{ path: '/chats/abc/messages', detail: BAD_CHAT }],
  },
  {
    method: 'post',
    route: '/chats/{chatId}/clear',
    path: `/chats/${ANN_JID}/clear`,
    badPaths: [{ path: '/chats/abc/clear', detail: BAD_CHAT }],
  },
];

describe('chat settings, presence, history and lookups', () => {
  let http: Http;
  let world: InstanceWorld;
  useInstanceWorld('1555032', (suite) => ({ http, world } = suite));

  const headers = () => headersOf(world.connected);
  const chat = async (jid: string) => http.get(`/chats/${jid}`, headers());
  const self = () => world.self(world.connected);
  const selfSender = () => ({ id: self(), phone: self().split('@')[0], isMe: true });

  const operationsNamed = (name: string) => journaled(world, world.connected, name);
  const eventsOf = (type: string, after = 0) => eventsOfType(world.connected.id, type, after);
  const lastSeq = () => lastSeqOf(world.connected.id);

  /**
   * PUTs each body to `/chats/{jid}/{setting}`, each answered 204 (`afterEach` looks at the chat in between); the
   * chat_setting events that followed and the last operations the network journaled under `chats.{setting}`.
   */
  async function putSettings(jid: string, setting: string, bodies: object[], afterEach?: (index: number) => Promise<void>) {
    const before = await lastSeq();
    for (const [index, body] of bodies.entries()) {
      expect((await http.put(`/chats/${jid}/${setting}`, body, headers())).status).toBe(204);
      await afterEach?.(index);
    }
    return {
      events: (await eventsOf('chat_setting', before)).map((event) => event.data),
      operations: (await operationsNamed(`chats.${setting}`)).slice(-bodies.length),
    };
  }

  async function inbound(from: string, text: string): Promise<string> {
    const sent = await http.post('/sandbox/inbound', { from, type: 'text', text }, headers());
    expect(sent.status).toBe(201);
    const id = (sent.body as { id: string }).id;
    await eventually(
      () => eventsOf('message'),
      (events) => events.some((event) => event.data.id === id),
    );
    return id;
  }

  beforeAll(async () => {
    await inbound(ANN, 'hello');
    await inbound(BOB_JID, 'hi');
  });

  describe('mute', () => {
    it('mutes for 8 hours with an absolute end time: the chat shows it, a chat_setting event carries it', async () => {
      const before = await lastSeq();
      const start = Date.now();
      const response = await http.put(`/chats/${ANN}/mute`, { duration: '8h' }, headers());
      expect(response.status).toBe(204);
      expect(response.body).toEqual({});
      const body = (await chat(ANN_JID)).body as { isMuted: boolean; muteEndTime: string };
      expect(body.isMuted).toBe(true);
      const end = Date.parse(body.muteEndTime);
      expect(end).toBeGreaterThanOrEqual(start + 8 * 3_600_000 - 1000);
      expect(end).toBeLessThanOrEqual(Date.now() + 8 * 3_600_000 + 1000);
      expect((await eventsOf('chat_setting', before)).map((event) => event.data)).toEqual([
        { id: ANN_JID, settingType: 'mute', mute: { isMuted: true, muteEndTime: body.muteEndTime } },
      ]);
      expect((await operationsNamed('chats.mute')).at(-1)).toEqual({ chatId: ANN_JID, muted: true, until: body.muteEndTime });
    });

    it('mutes for a week', async () => {
      expect((await http.put(`/chats/${ANN_JID}/mute`, { duration: '1w' }, headers())).status).toBe(204);
      const body = (await chat(ANN_JID)).body as { muteEndTime: string };
      expect(Math.abs(Date.parse(body.muteEndTime) - (Date.now() + 7 * 86_400_000))).toBeLessThan(5000);
    });

    it('"always" mutes without an end time, "off" unmutes', async () => {
      const changes = await putSettings(ANN_JID, 'mute', [{ duration: 'always' }, { duration: 'off' }], async (index) => {
        const shown = (await chat(ANN_JID)).body as Record<string, unknown>;
        expect(shown.isMuted).toBe(index === 0);
        expect(shown).not.toHaveProperty('muteEndTime');
      });
      expect(changes).toEqual({
        events: [
          { id: ANN_JID, settingType: 'mute', mute: { isMuted: true } },
          { id: ANN_JID, settingType: 'mute', mute: { isMuted: false } },
        ],
        operations: [
          { chatId: ANN_JID, muted: true },
          { chatId: ANN_JID, muted: false },
        ],
      });
    });
  });

  describe('pin and read', () => {
    it('pins and unpins: the chat shows it and chat_setting events follow', async () => {
      const before = await lastSeq();
      expect((await http.put(`/chats/${ANN_JID}/pin`, { pinned: true }, headers())).status).toBe(204);
      expect((await chat(ANN_JID)).body).toMatchObject({ id: ANN_JID, isPinned: true });
      expect((await http.put(`/chats/${ANN_JID}/pin`, { pinned: false }, headers())).status).toBe(204);
      expect((await chat(ANN_JID)).body).toMatchObject({ id: ANN_JID, isPinned: false });
      expect((await eventsOf('chat_setting', before)).map((event) => event.data)).toEqual([
        { id: ANN_JID, settingType: 'pin', pin: { isPinned: true } },
        { id: ANN_JID, settingType: 'pin', pin: { isPinned: false } },
      ]);
    });

    it('refuses a fourth pinned chat, as the network does, and lets a pinned chat be pinned again', async () => {
      const chats = ['447700900511', '447700900512', '447700900513'];
      for (const id of chats) expect((await http.put(`/chats/${id}/pin`, { pinned: true }, headers())).status).toBe(204);
      const journaled = (await operationsNamed('chats.pin')).length;
      expectErrorBody(
        await http.put(`/chats/${ANN_JID}/pin`, { pinned: true }, headers()),
        400,
        'validation error: at most 3 chats can be pinned at a time',
      );
      expect(await operationsNamed('chats.pin')).toHaveLength(journaled);
      expect((await chat(ANN_JID)).body).toMatchObject({ isPinned: false });
      expect((await http.put(`/chats/${chats[0]}/pin`, { pinned: true }, headers())).status).toBe(204);
      for (const id of chats) expect((await http.put(`/chats/${id}/pin`, { pinned: false }, headers())).status).toBe(204);
    });

    it('marks a chat unread and read again', async () => {
      expect(await putSettings(BOB_JID, 'read', [{ read: false }, { read: true }])).toEqual({
        events: [
          { id: BOB_JID, settingType: 'read', read: { isRead: false } },
          { id: BOB_JID, settingType: 'read', read: { isRead: true } },
        ],
        operations: [
          { chatId: BOB_JID, read: false },
          { chatId: BOB_JID, read: true },
        ],
      });
    });
  });

  describe('disappearing messages', () => {
    it('sets the timer on a chat: chat_setting names this account as the one who changed it', async () => {
      expect(await putSettings(ANN_JID, 'ephemeral', [{ expiration: '24h' }, { expiration: 'off' }])).toEqual({
        events: [
          { id: ANN_JID, settingType: 'ephemeral', ephemeral: { expiration: '24h', sender: selfSender() } },
          { id: ANN_JID, settingType: 'ephemeral', ephemeral: { expiration: 'off', sender: selfSender() } },
        ],
        operations: [
          { chatId: ANN_JID, expiration: '24h' },
          { chatId: ANN_JID, expiration: 'off' },
        ],
      });
    });

    it('in a locked group only admins may set it (403), and a group the account is not in is 404', async () => {
      const group = await http.post(
        '/sandbox/groups',
        { name: 'Locked', participants: [ANN], admins: [ANN], selfIsAdmin: false },
        headers(),
      );
      expect(group.status).toBe(201);
      const groupId = (group.body as { id: string }).id;
      const locked = await http.post(`/sandbox/groups/${groupId}/changes`, { by: ANN, locked: true }, headers());
      expect(locked.status).toBe(204);
      const journaled = (await operationsNamed('chats.ephemeral')).length;
      expectErrorBody(await http.put(`/chats/${groupId}/ephemeral`, { expiration: '7d' }, headers()), 403, 'forbidden: not a group admin');
      expectErrorBody(await http.put('/chats/120363999999999999@g.us/ephemeral', { expiration: '7d' }, headers()), 404, 'not found');
      expect(await operationsNamed('chats.ephemeral')).toHaveLength(journaled);
    });
  });

  describe('presence', () => {
    it('sends typing, recording and paused, and subscribes to a contact; the network journals each', async () => {
      for (const state of ['typing', 'recording', 'paused'])
        expect((await http.put(`/chats/${ANN_JID}/presence`, { state }, headers())).status).toBe(204);
      const subscribed = await http.put(`/chats/${ANN}/presence/subscribe`, undefined, headers());
      expect(subscribed.status).toBe(204);
      expect(subscribed.body).toEqual({});
      expect(await operationsNamed('chats.presence')).toEqual([
        { chatId: ANN_JID, state: 'typing' },
        { chatId: ANN_JID, state: 'recording' },
        { chatId: ANN_JID, state: 'paused' },
      ]);
      expect(await operationsNamed('chats.subscribePresence')).toEqual([{ chatId: ANN_JID }]);
    });
  });

  describe('pictures', () => {
    it('is 404 while the person has no picture, then serves the picture a chat_picture event announced', async () => {
      expectErrorBody(await http.get(`/chats/${BOB_JID}/picture`, headers()), 404, 'not found');
      const set = await http.post('/sandbox/profile-pictures', { id: BOB_JID }, headers());
      expect(set.status).toBe(201);
      const { pictureId } = set.body as { pictureId: string };
      expect(pictureId).toMatch(/^\d{10}$/);
      const picture = await http.get(`/chats/${BOB_JID}/picture`, headers());
      expect(picture.status).toBe(200);
      expect(picture.body).toEqual({ pictureId, pictureUrl: `https://pps.whatsapp.net/v/t61.24694-24/${pictureId}_n.jpg` });
      const events = await eventsOf('chat_picture');
      expect(events.map((event) => event.data)).toContainEqual({
        id: BOB_JID,
        sender: { id: BOB_JID, phone: BOB_JID.split('@')[0], isMe: false },
        pictureId,
      });
      expect(await operationsNamed('chats.picture')).toContainEqual({ chatId: BOB_JID });
    });

    it('is 404 when the person hides the picture from this account, and nothing is announced', async () => {
      const before = await lastSeq();
      expect((await http.post('/sandbox/profile-pictures', { id: ANN, hidden: true }, headers())).status).toBe(201);
      expectErrorBody(await http.get(`/chats/${ANN_JID}/picture`, headers()), 404, 'not found');
      expect(await eventsOf('chat_picture', before)).toEqual([]);
    });

    it('is 404 for a group without a picture', async () => {
      const group = await http.post(
        '/sandbox/groups',
        { name: 'Plain', participants: [ANN], admins: [ANN], selfIsAdmin: false },
        headers(),
      );
      expectErrorBody(await http.get(`/chats/${(group.body as { id: string }).id}/picture`, headers()), 404, 'not found');
    });
  });

  describe('business profiles', () => {
    it('is 404 for a person who is not a business', async () => {
      expectErrorBody(await http.get(`/chats/${ANN_JID}/business`, headers()), 404, 'not found');
    });

    it('returns the whole profile of a business, whose chat then carries the business name', async () => {
      const seeded = await http.post(
        '/sandbox/business-profiles',
        {
          id: SHOP_JID,
          name: 'Corner Shop',
          description: 'Fresh bread daily',
          address: '1 High Street',
          email: 'hello@corner.example',
          website: 'https://corner.example',
          latitude: 51.5,
          longitude: -0.12,
          categories: ['Bakery'],
        },
        headers(),
      );
      expect(seeded.status).toBe(201);
      await inbound(SHOP_JID, 'your order is ready');
      const profile = await http.get(`/chats/${SHOP_JID}/business`, headers());
      expect(profile.status).toBe(200);
      const body = profile.body as { memberSince: string; categories: { id: string }[] };
      expect(profile.body).toEqual({
        id: SHOP_JID,
        description: 'Fresh bread daily',
        address: '1 High Street',
        email: 'hello@corner.example',
        website: 'https://corner.example',
        latitude: 51.5,
        longitude: -0.12,
        memberSince: body.memberSince,
        categories: [{ id: body.categories[0].id, name: 'Bakery' }],
      });
      expect(body.categories[0].id).toMatch(/^\d{15}$/);
      expect((await chat(SHOP_JID)).body).toMatchObject({ id: SHOP_JID, businessName: 'Corner Shop' });
    });
  });

  describe('on-demand history', () => {
    it('answers 202 and the phone sends up to count messages older than the given one', async () => {
      const ids: string[] = [];
      for (const text of ['one', 'two', 'three', 'four', 'five']) ids.push(await inbound(ANN, text));
      const before = await lastSeq();
      const response = await http.post(`/chats/${ANN}/messages`, { lastMessageId: ids[4], lastMessageSenderId: ANN, count: 3 }, headers());
      expect(response.status).toBe(202);
      expect(response.body).toEqual({ status: 'ok' });
      const syncs = await eventually(
        () => eventsOf('message_history_sync', before),
        (events) => events.length > 0,
      );
      expect(syncs).toHaveLength(1);
      const data = syncs[0].data as { chatId: string; messages: { id: string; text?: string }[] };
      expect(data.chatId).toBe(ANN_JID);
      expect(data.messages.map((message) => [message.id, message.text])).toEqual([
        [ids[1], 'two'],
        [ids[2], 'three'],
        [ids[3], 'four'],
      ]);
      expect((await operationsNamed('chats.requestHistory')).at(-1)).toEqual({
        chatId: ANN_JID,
        lastMessageId: ids[4],
        lastMessageSenderId: ANN_JID,
        count: 3,
      });
    });

    it('uses 50 by default, and the phone answers nothing for a message it does not hold', async () => {
      const before = await lastSeq();
      const response = await http.post(
        `/chats/${ANN_JID}/messages`,
        { lastMessageId: '3EB0FFFFFFFFFFFFFFFFFF', lastMessageSenderId: ANN },
        headers(),
      );
      expect(response.status).toBe(202);
      expect((await operationsNamed('chats.requestHistory')).at(-1)).toMatchObject({ count: 50 });
      expect(await eventsOf('message_history_sync', before)).toEqual([]);
    });
  });

  describe('clear and delete', () => {
    it('clears a chat: the phone no longer holds its messages, the chat stays', async () => {
      const last = await inbound(BOB_JID, 'keep or clear?');
      expect((await http.post(`/chats/${BOB_JID}/clear`, undefined, headers())).status).toBe(204);
      expect((await chat(BOB_JID)).status).toBe(200);
      const before = await lastSeq();
      const response = await http.post(`/chats/${BOB_JID}/messages`, { lastMessageId: last, lastMessageSenderId: BOB_JID }, headers());
      expect(response.status).toBe(202);
      expect(await eventsOf('message_history_sync', before)).toEqual([]);
      expect(await operationsNamed('chats.clear')).toEqual([{ chatId: BOB_JID }]);
    });

    it('deletes a chat: it leaves the chat list and the phone', async () => {
      const doomed = '447700900520@s.whatsapp.net';
      await inbound(doomed, 'bye');
      const response = await http.delete(`/chats/${doomed}`, headers());
      expect(response.status).toBe(204);
      expect(response.body).toEqual({});
      expectErrorBody(await chat(doomed), 404, 'not found');
      expect(((await http.get('/chats', headers())).body as { id: string }[]).map((entry) => entry.id)).not.toContain(doomed);
      expect(await operationsNamed('chats.delete')).toEqual([{ chatId: doomed }]);
    });

    it('answers 404 for deleting or clearing a chat the instance never had, and nothing reaches the network', async () => {
      expectErrorBody(await http.delete(`/chats/${STRANGER_JID}`, headers()), 404, 'not found');
      expectErrorBody(await http.post(`/chats/${STRANGER_JID}/clear`, undefined, headers()), 404, 'not found');
      expect(await operationsNamed('chats.delete')).toHaveLength(1);
      expect(await operationsNamed('chats.clear')).toHaveLength(1);
    });
  });

  describe('other tenants', () => {
    it("cannot delete, clear or look into this instance's chats", async () => {
      const stranger = headersOf(world.strangerInstance);
      expectErrorBody(await http.delete(`/chats/${ANN_JID}`, stranger), 404, 'not found');
      expectErrorBody(await http.post(`/chats/${ANN_JID}/clear`, undefined, stranger), 404, 'not found');
      expectErrorBody(await http.get(`/chats/${BOB_JID}/picture`, stranger), 404, 'not found');
      expectErrorBody(await http.get(`/chats/${SHOP_JID}/business`, stranger), 404, 'not found');
      expect((await chat(ANN_JID)).status).toBe(200);
      // Lookups that found nothing are not journaled: the stranger's network never carried anything out.
      expect(await world.operations(world.strangerInstance)).toEqual([]);
    });
  });

  describeErrorMatrix('chat settings', ENDPOINTS, () => world);
});
