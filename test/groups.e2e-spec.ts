import { describeErrorMatrix, type MatrixEndpoint } from './support/endpoint-matrix';
import { eventLog, type LoggedEvent } from './support/event-log';
import type { Http } from './support/http';
import { headersOf, type InstanceWorld } from './support/instance-world';
import { expectErrorBody } from './support/openapi';
import { useInstanceWorld } from './support/world-suite';

const ANN = '447700900401';
const ANN_JID = `${ANN}@s.whatsapp.net`;
const BOB_JID = '447700900402@s.whatsapp.net';
const CAT_JID = '447700900403@s.whatsapp.net';
const DAN_JID = '447700900404@s.whatsapp.net';
const GROUP = '120363000000000001@g.us';
const ISO = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/;
const LINK = /^https:\/\/chat\.whatsapp\.com\/([A-Za-z0-9_-]{22})$/;
const JPEG = Buffer.from([0xff, 0xd8, 0xff, 0xe0, 0x00, 0x10, 0x4a, 0x46, 0x49, 0x46]).toString('base64');
const BAD_GROUP = 'validation error: id must be a group JID (<id>@g.us)';

const groupPath = (suffix: string) => `/groups/${GROUP}${suffix}`;
const badPath = (suffix: string) => [{ path: `/groups/${ANN_JID}${suffix}`, detail: BAD_GROUP }];
const flag = (route: string): MatrixEndpoint => ({
  method: 'put',
  route: `/groups/{id}/settings/${route}`,
  path: groupPath(`/settings/${route}`),
  body: { enabled: true },
  invalid: [
    { label: 'enabled missing', body: {}, detail: 'validation error: enabled is required' },
    { label: 'enabled as text', body: { enabled: 'yes' }, detail: 'invalid request body' },
  ],
  badPaths: badPath(`/settings/${route}`),
});

const ENDPOINTS: MatrixEndpoint[] = [
  { method: 'get', route: '/groups', path: '/groups' },
  {
    method: 'post',
    route: '/groups',
    path: '/groups',
    body: { name: 'Team', participants: [ANN] },
    invalid: [
      { label: 'name missing', body: { participants: [ANN] }, detail: 'validation error: name is required' },
      {
        label: 'name too long',
        body: { name: 'x'.repeat(101), participants: [ANN] },
        detail: 'validation error: name must be 1-100 characters',
      },
      {
        label: 'no participants',
        body: { name: 'Team', participants: [] },
        detail: 'validation error: participants must name at least one person',
      },
      {
        label: 'participant not a user',
        body: { name: 'Team', participants: ['bob'] },
        detail: 'validation error: participants[0] must be a user JID or an international number',
      },
      { label: 'participants as text', body: { name: 'Team', participants: ANN }, detail: 'invalid request body' },
    ],
  },
  { method: 'get', route: '/groups/{id}', path: groupPath(''), badPaths: badPath('') },
  { method: 'get', route: '/groups/{id}/participants', path: groupPath('/participants'), badPaths: badPath('/participants') },
  {
    method: 'put',
    route: '/groups/{id}/participants',
    path: groupPath('/participants'),
    body: { participants: [ANN], action: 'add' },
    invalid: [
      { label: 'action missing', body: { participants: [ANN] }, detail: 'validation error: action is required' },
      {
        label: 'unknown action',
        body: { participants: [ANN], action: 'kick' },
        detail: 'validation error: action must be one of add, remove, promote, demote',
      },
      { label: 'participants missing', body: { action: 'add' }, detail: 'validation error: participants is required' },
      {
        label: 'empty participants',
        body: { participants: [], action: 'add' },
        detail: 'validation error: participants must name at least one person',
      },
      {
        label: 'a group as participant',
        body: { participants: [ANN, GROUP], action: 'add' },
        detail: 'validation error: participants[1] must be a user JID or an international number',
      },
      { label: 'participants as numbers', body: { participants: [447700900401], action: 'add' }, detail: 'invalid request body' },
    ],
    badPaths: badPath('/participants'),
  },
  { method: 'get', route: '/groups/{id}/invite-link', path: groupPath('/invite-link'), badPaths: badPath('/invite-link') },
  {
    method: 'post',
    route: '/groups/{id}/invite-link/reset',
    path: groupPath('/invite-link/reset'),
    badPaths: badPath('/invite-link/reset'),
  },
  {
    method: 'put',
    route: '/groups/{id}/name',
    path: groupPath('/name'),
    body: { name: 'New name' },
    invalid: [
      { label: 'name missing', body: {}, detail: 'validation error: name is required' },
      { label: 'name empty', body: { name: '' }, detail: 'validation error: name must be 1-100 characters' },
    ],
    badPaths: badPath('/name'),
  },
  {
    method: 'put',
    route: '/groups/{id}/description',
    path: groupPath('/description'),
    body: { description: 'About us' },
    invalid: [
      { label: 'description missing', body: {}, detail: 'validation error: description is required' },
      {
        label: 'description too long',
        body: { description: 'x'.repeat(2049) },
        detail: 'validation error: description must be at most 2048 characters',
      },
    ],
    badPaths: badPath('/description'),
  },
  {
    method: 'post',
    route: '/groups/{id}/picture',
    path: groupPath('/picture'),
    body: { data: JPEG },
    invalid: [
      { label: 'data missing', body: {}, detail: 'validation error: data is required' },
      {
        label: 'not a JPEG',
        body: { data: Buffer.from('GIF89a....').toString('base64') },
        detail: 'validation error: data must be a base64-encoded JPEG image',
      },
      { label: 'not base64', body: { data: '***' }, detail: 'validation error: data must be a base64-encoded JPEG image' },
    ],
    badPaths: badPath('/picture'),
  },
  { method: 'post', route: '/groups/{id}/leave', path: groupPath('/leave'), badPaths: badPath('/leave') },
  flag('announce'),
  flag('locked'),
  flag('join-approval'),
  {
    method: 'put',
    route: '/groups/{id}/settings/member-add-mode',
    path: groupPath('/settings/member-add-mode'),
    body: { onlyAdminAdd: false },
    invalid: [{ label: 'onlyAdminAdd missing', body: {}, detail: 'validation error: onlyAdminAdd is required' }],
    badPaths: badPath('/settings/member-add-mode'),
  },
  {
    method: 'post',
    route: '/groups/join/link',
    path: '/groups/join/link',
    body: { code: 'AbCdEfGhIjKlMnOpQrStUv' },
    invalid: [
      { label: 'code missing', body: {}, detail: 'validation error: code is required' },
      { label: 'code malformed', body: { code: 'not a code!' }, detail: 'validation error: code must be an invite code or link' },
    ],
  },
  {
    method: 'post',
    route: '/groups/join/invite',
    path: '/groups/join/invite',
    body: { groupId: GROUP, inviterId: ANN, code: 'AbCdEfGhIjKlMnOpQrStUv' },
    invalid: [
      { label: 'inviterId missing', body: { groupId: GROUP, code: 'abc' }, detail: 'validation error: inviterId is required' },
      {
        label: 'groupId not a group',
        body: { groupId: ANN, inviterId: ANN, code: 'abc' },
        detail: 'validation error: groupId must be a group JID (<id>@g.us)',
      },
      {
        label: 'expiration as text',
        body: { groupId: GROUP, inviterId: ANN, code: 'abc', expiration: 'soon' },
        detail: 'invalid request body',
      },
    ],
  },
  {
    method: 'get',
    route: '/groups/invite/{code}',
    path: '/groups/invite/AbCdEfGhIjKlMnOpQrStUv',
    badPaths: [{ path: '/groups/invite/bad.code', detail: 'validation error: code must be an invite code' }],
  },
  { method: 'get', route: '/groups/{id}/requests', path: groupPath('/requests'), badPaths: badPath('/requests') },
  {
    method: 'put',
    route: '/groups/{id}/requests',
    path: groupPath('/requests'),
    body: { participants: [ANN], action: 'approve' },
    invalid: [
      {
        label: 'unknown action',
        body: { participants: [ANN], action: 'maybe' },
        detail: 'validation error: action must be one of approve, reject',
      },
      { label: 'participants missing', body: { action: 'reject' }, detail: 'validation error: participants is required' },
    ],
    badPaths: badPath('/requests'),
  },
];

describe('groups', () => {
  let http: Http;
  let world: InstanceWorld;
  useInstanceWorld('1555034', (suite) => ({ http, world } = suite));

  const headers = () => headersOf(world.connected);
  const self = () => world.self(world.connected);
  const groupEvents = async (groupId: string): Promise<LoggedEvent[]> =>
    (await eventLog(world.connected.id)).filter((event) => event.eventType === 'group' && event.data.id === groupId);
  const groupOperations = async (groupId: string) =>
    (await world.operations(world.connected))
      .filter((operation) => operation.args.groupId === groupId)
      .map(({ name, args }) => ({ name, args }));
  const info = async (groupId: string) => (await http.get(`/groups/${groupId}`, headers())).body as Record<string, unknown>;
  const who = (jid: string) => ({ id: jid, phone: jid.split('@')[0] });
  const me = () => ({ ...who(self()), isMe: true });

  async function sandboxGroup(spec: Record<string, unknown>): Promise<string> {
    const created = await http.post('/sandbox/groups', spec, headers());
    expect(created.status).toBe(201);
    return (created.body as { id: string }).id;
  }

  describe('the admin flow: create, add, promote, demote, remove, reset the invite link', () => {
    let groupId: string;
    let createdAt: string;

    it('creates the group with this account as its creator', async () => {
      const created = await http.post('/groups', { name: 'Project team', participants: [ANN, BOB_JID, ANN] }, headers());
      expect(created.status).toBe(201);
      const body = created.body as { groupId: string; createdAt: string };
      groupId = body.groupId;
      createdAt = body.createdAt;
      expect(groupId).toMatch(/^120363\d{15}@g\.us$/);
      expect(createdAt).toMatch(ISO);
      expect(body).toEqual({
        id: groupId,
        groupId,
        owner: { id: self() },
        name: 'Project team',
        createdAt,
        isAnnounce: false,
        isLocked: false,
        isEphemeral: false,
        ephemeralExpiration: 0,
        participants: [
          { id: self(), isAdmin: true, isSuperAdmin: true },
          { id: ANN_JID, isAdmin: false, isSuperAdmin: false },
          { id: BOB_JID, isAdmin: false, isSuperAdmin: false },
        ].sort((a, b) => a.id.localeCompare(b.id)),
        isAnnouncementGroup: false,
        isCommunity: false,
        isJoinApprovalRequired: false,
        memberAddMode: 'admin_add',
      });
      // The members alone, as the family's SDKs read them.
      expect((await http.get(`/groups/${groupId}/participants`, headers())).body).toEqual(
        (created.body as { participants: unknown }).participants,
      );
      const events = await groupEvents(groupId);
      expect(events.map((event) => event.data)).toEqual([
        {
          id: groupId,
          sender: me(),
          timestamp: expect.stringMatching(ISO),
          groupType: 'new',
          name: { name: 'Project team' },
          join: [who(self()), who(ANN_JID), who(BOB_JID)],
        },
      ]);
      const chat = await http.get(`/chats/${groupId}`, headers());
      expect(chat.body).toMatchObject({ id: groupId, isGroup: true });
      const { id: _id, ...info } = created.body as Record<string, unknown>;
      expect(await http.get('/groups', headers())).toMatchObject({ status: 200, body: expect.arrayContaining([info]) });
    });

    it('adds, promotes, demotes and removes members, one group event each', async () => {
      const steps = [
        { participants: [CAT_JID, DAN_JID.split('@')[0]], action: 'add' },
        { participants: [CAT_JID], action: 'promote' },
        { participants: [CAT_JID], action: 'demote' },
        { participants: [DAN_JID], action: 'remove' },
      ];
      for (const step of steps) {
        const response = await http.put(`/groups/${groupId}/participants`, step, headers());
        expect(response.status).toBe(204);
        expect(response.body).toEqual({});
      }
      const events = (await groupEvents(groupId)).slice(1).map(({ data }) => {
        const { timestamp, ...rest } = data;
        expect(timestamp).toMatch(ISO);
        return rest;
      });
      expect(events).toEqual([
        { id: groupId, sender: me(), join: [who(CAT_JID), who(DAN_JID)] },
        { id: groupId, sender: me(), promote: [who(CAT_JID)] },
        { id: groupId, sender: me(), demote: [who(CAT_JID)] },
        { id: groupId, sender: me(), leave: [who(DAN_JID)] },
      ]);
      expect((await info(groupId)).participants).toEqual(
        [
          { id: self(), isAdmin: true, isSuperAdmin: true },
          { id: ANN_JID, isAdmin: false, isSuperAdmin: false },
          { id: BOB_JID, isAdmin: false, isSuperAdmin: false },
          { id: CAT_JID, isAdmin: false, isSuperAdmin: false },
        ].sort((a, b) => a.id.localeCompare(b.id)),
      );
      expect(await groupOperations(groupId)).toEqual([
        { name: 'groups.info', args: { groupId } }, // GET /groups/{id}/participants after the creation
        { name: 'groups.participants', args: { groupId, participants: [CAT_JID, DAN_JID], action: 'add' } },
        { name: 'groups.participants', args: { groupId, participants: [CAT_JID], action: 'promote' } },
        { name: 'groups.participants', args: { groupId, participants: [CAT_JID], action: 'demote' } },
        { name: 'groups.participants', args: { groupId, participants: [DAN_JID], action: 'remove' } },
        { name: 'groups.info', args: { groupId } },
      ]);
    });

    it('refuses members who are not there, naming them, and changes nothing', async () => {
      const before = await info(groupId);
      const missing = await http.put(`/groups/${groupId}/participants`, { participants: [DAN_JID, CAT_JID], action: 'promote' }, headers());
      expectErrorBody(missing, 400, `validation error: participants not in the group: ${DAN_JID}`);
      const present = await http.put(`/groups/${groupId}/participants`, { participants: [ANN], action: 'add' }, headers());
      expectErrorBody(present, 400, `validation error: participants already in the group: ${ANN_JID}`);
      expect(await info(groupId)).toEqual(before);
    });

    it('resets the invite link: a new code, the old one no longer leads anywhere', async () => {
      const current = await http.get(`/groups/${groupId}/invite-link`, headers());
      expect(current.status).toBe(200);
      const oldCode = LINK.exec((current.body as { link: string }).link)?.[1];
      expect(oldCode).toBeDefined();
      const preview = await http.get(`/groups/invite/${oldCode}`, headers());
      expect(preview.status).toBe(200);
      expect((preview.body as { groupId: string }).groupId).toBe(groupId);

      const reset = await http.post(`/groups/${groupId}/invite-link/reset`, undefined, headers());
      expect(reset.status).toBe(200);
      expect(reset.body).toEqual({ link: expect.stringMatching(LINK) });
      const newCode = LINK.exec((reset.body as { link: string }).link)?.[1];
      expect(newCode).not.toBe(oldCode);
      expect((await http.get(`/groups/${groupId}/invite-link`, headers())).body).toEqual(reset.body);
      expectErrorBody(await http.get(`/groups/invite/${oldCode}`, headers()), 404, 'not found');
      expectErrorBody(await http.post('/groups/join/link', { code: oldCode }, headers()), 404, 'not found');
      expect((await http.get(`/groups/invite/${newCode}`, headers())).body).toMatchObject({ groupId, name: 'Project team' });
    });

    it('changes name, description, picture and settings, each with its event', async () => {
      expect((await http.put(`/groups/${groupId}/name`, { name: 'Renamed' }, headers())).status).toBe(204);
      expect((await http.put(`/groups/${groupId}/description`, { description: 'What we do' }, headers())).status).toBe(204);
      const picture = await http.post(`/groups/${groupId}/picture`, { data: JPEG }, headers());
      expect(picture.status).toBe(200);
      expect(picture.body).toEqual({ pictureId: expect.stringMatching(/^\d+$/) });
      for (const setting of ['announce', 'locked', 'join-approval'])
        expect((await http.put(`/groups/${groupId}/settings/${setting}`, { enabled: true }, headers())).status).toBe(204);
      expect((await http.put(`/groups/${groupId}/settings/member-add-mode`, { onlyAdminAdd: false }, headers())).status).toBe(204);

      expect(await info(groupId)).toMatchObject({
        name: 'Renamed',
        description: 'What we do',
        isAnnounce: true,
        isLocked: true,
        isJoinApprovalRequired: true,
        memberAddMode: 'all_member_add',
      });
      const changes = (await groupEvents(groupId)).slice(5).map(({ data }) => {
        const { id, sender, timestamp, ...change } = data;
        expect({ id, sender, timestamp }).toEqual({ id: groupId, sender: me(), timestamp: expect.stringMatching(ISO) });
        return change;
      });
      expect(changes).toEqual([
        { name: { name: 'Renamed' } },
        { description: { topic: 'What we do' } },
        { announce: { isAnnounce: true } },
        { locked: { isLocked: true } },
        { membershipApproval: { isRequired: true } },
      ]);
      const pictures = (await eventLog(world.connected.id)).filter(
        (event) => event.eventType === 'chat_picture' && event.data.id === groupId,
      );
      expect(pictures.map((event) => event.data)).toEqual([
        { id: groupId, sender: me(), pictureId: (picture.body as { pictureId: string }).pictureId },
      ]);
    });

    it('lists, approves and rejects join requests', async () => {
      for (const from of [DAN_JID, '447700900405'])
        expect((await http.post(`/sandbox/groups/${groupId}/join-requests`, { from }, headers())).status).toBe(201);
      const pending = await http.get(`/groups/${groupId}/requests`, headers());
      expect(pending.status).toBe(200);
      expect(pending.body).toEqual([
        { user: { id: DAN_JID }, requestedAt: expect.stringMatching(ISO) },
        { user: { id: '447700900405@s.whatsapp.net' }, requestedAt: expect.stringMatching(ISO) },
      ]);
      const unknown = await http.put(`/groups/${groupId}/requests`, { participants: [BOB_JID], action: 'approve' }, headers());
      expectErrorBody(unknown, 400, `validation error: participants without a pending join request: ${BOB_JID}`);
      expect((await http.put(`/groups/${groupId}/requests`, { participants: [DAN_JID], action: 'approve' }, headers())).status).toBe(204);
      expect((await http.put(`/groups/${groupId}/requests`, { participants: ['447700900405'], action: 'reject' }, headers())).status).toBe(
        204,
      );
      expect((await http.get(`/groups/${groupId}/requests`, headers())).body).toEqual([]);
      const last = (await groupEvents(groupId)).at(-1)?.data;
      expect(last).toMatchObject({ id: groupId, sender: me(), joinReason: 'approval', join: [{ id: DAN_JID }] });
      expect((await info(groupId)).participants).toContainEqual({ id: DAN_JID, isAdmin: false, isSuperAdmin: false });
    });

    it('leaves the group: it is then unknown to this account', async () => {
      const left = await http.post(`/groups/${groupId}/leave`, undefined, headers());
      expect(left.status).toBe(204);
      expect((await groupEvents(groupId)).at(-1)?.data).toMatchObject({ id: groupId, sender: me(), leave: [{ id: self() }] });
      expectErrorBody(await http.get(`/groups/${groupId}`, headers()), 404, 'not found');
      const listed = (await http.get('/groups', headers())).body as { groupId: string }[];
      expect(listed.map((group) => group.groupId)).not.toContain(groupId);
    });
  });

  describe('a group where this account is not an admin', () => {
    let groupId: string;

    beforeAll(async () => {
      groupId = await sandboxGroup({ name: 'Their group', participants: [ANN, BOB_JID], admins: [ANN], selfIsAdmin: false });
    });

    it.each([
      ['put', '/participants', { participants: [CAT_JID], action: 'add' }],
      ['put', '/participants', { participants: [BOB_JID], action: 'remove' }],
      ['put', '/participants', { participants: [BOB_JID], action: 'promote' }],
      ['put', '/participants', { participants: [ANN], action: 'demote' }],
      ['post', '/invite-link/reset', undefined],
      ['get', '/invite-link', undefined],
      ['put', '/settings/announce', { enabled: true }],
      ['put', '/settings/locked', { enabled: true }],
      ['put', '/settings/join-approval', { enabled: true }],
      ['put', '/settings/member-add-mode', { onlyAdminAdd: false }],
      ['get', '/requests', undefined],
      ['put', '/requests', { participants: [CAT_JID], action: 'approve' }],
    ] as const)('%s %s is 403 and changes nothing', async (method, suffix, body) => {
      const before = await info(groupId);
      const eventsBefore = await groupEvents(groupId);
      const path = `/groups/${groupId}${suffix}`;
      const response = method === 'get' ? await http.get(path, headers()) : await http[method](path, body, headers());
      expectErrorBody(response, 403, 'forbidden: not a group admin');
      expect(await info(groupId)).toEqual(before);
      expect(await groupEvents(groupId)).toEqual(eventsBefore);
      expect((await groupOperations(groupId)).filter((operation) => operation.name !== 'groups.info')).toEqual([]);
    });

    it('may rename while unlocked, not once an admin locked the group', async () => {
      expect((await http.put(`/groups/${groupId}/name`, { name: 'Our group' }, headers())).status).toBe(204);
      expect(await http.post(`/sandbox/groups/${groupId}/changes`, { by: ANN, locked: true }, headers())).toMatchObject({ status: 204 });
      expectErrorBody(
        await http.put(`/groups/${groupId}/name`, { name: 'Mine' }, headers()),
        403,
        'forbidden: not a group admin (group info is locked)',
      );
      expect(await info(groupId)).toMatchObject({ name: 'Our group', isLocked: true });
    });

    it('is 404 for a group this account is not in', async () => {
      expectErrorBody(await http.get(groupPath(''), headers()), 404, 'not found');
      expectErrorBody(await http.put(groupPath('/participants'), { participants: [ANN], action: 'add' }, headers()), 404, 'not found');
      expectErrorBody(await http.post(groupPath('/invite-link/reset'), undefined, headers()), 404, 'not found');
    });
  });

  describe('joining', () => {
    it('joins by link and by an invite message after leaving; each join is a group event', async () => {
      const groupId = await sandboxGroup({ name: 'Club', participants: [ANN], admins: [ANN], selfIsAdmin: true });
      const link = ((await http.get(`/groups/${groupId}/invite-link`, headers())).body as { link: string }).link;
      const code = LINK.exec(link)?.[1] as string;
      expect((await http.post(`/groups/${groupId}/leave`, undefined, headers())).status).toBe(204);
      expectErrorBody(await http.get(`/groups/${groupId}`, headers()), 404, 'not found');

      const joined = await http.post('/groups/join/link', { code: link }, headers());
      expect(joined.status).toBe(201);
      expect(joined.body).toEqual({ id: groupId });
      expect((await groupEvents(groupId)).at(-1)?.data).toMatchObject({ sender: me(), joinReason: 'invite', join: [{ id: self() }] });
      expect((await info(groupId)).participants).toContainEqual({ id: self(), isAdmin: false, isSuperAdmin: false });
      expectErrorBody(
        await http.post('/groups/join/link', { code }, headers()),
        400,
        `validation error: already a participant of ${groupId}`,
      );

      expect((await http.post(`/groups/${groupId}/leave`, undefined, headers())).status).toBe(204);
      const invite = await http.post('/groups/join/invite', { groupId, inviterId: ANN, code }, headers());
      expect(invite.status).toBe(204);
      expect((await info(groupId)).participants).toContainEqual({ id: self(), isAdmin: false, isSuperAdmin: false });
      expect((await http.get(`/chats/${groupId}`, headers())).body).toMatchObject({ id: groupId, isGroup: true });
    });
  });

  describe('communities', () => {
    it('adding someone to a sub-group makes them a community member; removing them from every sub-group takes them out', async () => {
      const communityId = await sandboxGroup({ name: 'Neighbours', participants: [ANN], admins: [], selfIsAdmin: true, community: true });
      const groups = (await http.get('/groups', headers())).body as {
        groupId: string;
        communityId?: string;
        isAnnouncementGroup: boolean;
        name: string;
      }[];
      const announcement = groups.find((group) => group.communityId === communityId && group.isAnnouncementGroup);
      const general = groups.find((group) => group.communityId === communityId && !group.isAnnouncementGroup);
      expect(announcement && general).toBeTruthy();
      const announcementId = announcement?.groupId as string;
      const generalId = general?.groupId as string;
      const members = async () =>
        ((await http.get(`/communities/${communityId}/participants`, headers())).body as { id: string }[]).map((member) => member.id);

      expect(await members()).not.toContain(CAT_JID);
      expect((await http.put(`/groups/${generalId}/participants`, { participants: [CAT_JID], action: 'add' }, headers())).status).toBe(204);
      expect(await members()).toContain(CAT_JID);
      expect((await info(announcementId)).participants).toContainEqual({ id: CAT_JID, isAdmin: false, isSuperAdmin: false });
      expect((await groupEvents(communityId)).at(-1)?.data).toMatchObject({ id: communityId, join: [{ id: CAT_JID }] });

      expect((await http.put(`/groups/${generalId}/participants`, { participants: [CAT_JID], action: 'remove' }, headers())).status).toBe(
        204,
      );
      expect(await members()).not.toContain(CAT_JID);
      expect((await info(announcementId)).participants).not.toContainEqual(expect.objectContaining({ id: CAT_JID }));
      expect((await groupEvents(communityId)).at(-1)?.data).toMatchObject({ id: communityId, leave: [{ id: CAT_JID }] });
    });
  });

  describe('tenancy', () => {
    it("another customer's instance or key can neither see nor change this instance's groups", async () => {
      const groupId = await sandboxGroup({ name: 'Private', participants: [ANN], admins: [], selfIsAdmin: true });
      const before = await info(groupId);
      const strangerHeaders = headersOf(world.strangerInstance);
      expectErrorBody(await http.get(`/groups/${groupId}`, strangerHeaders), 404, 'not found');
      expectErrorBody(
        await http.put(`/groups/${groupId}/participants`, { participants: [BOB_JID], action: 'add' }, strangerHeaders),
        404,
        'not found',
      );
      const listed = (await http.get('/groups', strangerHeaders)).body as { groupId: string }[];
      expect(listed.map((group) => group.groupId)).not.toContain(groupId);
      const mixed = { 'X-Api-Key': world.strangerInstance.apiKey, 'X-Instance-Id': world.connected.id };
      expectErrorBody(await http.post(`/groups/${groupId}/invite-link/reset`, undefined, mixed), 401, 'unauthorized');
      expect(await info(groupId)).toEqual(before);
      expect(await world.operations(world.strangerInstance)).toEqual(
        expect.not.arrayContaining([expect.objectContaining({ name: 'groups.participants' })]),
      );
    });
  });

  describeErrorMatrix('groups', ENDPOINTS, () => world);
});
