import { describeErrorMatrix, type MatrixEndpoint } from './support/endpoint-matrix';
import { eventLog, eventually } from './support/event-log';
import type { Http } from './support/http';
import { headersOf, type InstanceWorld } from './support/instance-world';
import { expectErrorBody } from './support/openapi';
import { useInstanceWorld } from './support/world-suite';

const PHONE_RULE = 'must be an international number (7-15 digits, optionally with a leading +)';
/** The smallest file that starts like a JPEG: start-of-image, then an APP0 marker. */
const JPEG = Buffer.from([0xff, 0xd8, 0xff, 0xe0, 0x00, 0x10, 0x4a, 0x46, 0x49, 0x46, 0x00, 0x01]).toString('base64');
const PNG = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]).toString('base64');

const REGISTERED = '447700903601';
const CONTACT = '447700903602';
const MEMBER = '447700903603';
const SENDER = '447700903604';
const PRIVATE = '447700903605';
const FRIEND = '447700903606';
const BUSINESS = '447700903607';
const NOBODY = '447700903699';
const jid = (phone: string) => `${phone}@s.whatsapp.net`;

const ENDPOINTS: MatrixEndpoint[] = [
  { method: 'get', route: '/users/me/profile', path: '/users/me/profile' },
  {
    method: 'put',
    route: '/users/me/profile',
    path: '/users/me/profile',
    body: { name: 'Sandy' },
    invalid: [
      { label: 'no change at all', body: {}, detail: 'validation error: at least one of name, status and picture is required' },
      { label: 'an empty name', body: { name: '' }, detail: 'validation error: name must be 1-25 characters' },
      { label: 'a 26-character name', body: { name: 'n'.repeat(26) }, detail: 'validation error: name must be 1-25 characters' },
      {
        label: 'a 140-character status',
        body: { status: 's'.repeat(140) },
        detail: 'validation error: status must be at most 139 characters',
      },
      { label: 'a PNG picture', body: { picture: PNG }, detail: 'validation error: picture must be a base64-encoded JPEG image' },
      {
        label: 'a picture that is not base64',
        body: { picture: 'not base64!' },
        detail: 'validation error: picture must be a base64-encoded JPEG image',
      },
      { label: 'name as a number', body: { name: 5 }, detail: 'invalid request body' },
    ],
  },
  {
    method: 'put',
    route: '/users/me/presence',
    path: '/users/me/presence',
    body: { presence: 'available' },
    invalid: [
      { label: 'presence missing', body: {}, detail: 'validation error: presence is required' },
      { label: 'presence away', body: { presence: 'away' }, detail: 'validation error: presence must be one of available, unavailable' },
    ],
  },
  { method: 'get', route: '/users/me/privacy', path: '/users/me/privacy' },
  {
    method: 'put',
    route: '/users/me/privacy',
    path: '/users/me/privacy',
    body: { setting: 'last', value: 'contacts' },
    invalid: [
      { label: 'setting missing', body: { value: 'all' }, detail: 'validation error: setting is required' },
      { label: 'value missing', body: { setting: 'last' }, detail: 'validation error: value is required' },
      {
        label: 'an unknown setting',
        body: { setting: 'about', value: 'all' },
        detail:
          'validation error: setting must be one of groupadd, last, status, profile, readreceipts, online, calladd, ' +
          'groupAdd, lastSeen, readReceipts, callAdd',
      },
      {
        label: 'a value the setting does not allow',
        body: { setting: 'readreceipts', value: 'contacts' },
        detail: 'validation error: value for readreceipts must be one of all, none',
      },
      {
        label: 'none for group adds',
        body: { setting: 'groupadd', value: 'none' },
        detail: 'validation error: value for groupadd must be one of all, contacts, contact_blacklist',
      },
      { label: 'value as a boolean', body: { setting: 'last', value: true }, detail: 'invalid request body' },
    ],
  },
  {
    method: 'post',
    route: '/users/check',
    path: '/users/check',
    body: { phones: [REGISTERED] },
    invalid: [
      { label: 'phones missing', body: {}, detail: 'validation error: phones is required' },
      { label: 'no phones', body: { phones: [] }, detail: 'validation error: phones must contain at least one number' },
      {
        label: '51 phones',
        body: { phones: Array.from({ length: 51 }, (_, n) => `4477009036${String(n).padStart(2, '0')}`) },
        detail: 'validation error: phones must contain at most 50 numbers',
      },
      { label: 'a phone that is not a number', body: { phones: [REGISTERED, 'abc'] }, detail: `validation error: phones[1] ${PHONE_RULE}` },
      { label: 'a JID instead of a number', body: { phones: [jid(REGISTERED)] }, detail: `validation error: phones[0] ${PHONE_RULE}` },
      { label: 'phones as numbers', body: { phones: [447700903601] }, detail: 'invalid request body' },
    ],
  },
  {
    method: 'get',
    route: '/users/{phone}/check',
    path: `/users/${REGISTERED}/check`,
    badPaths: [
      { path: '/users/abc/check', detail: `validation error: phone ${PHONE_RULE}` },
      { path: '/users/123456/check', detail: 'validation error: phone: too short: 6 digits, an international number has 7 to 15' },
    ],
  },
  {
    method: 'get',
    route: '/users/{phone}/profile',
    path: `/users/${REGISTERED}/profile`,
    badPaths: [
      { path: `/users/${REGISTERED}@s.whatsapp.net/profile`, detail: `validation error: phone ${PHONE_RULE}` },
      {
        path: '/users/1234567890123456/profile',
        detail: 'validation error: phone: too long: 16 digits, an international number has 7 to 15',
      },
    ],
  },
];

describe('users', () => {
  let http: Http;
  let world: InstanceWorld;
  useInstanceWorld('1555036', (suite) => ({ http, world } = suite));

  describeErrorMatrix('users', ENDPOINTS, () => world);

  const headers = () => headersOf(world.connected);
  const operationsNamed = async (name: string) =>
    (await world.operations(world.connected)).filter((operation) => operation.name === name).map((operation) => operation.args);
  const register = async (spec: Record<string, unknown>) => {
    const response = await http.post('/sandbox/users', spec, headers());
    expect(response.status).toBe(201);
    return response.body as { id: string };
  };

  describe('own profile', () => {
    it('starts with the number and device only', async () => {
      const deviceId = ((await http.get('/session/status', headers())).body as { deviceId: string }).deviceId;
      const device = Number(/:(\d+)@/.exec(deviceId)?.[1]);
      const self = world.self(world.connected);
      const response = await http.get('/users/me/profile', headers());
      expect(response.status).toBe(200);
      expect(response.body).toEqual({ id: self, phone: self.split('@')[0], deviceId: device });
      expect(await operationsNamed('users.ownProfile')).toEqual([{}]);
    });

    it('changes name, about and picture: the devices hear each change, the next read shows them', async () => {
      const self = world.self(world.connected);
      const phone = self.split('@')[0];
      const updated = await http.put('/users/me/profile', { name: 'Sandy Box', status: 'At the beach', picture: JPEG }, headers());
      expect(updated.status).toBe(204);
      expect(updated.body).toEqual({});

      const log = await eventually(
        () => eventLog(world.connected.id),
        (events) => events.some((event) => event.eventType === 'chat_picture'),
      );
      const changes = log.filter((event) => ['chat_push_name', 'chat_status', 'chat_picture'].includes(event.eventType));
      const pictureId = changes.find((event) => event.eventType === 'chat_picture')?.data.pictureId as string;
      expect(pictureId).toMatch(/^\d+$/);
      expect(changes.map((event) => [event.eventType, event.data])).toEqual([
        ['chat_push_name', { user: { id: self, phone }, pushName: 'Sandy Box' }],
        ['chat_status', { user: { id: self, phone }, status: 'At the beach' }],
        ['chat_picture', { id: self, sender: { id: self, phone, isMe: true }, pictureId }],
      ]);

      const profile = (await http.get('/users/me/profile', headers())).body as Record<string, unknown>;
      expect(profile).toEqual({
        id: self,
        phone,
        deviceId: profile.deviceId,
        pushName: 'Sandy Box',
        status: 'At the beach',
        pictureId,
      });
      expect(await operationsNamed('users.updateProfile')).toEqual([{ name: 'Sandy Box', status: 'At the beach', picture: JPEG }]);
    });

    it('changes only what is given', async () => {
      expect((await http.put('/users/me/profile', { status: 'Back home' }, headers())).status).toBe(204);
      const profile = (await http.get('/users/me/profile', headers())).body as Record<string, unknown>;
      expect(profile).toMatchObject({ pushName: 'Sandy Box', status: 'Back home' });
      expect((await operationsNamed('users.updateProfile')).at(-1)).toEqual({ status: 'Back home' });
    });

    it('is what the account sees when it looks itself up', async () => {
      const self = world.self(world.connected);
      const mine = (await http.get('/users/me/profile', headers())).body as Record<string, unknown>;
      const response = await http.get(`/users/${self.split('@')[0]}/profile`, headers());
      expect(response.status).toBe(200);
      expect(response.body).toEqual({
        id: self,
        phone: self.split('@')[0],
        isInWhatsApp: true,
        pushName: 'Sandy Box',
        status: 'Back home',
        pictureId: mine.pictureId,
        isVerified: false,
      });
    });
  });

  describe('presence', () => {
    it('sets available and unavailable on the network, without an event of its own', async () => {
      const before = (await eventLog(world.connected.id)).length;
      for (const presence of ['available', 'unavailable']) {
        const response = await http.put('/users/me/presence', { presence }, headers());
        expect(response.status).toBe(204);
        expect(response.body).toEqual({});
      }
      expect(await operationsNamed('users.setPresence')).toEqual([{ presence: 'available' }, { presence: 'unavailable' }]);
      expect((await eventLog(world.connected.id)).length).toBe(before);
    });
  });

  describe('privacy', () => {
    const DEFAULTS = {
      groupAdd: 'all',
      lastSeen: 'all',
      status: 'all',
      profile: 'all',
      readReceipts: 'all',
      online: 'all',
      callAdd: 'all',
    };

    it('starts open to everyone', async () => {
      const response = await http.get('/users/me/privacy', headers());
      expect(response.status).toBe(200);
      expect(response.body).toEqual(DEFAULTS);
    });

    it('changes one setting at a time and answers all of them', async () => {
      const last = await http.put('/users/me/privacy', { setting: 'last', value: 'contacts' }, headers());
      expect(last.status).toBe(200);
      expect(last.body).toEqual({ ...DEFAULTS, lastSeen: 'contacts' });
      const receipts = await http.put('/users/me/privacy', { setting: 'readreceipts', value: 'none' }, headers());
      expect(receipts.body).toEqual({ ...DEFAULTS, lastSeen: 'contacts', readReceipts: 'none' });
      const online = await http.put('/users/me/privacy', { setting: 'online', value: 'match_last_seen' }, headers());
      const calls = await http.put('/users/me/privacy', { setting: 'calladd', value: 'known' }, headers());
      expect(online.status).toBe(200);
      expect(calls.body).toEqual({ ...DEFAULTS, lastSeen: 'contacts', readReceipts: 'none', online: 'match_last_seen', callAdd: 'known' });
      expect((await http.get('/users/me/privacy', headers())).body).toEqual(calls.body);
      expect(await operationsNamed('users.setPrivacy')).toEqual([
        { setting: 'last', value: 'contacts' },
        { setting: 'readreceipts', value: 'none' },
        { setting: 'online', value: 'match_last_seen' },
        { setting: 'calladd', value: 'known' },
      ]);
    });

    it('takes the setting names as GET spells them too (lastSeen, groupAdd, readReceipts, callAdd)', async () => {
      const before = (await operationsNamed('users.setPrivacy')).length;
      const lastSeen = await http.put('/users/me/privacy', { setting: 'lastSeen', value: 'none' }, headers());
      expect(lastSeen.status).toBe(200);
      expect(lastSeen.body).toEqual({ ...DEFAULTS, lastSeen: 'none', readReceipts: 'none', online: 'match_last_seen', callAdd: 'known' });
      const groupAdd = await http.put('/users/me/privacy', { setting: 'groupAdd', value: 'contacts' }, headers());
      const readReceipts = await http.put('/users/me/privacy', { setting: 'readReceipts', value: 'all' }, headers());
      const callAdd = await http.put('/users/me/privacy', { setting: 'callAdd', value: 'all' }, headers());
      expect([groupAdd.status, readReceipts.status, callAdd.status]).toEqual([200, 200, 200]);
      expect(callAdd.body).toEqual({ ...DEFAULTS, lastSeen: 'none', groupAdd: 'contacts', online: 'match_last_seen' });
      expect((await operationsNamed('users.setPrivacy')).slice(before)).toEqual([
        { setting: 'last', value: 'none' },
        { setting: 'groupadd', value: 'contacts' },
        { setting: 'readreceipts', value: 'all' },
        { setting: 'calladd', value: 'all' },
      ]);
      expectErrorBody(
        await http.put('/users/me/privacy', { setting: 'readReceipts', value: 'contacts' }, headers()),
        400,
        'validation error: value for readReceipts must be one of all, none',
      );
    });
  });

  describe('who is on the network', () => {
    beforeAll(async () => {
      await register({ phone: REGISTERED, pushName: 'Reggie', about: 'Available', picture: true, lid: '900000000001@lid' });
      expect((await http.post('/sandbox/contacts', { id: CONTACT, fullName: 'Connie' }, headers())).status).toBe(201);
      const group = await http.post(
        '/sandbox/groups',
        { name: 'Club', participants: [MEMBER], admins: [MEMBER], selfIsAdmin: false },
        headers(),
      );
      expect(group.status).toBe(201);
      expect((await http.post('/sandbox/inbound', { from: SENDER, type: 'text', text: 'hello' }, headers())).status).toBe(201);
    });

    it('checks many numbers at once, in the order asked, with the JIDs of those registered', async () => {
      const self = world.self(world.connected);
      const phones = [REGISTERED, NOBODY, CONTACT, MEMBER, `+${SENDER}`, self.split('@')[0], REGISTERED];
      const response = await http.post('/users/check', { phones }, headers());
      expect(response.status).toBe(200);
      expect(response.body).toEqual([
        { query: REGISTERED, isInWhatsApp: true, jid: jid(REGISTERED) },
        { query: NOBODY, isInWhatsApp: false },
        { query: CONTACT, isInWhatsApp: true, jid: jid(CONTACT) },
        { query: MEMBER, isInWhatsApp: true, jid: jid(MEMBER) },
        { query: `+${SENDER}`, isInWhatsApp: true, jid: jid(SENDER) },
        { query: self.split('@')[0], isInWhatsApp: true, jid: self },
        { query: REGISTERED, isInWhatsApp: true, jid: jid(REGISTERED) },
      ]);
      expect((await operationsNamed('users.check')).at(-1)).toEqual({
        phones: [REGISTERED, NOBODY, CONTACT, MEMBER, SENDER, self.split('@')[0]],
      });
    });

    it('checks one number', async () => {
      const yes = await http.get(`/users/${REGISTERED}/check`, headers());
      expect(yes.status).toBe(200);
      expect(yes.body).toEqual({ isInWhatsApp: true });
      expect((await http.get(`/users/+${NOBODY}/check`, headers())).body).toEqual({ isInWhatsApp: false });
      expect((await operationsNamed('users.check')).slice(-2)).toEqual([{ phones: [REGISTERED] }, { phones: [NOBODY] }]);
    });

    it('shows a public profile whole', async () => {
      const response = await http.get(`/users/${REGISTERED}/profile`, headers());
      expect(response.status).toBe(200);
      const body = response.body as Record<string, unknown>;
      expect(body).toEqual({
        id: jid(REGISTERED),
        lid: '900000000001@lid',
        phone: REGISTERED,
        isInWhatsApp: true,
        pushName: 'Reggie',
        status: 'Available',
        pictureId: body.pictureId,
        isVerified: false,
      });
      expect(body.pictureId).toMatch(/^\d+$/);
      expect((await operationsNamed('users.profile')).at(-1)).toEqual({ jid: jid(REGISTERED) });
    });

    it('shows what the network learnt of a contact and of a sender', async () => {
      expect((await http.get(`/users/${CONTACT}/profile`, headers())).body).toEqual({
        id: jid(CONTACT),
        phone: CONTACT,
        isInWhatsApp: true,
        isVerified: false,
      });
      await http.post('/sandbox/inbound', { from: SENDER, type: 'text', text: 'again', pushName: 'Sid' }, headers());
      expect((await http.get(`/users/${SENDER}/profile`, headers())).body).toEqual({
        id: jid(SENDER),
        phone: SENDER,
        isInWhatsApp: true,
        pushName: 'Sid',
        isVerified: false,
      });
    });

    it('shows a verified business', async () => {
      await register({ phone: BUSINESS, businessName: 'Acme Ltd', verified: true, about: 'We sell things' });
      expect((await http.get(`/users/${BUSINESS}/profile`, headers())).body).toEqual({
        id: jid(BUSINESS),
        phone: BUSINESS,
        isInWhatsApp: true,
        status: 'We sell things',
        businessName: 'Acme Ltd',
        isVerified: true,
      });
    });

    it('hides about text and picture from those the user does not allow', async () => {
      await register({
        phone: PRIVATE,
        pushName: 'Priya',
        about: 'Secret',
        picture: true,
        privacy: { status: 'contacts', profile: 'none' },
      });
      // What anyone may see: who it is and its push name.
      const publicProfile = (phone: string, pushName: string) => ({
        id: jid(phone),
        phone,
        isInWhatsApp: true,
        pushName,
        isVerified: false,
      });
      expect((await http.get(`/users/${PRIVATE}/profile`, headers())).body).toEqual(publicProfile(PRIVATE, 'Priya'));
      const fred = { phone: FRIEND, pushName: 'Fred', about: 'Friends only', picture: true, savedYou: true };
      await register({ ...fred, privacy: { status: 'contacts', profile: 'contact_blacklist' } });
      const friend = (await http.get(`/users/${FRIEND}/profile`, headers())).body as Record<string, unknown>;
      expect(friend).toEqual({ ...publicProfile(FRIEND, 'Fred'), status: 'Friends only', pictureId: friend.pictureId });
      expect(friend.pictureId).toMatch(/^\d+$/);
      // `none` hides even from people the user saved.
      await register({ ...fred, privacy: { profile: 'none', status: 'none' } });
      expect((await http.get(`/users/${FRIEND}/profile`, headers())).body).toEqual(publicProfile(FRIEND, 'Fred'));
    });

    it('answers 404 for a number not on the network', async () => {
      expectErrorBody(await http.get(`/users/${NOBODY}/profile`, headers()), 404, 'not found');
    });

    it('refuses a registration with an unknown privacy audience', async () => {
      const response = await http.post('/sandbox/users', { phone: NOBODY, privacy: { status: 'friends' } }, headers());
      expectErrorBody(response, 400, 'validation error: privacy.status must be one of all, contacts, contact_blacklist, none');
      expect((await http.get(`/users/${NOBODY}/check`, headers())).body).toEqual({ isInWhatsApp: false });
    });
  });

  describe('tenancy', () => {
    it("keeps one instance's world from another customer's instance", async () => {
      const stranger = headersOf(world.strangerInstance);
      expect((await http.post('/users/check', { phones: [REGISTERED, CONTACT] }, stranger)).body).toEqual([
        { query: REGISTERED, isInWhatsApp: false },
        { query: CONTACT, isInWhatsApp: false },
      ]);
      expectErrorBody(await http.get(`/users/${REGISTERED}/profile`, stranger), 404, 'not found');
      expect((await http.get('/users/me/profile', stranger)).body).toMatchObject({ id: world.self(world.strangerInstance) });
      expect((await http.get('/users/me/privacy', stranger)).body).toMatchObject({ lastSeen: 'all', readReceipts: 'all' });
      expectErrorBody(
        await http.put(
          '/users/me/profile',
          { name: 'Intruder' },
          { 'X-Api-Key': world.stranger.apiKey, 'X-Instance-Id': world.connected.id },
        ),
        401,
        'unauthorized',
      );
      expect((await http.get('/users/me/profile', headers())).body).toMatchObject({ pushName: 'Sandy Box' });
    });
  });
});
