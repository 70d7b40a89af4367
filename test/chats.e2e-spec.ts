import { describeErrorMatrix, type MatrixEndpoint } from './support/endpoint-matrix';
import { eventLog, eventually } from './support/event-log';
import type { Http } from './support/http';
import { headersOf, pairedInstance, waitForStatus, type InstanceWorld } from './support/instance-world';
import { expectErrorBody } from './support/openapi';
import { useInstanceWorld } from './support/world-suite';

const ANN = '447700900301';
const ANN_JID = `${ANN}@s.whatsapp.net`;
const ANN_LID = '123456789012345@lid';
const BOB_JID = '447700900302@s.whatsapp.net';
const ISO = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/;

const ENDPOINTS: MatrixEndpoint[] = [
  { method: 'get', route: '/chats', path: '/chats' },
  {
    method: 'get',
    route: '/chats/{chatId}',
    path: `/chats/${ANN_JID}`,
    badPaths: [{ path: '/chats/not-a-chat', detail: 'validation error: chatId must be a chat JID or an international number' }],
  },
  {
    method: 'put',
    route: '/chats/{chatId}/archive',
    path: `/chats/${ANN_JID}/archive`,
    body: { archived: true },
    invalid: [
      { label: 'archived missing', body: {}, detail: 'validation error: archived is required' },
      { label: 'archived as text', body: { archived: 'yes' }, detail: 'invalid request body' },
    ],
    badPaths: [{ path: '/chats/12@x/archive', detail: 'validation error: chatId must be a chat JID or an international number' }],
  },
];

describe('chats', () => {
  let http: Http;
  let world: InstanceWorld;
  useInstanceWorld('1555031', (suite) => ({ http, world } = suite));

  const headers = () => headersOf(world.connected);
  const chat = async (jid: string) => http.get(`/chats/${jid}`, headers());

  async function messageEventTime(messageId: string): Promise<string> {
    const log = await eventually(
      () => eventLog(world.connected.id),
      (events) => events.some((event) => event.eventType === 'message' && event.data.id === messageId),
    );
    const event = log.find((entry) => entry.eventType === 'message' && entry.data.id === messageId);
    return event?.data.time as string;
  }

  describe('a chat with a known contact', () => {
    let lastActivity: string;

    beforeAll(async () => {
      const saved = await http.post('/sandbox/contacts', { id: ANN, fullName: 'Ann Example', lid: ANN_LID }, headers());
      expect(saved.status).toBe(201);
      const inbound = await http.post('/sandbox/inbound', { from: ANN, type: 'text', text: 'hi there', pushName: 'Annie' }, headers());
      expect(inbound.status).toBe(201);
      lastActivity = await messageEventTime((inbound.body as { id: string }).id);
    });

    it('carries pushName, fullName, lid and lastActivity, and leaves out what does not apply', async () => {
      const response = await chat(ANN_JID);
      expect(response.status).toBe(200);
      expect(response.body).toEqual({
        id: ANN_JID,
        lid: ANN_LID,
        isGroup: false,
        isArchived: false,
        isPinned: false,
        isMuted: false,
        pushName: 'Annie',
        fullName: 'Ann Example',
        lastActivity,
      });
      expect(lastActivity).toMatch(ISO);
    });

    it('accepts the bare number for the chat id', async () => {
      const response = await chat(ANN);
      expect(response.status).toBe(200);
      expect((response.body as { id: string }).id).toBe(ANN_JID);
    });

    it('archives and unarchives: the next read shows it, a chat_setting event follows, the network carried it out', async () => {
      const archived = await http.put(`/chats/${ANN_JID}/archive`, { archived: true }, headers());
      expect(archived.status).toBe(204);
      expect(archived.body).toEqual({});
      expect((await chat(ANN_JID)).body).toMatchObject({ id: ANN_JID, isArchived: true });
      const settings = (await eventLog(world.connected.id)).filter((event) => event.eventType === 'chat_setting');
      expect(settings.map((event) => event.data)).toEqual([{ id: ANN_JID, settingType: 'archive', archive: { isArchived: true } }]);

      expect((await http.put(`/chats/${ANN}/archive`, { archived: false }, headers())).status).toBe(204);
      expect((await chat(ANN_JID)).body).toMatchObject({ id: ANN_JID, isArchived: false });
      const operations = (await world.operations(world.connected)).filter((operation) => operation.name === 'chats.archive');
      expect(operations.map((operation) => operation.args)).toEqual([
        { chatId: ANN_JID, archived: true },
        { chatId: ANN_JID, archived: false },
      ]);
    });

    it('shows a mute set on the phone with its end time, and drops the end time once unmuted', async () => {
      const until = new Date(Date.now() + 3_600_000).toISOString();
      const muted = await http.post(
        '/sandbox/chat-settings',
        { chatId: ANN, settingType: 'mute', enabled: true, muteEndTime: until },
        headers(),
      );
      expect(muted.status).toBe(204);
      await eventually(
        async () => (await chat(ANN_JID)).body as Record<string, unknown>,
        (body) => body.isMuted === true,
      );
      expect((await chat(ANN_JID)).body).toMatchObject({ isMuted: true, muteEndTime: until });
      expect((await http.post('/sandbox/chat-settings', { chatId: ANN, settingType: 'mute', enabled: false }, headers())).status).toBe(204);
      const body = await eventually(
        async () => (await chat(ANN_JID)).body as Record<string, unknown>,
        (current) => current.isMuted === false,
      );
      expect(body.isMuted).toBe(false);
      expect(body).not.toHaveProperty('muteEndTime');
    });
  });

  describe('listing', () => {
    it('lists chats newest activity first, groups without lid or names', async () => {
      const bob = await http.post('/sandbox/inbound', { from: BOB_JID, type: 'text', text: 'later' }, headers());
      expect(bob.status).toBe(201);
      const bobTime = await messageEventTime((bob.body as { id: string }).id);
      const group = await http.post(
        '/sandbox/groups',
        { name: 'Team', participants: [ANN, BOB_JID], admins: [ANN], selfIsAdmin: false },
        headers(),
      );
      expect(group.status).toBe(201);
      const groupId = (group.body as { id: string }).id;

      const list = await eventually(
        async () => (await http.get('/chats', headers())).body as { id: string }[],
        (chats) => chats.some((entry) => entry.id === groupId),
      );
      const bobChat = list.find((entry) => entry.id === BOB_JID);
      expect(bobChat).toEqual({ id: BOB_JID, isGroup: false, isArchived: false, isPinned: false, isMuted: false, lastActivity: bobTime });
      const groupChat = list.find((entry) => entry.id === groupId) as Record<string, unknown>;
      expect(groupChat).toMatchObject({ id: groupId, isGroup: true, isArchived: false, isPinned: false, isMuted: false });
      expect(Object.keys(groupChat)).not.toEqual(expect.arrayContaining(['lid']));
      const withActivity = list.filter((entry) => 'lastActivity' in entry) as { lastActivity: string }[];
      const times = withActivity.map((entry) => entry.lastActivity);
      expect(times).toEqual([...times].sort().reverse());
      expect(list.map((entry) => entry.id)).toEqual(expect.arrayContaining([ANN_JID, BOB_JID, groupId]));
    });

    it('keeps the store current even for events the instance filters out', async () => {
      const filtered = await http.put('/instance/settings', { useCustomDefaults: false, eventFilters: ['message_status'] }, headers());
      expect(filtered.status).toBe(204);
      try {
        const before = (await eventLog(world.connected.id)).length;
        expect((await http.put(`/chats/${BOB_JID}/archive`, { archived: true }, headers())).status).toBe(204);
        expect((await chat(BOB_JID)).body).toMatchObject({ isArchived: true });
        expect((await eventLog(world.connected.id)).length).toBe(before);
      } finally {
        expect((await http.put('/instance/settings', { useCustomDefaults: true }, headers())).status).toBe(204);
      }
    });
  });

  describe('not found and other tenants', () => {
    it('answers 404 for a chat the instance never had', async () => {
      expectErrorBody(await chat('447700900399@s.whatsapp.net'), 404, 'not found');
    });

    it("never shows one instance's chats to another instance, of this customer or another", async () => {
      for (const other of [world.strangerInstance, world.refused]) {
        const list = await http.get('/chats', headersOf(other));
        expect(list.status).toBe(200);
        expect(list.body).toEqual([]);
        expectErrorBody(await http.get(`/chats/${ANN_JID}`, headersOf(other)), 404, 'not found');
      }
    });
  });

  it("forgets the account's chats when it logs out, so a new pairing starts clean", async () => {
    const instance = await pairedInstance(http, world.customer, '15550319001');
    expect((await http.post('/sandbox/inbound', { from: ANN, type: 'text', text: 'hello' }, headersOf(instance))).status).toBe(201);
    const before = await eventually(
      async () => (await http.get('/chats', headersOf(instance))).body as { id: string }[],
      (chats) => chats.length === 1,
    );
    expect(before.map((entry) => entry.id)).toEqual([ANN_JID]);
    expect((await http.post('/sandbox/logout', undefined, headersOf(instance))).status).toBe(204);
    await waitForStatus(http, instance, (status) => !status.isLoggedIn);
    expect((await http.post('/sandbox/pair', { phone: '15550319002' }, headersOf(instance))).status).toBe(200);
    await waitForStatus(http, instance, (status) => status.isConnected);
    const after = await http.get('/chats', headersOf(instance));
    expect(after.status).toBe(200);
    expect(after.body).toEqual([]);
  });

  describeErrorMatrix('chats', ENDPOINTS, () => world);
});
