import { describeErrorMatrix, type MatrixEndpoint } from './support/endpoint-matrix';
import { eventLog, eventually, type LoggedEvent } from './support/event-log';
import type { Http } from './support/http';
import { headersOf, type InstanceWorld } from './support/instance-world';
import { expectErrorBody } from './support/openapi';
import { useInstanceWorld } from './support/world-suite';

const PHONE = { ann: '15550359101', bob: '15550359102', cat: '15550359103', dan: '15550359104', eve: '15550359105' };
const jid = (phone: string) => `${phone}@s.whatsapp.net`;
const ANN = jid(PHONE.ann);
const BOB = jid(PHONE.bob);
const CAT = jid(PHONE.cat);
const DAN = jid(PHONE.dan);
const EVE = jid(PHONE.eve);
const ISO = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/;
const GROUP_JID = /^\d+@g\.us$/;
const NO_COMMUNITY = '120363000000000001@g.us';
const JPEG = Buffer.from([0xff, 0xd8, 0xff, 0xe0, 0x00, 0x10, 0x4a, 0x46, 0x49, 0x46]).toString('base64');
const ADD_DETAIL =
  'validation error: action add is not supported on a community: add or remove members with PUT /groups/{subGroupId}/participants on one of its sub-groups';
const BAD_ID = 'validation error: id must be a group JID (<id>@g.us)';

const member = (id: string, role: 'member' | 'admin' | 'owner' = 'member') => ({
  id,
  phone: id.split('@')[0],
  isAdmin: role !== 'member',
  isSuperAdmin: role === 'owner',
});

const withBadId = (suffix: string) => [{ path: `/communities/not-a-group${suffix}`, detail: BAD_ID }];

const ENDPOINTS: MatrixEndpoint[] = [
  { method: 'get', route: '/communities', path: '/communities' },
  {
    method: 'post',
    route: '/communities',
    path: '/communities',
    body: { name: 'Street', participants: [PHONE.ann] },
    invalid: [
      { label: 'name missing', body: {}, detail: 'validation error: name is required' },
      { label: 'empty name', body: { name: '' }, detail: 'validation error: name must be 1-100 characters' },
      { label: 'name as number', body: { name: 5 }, detail: 'invalid request body' },
      {
        label: 'a bad participant',
        body: { name: 'Street', participants: [PHONE.ann, 'nobody'] },
        detail: 'validation error: participants[1] must be a user JID or an international number',
      },
      {
        label: 'unknown approval mode',
        body: { name: 'Street', approvalMode: 'maybe' },
        detail: 'validation error: approvalMode must be on or off',
      },
    ],
  },
  { method: 'get', route: '/communities/{id}', path: `/communities/${NO_COMMUNITY}`, badPaths: withBadId('') },
  { method: 'post', route: '/communities/{id}/leave', path: `/communities/${NO_COMMUNITY}/leave`, badPaths: withBadId('/leave') },
  {
    method: 'put',
    route: '/communities/{id}/name',
    path: `/communities/${NO_COMMUNITY}/name`,
    body: { name: 'New' },
    invalid: [
      { label: 'name missing', body: {}, detail: 'validation error: name is required' },
      { label: 'name too long', body: { name: 'x'.repeat(101) }, detail: 'validation error: name must be 1-100 characters' },
    ],
    badPaths: withBadId('/name'),
  },
  {
    method: 'put',
    route: '/communities/{id}/description',
    path: `/communities/${NO_COMMUNITY}/description`,
    body: { description: 'About us' },
    invalid: [
      { label: 'description missing', body: {}, detail: 'validation error: description is required' },
      {
        label: 'description too long',
        body: { description: 'x'.repeat(2049) },
        detail: 'validation error: description must be at most 2048 characters',
      },
    ],
    badPaths: withBadId('/description'),
  },
  {
    method: 'post',
    route: '/communities/{id}/picture',
    path: `/communities/${NO_COMMUNITY}/picture`,
    body: { data: JPEG },
    invalid: [
      { label: 'data missing', body: {}, detail: 'validation error: data is required' },
      {
        label: 'data not a JPEG',
        body: { data: Buffer.from('not a picture').toString('base64') },
        detail: 'validation error: data must be a base64-encoded JPEG image',
      },
      { label: 'data not base64', body: { data: '%%%' }, detail: 'validation error: data must be a base64-encoded JPEG image' },
    ],
    badPaths: withBadId('/picture'),
  },
  {
    method: 'put',
    route: '/communities/{id}/settings/locked',
    path: `/communities/${NO_COMMUNITY}/settings/locked`,
    body: { enabled: true },
    invalid: [
      { label: 'enabled missing', body: {}, detail: 'validation error: enabled is required' },
      { label: 'enabled as text', body: { enabled: 'yes' }, detail: 'invalid request body' },
    ],
    badPaths: withBadId('/settings/locked'),
  },
  {
    method: 'get',
    route: '/communities/{id}/participants',
    path: `/communities/${NO_COMMUNITY}/participants`,
    badPaths: withBadId('/participants'),
  },
  {
    method: 'put',
    route: '/communities/{id}/participants',
    path: `/communities/${NO_COMMUNITY}/participants`,
    body: { participants: [PHONE.ann], action: 'promote' },
    invalid: [
      { label: 'action add', body: { participants: [PHONE.ann], action: 'add' }, detail: ADD_DETAIL },
      {
        label: 'action remove',
        body: { participants: [PHONE.ann], action: 'remove' },
        detail: ADD_DETAIL.replace('action add', 'action remove'),
      },
      {
        label: 'unknown action',
        body: { participants: [PHONE.ann], action: 'kick' },
        detail: 'validation error: action must be promote or demote',
      },
      { label: 'action missing', body: { participants: [PHONE.ann] }, detail: 'validation error: action is required' },
      { label: 'participants missing', body: { action: 'promote' }, detail: 'validation error: participants is required' },
      {
        label: 'no participants',
        body: { participants: [], action: 'promote' },
        detail: 'validation error: participants must name at least one person',
      },
      {
        label: 'a bad participant',
        body: { participants: ['ann'], action: 'promote' },
        detail: 'validation error: participants[0] must be a user JID or an international number',
      },
      { label: 'participants as text', body: { participants: PHONE.ann, action: 'promote' }, detail: 'invalid request body' },
    ],
    badPaths: withBadId('/participants'),
  },
  {
    method: 'get',
    route: '/communities/{id}/invite-link',
    path: `/communities/${NO_COMMUNITY}/invite-link`,
    badPaths: withBadId('/invite-link'),
  },
  {
    method: 'post',
    route: '/communities/{id}/invite-link/reset',
    path: `/communities/${NO_COMMUNITY}/invite-link/reset`,
    badPaths: withBadId('/invite-link/reset'),
  },
  { method: 'get', route: '/communities/{id}/groups', path: `/communities/${NO_COMMUNITY}/groups`, badPaths: withBadId('/groups') },
  {
    method: 'post',
    route: '/communities/{id}/groups',
    path: `/communities/${NO_COMMUNITY}/groups`,
    body: { name: 'Parents', participants: [PHONE.dan] },
    invalid: [
      { label: 'name missing', body: {}, detail: 'validation error: name is required' },
      {
        label: 'a bad participant',
        body: { name: 'Parents', participants: ['dan'] },
        detail: 'validation error: participants[0] must be a user JID or an international number',
      },
    ],
    badPaths: withBadId('/groups'),
  },
  {
    method: 'post',
    route: '/communities/{id}/groups/link',
    path: `/communities/${NO_COMMUNITY}/groups/link`,
    body: { groupId: '120363000000000002@g.us' },
    invalid: [
      { label: 'groupId missing', body: {}, detail: 'validation error: groupId is required' },
      { label: 'groupId a person', body: { groupId: ANN }, detail: 'validation error: groupId must be a group JID (<id>@g.us)' },
    ],
    badPaths: withBadId('/groups/link'),
  },
  {
    method: 'delete',
    route: '/communities/{id}/groups/{groupId}',
    path: `/communities/${NO_COMMUNITY}/groups/120363000000000002@g.us`,
    badPaths: [
      ...withBadId('/groups/120363000000000002@g.us'),
      { path: `/communities/${NO_COMMUNITY}/groups/${PHONE.ann}`, detail: 'validation error: groupId must be a group JID (<id>@g.us)' },
    ],
  },
];

describe('communities', () => {
  let http: Http;
  let world: InstanceWorld;
  let SELF: string;
  useInstanceWorld('1555035', (suite) => {
    ({ http, world } = suite);
    SELF = world.self(world.connected);
  });

  const headers = () => headersOf(world.connected);
  const info = async (id: string) => (await http.get(`/communities/${id}`, headers())).body as Record<string, unknown>;
  const me = () => ({ id: SELF, phone: SELF.split('@')[0], isMe: true });
  const groupEvents = async (id: string, since = 0): Promise<LoggedEvent['data'][]> =>
    (await eventLog(world.connected.id))
      .filter((event) => event.eventType === 'group' && event.data.id === id && Number(event.seq) > since)
      .map((event) => event.data);
  const lastSeq = async () => Number((await eventLog(world.connected.id)).at(-1)?.seq ?? 0);
  const journal = async (prefix: string) =>
    (await world.operations(world.connected))
      .filter((operation) => operation.name.startsWith(prefix))
      .map(({ name, args }) => ({ name, args }));
  const withoutTime = (events: LoggedEvent['data'][]) =>
    events.map(({ timestamp, ...rest }) => {
      expect(timestamp).toMatch(ISO);
      return rest;
    });

  describe('a community this account creates', () => {
    let communityId: string;
    let createdBody: Record<string, unknown>;
    /** The community as the 201 described it, without the `id` only the 201 carries. */
    let created: Record<string, unknown>;
    let groups: { groupId: string; name: string; nameSetAt: string; isAnnouncementGroup: boolean }[];

    beforeAll(async () => {
      const response = await http.post('/communities', { name: 'Neighbours', participants: [PHONE.ann, BOB, PHONE.ann] }, headers());
      expect(response.status).toBe(201);
      createdBody = response.body as Record<string, unknown>;
      const { id: _id, ...info } = createdBody;
      created = info;
      communityId = created.communityId as string;
      groups = (await http.get(`/communities/${communityId}/groups`, headers())).body as typeof groups;
    });

    it('answers 201 with the community: this account owns it, the participants are members', () => {
      expect(createdBody).toEqual({
        id: communityId,
        communityId: expect.stringMatching(GROUP_JID),
        owner: { id: SELF, phone: SELF.split('@')[0] },
        name: 'Neighbours',
        created: expect.stringMatching(ISO),
        isLocked: false,
        communityApprovalMode: 'off',
        participants: [member(SELF, 'owner'), member(ANN), member(BOB)],
      });
    });

    it('has an announcement group and a default General group, and reports each as a new group', async () => {
      expect(groups).toEqual([
        { groupId: expect.stringMatching(GROUP_JID), name: 'Neighbours', nameSetAt: expect.stringMatching(ISO), isAnnouncementGroup: true },
        { groupId: expect.stringMatching(GROUP_JID), name: 'General', nameSetAt: expect.stringMatching(ISO), isAnnouncementGroup: false },
      ]);
      const people = [SELF, ANN, BOB].map((id) => ({ id, phone: id.split('@')[0] }));
      expect(withoutTime(await groupEvents(communityId))).toEqual([
        { id: communityId, sender: me(), groupType: 'new', isCommunity: true, name: { name: 'Neighbours' }, join: people },
      ]);
      expect(withoutTime(await groupEvents(groups[1].groupId))).toEqual([
        {
          id: groups[1].groupId,
          sender: me(),
          groupType: 'new',
          communityId,
          isAnnouncementGroup: false,
          name: { name: 'General' },
          join: people,
        },
      ]);
      expect(await journal('communities.create')).toEqual([
        { name: 'communities.create', args: { name: 'Neighbours', participants: [ANN, BOB], approvalMode: 'off' } },
      ]);
    });

    it('reads the same community back, alone and in the list, with its members', async () => {
      expect(await info(communityId)).toEqual(created);
      const list = (await http.get('/communities', headers())).body as { communityId: string }[];
      expect(list.find((entry) => entry.communityId === communityId)).toEqual(created);
      const participants = await http.get(`/communities/${communityId}/participants`, headers());
      expect(participants.status).toBe(200);
      expect(participants.body).toEqual([SELF, ANN, BOB].map((id) => ({ id, phone: id.split('@')[0] })));
    });

    it('promotes and demotes community admins: 204, the info shows it, group events follow, the network carried it out', async () => {
      const since = await lastSeq();
      const promoted = await http.put(
        `/communities/${communityId}/participants`,
        { participants: [PHONE.ann], action: 'promote' },
        headers(),
      );
      expect(promoted.status).toBe(204);
      expect(promoted.body).toEqual({});
      expect(await info(communityId)).toEqual({ ...created, participants: [member(SELF, 'owner'), member(ANN, 'admin'), member(BOB)] });

      expect(
        (await http.put(`/communities/${communityId}/participants`, { participants: [ANN], action: 'demote' }, headers())).status,
      ).toBe(204);
      expect(await info(communityId)).toEqual(created);

      const ann = { id: ANN, phone: PHONE.ann };
      expect(withoutTime(await groupEvents(communityId, since))).toEqual([
        { id: communityId, sender: me(), promote: [ann] },
        { id: communityId, sender: me(), demote: [ann] },
      ]);
      expect(await journal('communities.participants')).toEqual([
        { name: 'communities.participants', args: { communityId, participants: [ANN], action: 'promote' } },
        { name: 'communities.participants', args: { communityId, participants: [ANN], action: 'demote' } },
      ]);
    });

    it('refuses to promote someone outside the community, or to demote its owner, and changes nothing', async () => {
      const before = (await journal('communities.participants')).length;
      expectErrorBody(
        await http.put(`/communities/${communityId}/participants`, { participants: [ANN, EVE], action: 'promote' }, headers()),
        400,
        `validation error: participants: ${EVE} is not a member of the community`,
      );
      expectErrorBody(
        await http.put(`/communities/${communityId}/participants`, { participants: [SELF], action: 'demote' }, headers()),
        400,
        `validation error: participants: ${SELF} created the community and cannot be demoted`,
      );
      expect(await info(communityId)).toEqual(created);
      expect(await journal('communities.participants')).toHaveLength(before);
    });

    it('sends people who want to add members to the sub-groups', async () => {
      expectErrorBody(
        await http.put(`/communities/${communityId}/participants`, { participants: [EVE], action: 'add' }, headers()),
        400,
        ADD_DETAIL,
      );
    });

    it('locks and unlocks: 204, isLocked follows, group events carry locked', async () => {
      const since = await lastSeq();
      expect((await http.put(`/communities/${communityId}/settings/locked`, { enabled: true }, headers())).status).toBe(204);
      expect(await info(communityId)).toEqual({ ...created, isLocked: true });
      expect((await http.put(`/communities/${communityId}/settings/locked`, { enabled: false }, headers())).status).toBe(204);
      expect(await info(communityId)).toEqual(created);
      expect(withoutTime(await groupEvents(communityId, since))).toEqual([
        { id: communityId, sender: me(), locked: { isLocked: true } },
        { id: communityId, sender: me(), locked: { isLocked: false } },
      ]);
    });

    it('renames it, describes it and sets its picture', async () => {
      const since = await lastSeq();
      expect((await http.put(`/communities/${communityId}/name`, { name: 'Good Neighbours' }, headers())).status).toBe(204);
      expect((await http.put(`/communities/${communityId}/description`, { description: 'Our street' }, headers())).status).toBe(204);
      const picture = await http.post(`/communities/${communityId}/picture`, { data: JPEG }, headers());
      expect(picture.status).toBe(200);
      expect(picture.body).toEqual({ pictureId: expect.stringMatching(/^\d+$/) });
      expect(await info(communityId)).toEqual({ ...created, name: 'Good Neighbours', description: 'Our street' });
      expect(withoutTime(await groupEvents(communityId, since))).toEqual([
        { id: communityId, sender: me(), name: { name: 'Good Neighbours' } },
        { id: communityId, sender: me(), description: { topic: 'Our street' } },
      ]);
      const pictures = (await eventLog(world.connected.id)).filter(
        (event) => event.eventType === 'chat_picture' && Number(event.seq) > since,
      );
      expect(pictures.map((event) => event.data)).toEqual([
        { id: communityId, sender: me(), pictureId: (picture.body as { pictureId: string }).pictureId },
      ]);

      expect((await http.put(`/communities/${communityId}/description`, { description: '' }, headers())).status).toBe(204);
      expect((await http.put(`/communities/${communityId}/name`, { name: 'Neighbours' }, headers())).status).toBe(204);
      expect(await info(communityId)).toEqual(created);
    });

    it('gives its invite link, and a reset replaces it', async () => {
      const first = await http.get(`/communities/${communityId}/invite-link`, headers());
      expect(first.status).toBe(200);
      expect(first.body).toEqual({ link: expect.stringMatching(/^https:\/\/chat\.whatsapp\.com\/[A-Za-z0-9_-]{22}$/) });
      const reset = await http.post(`/communities/${communityId}/invite-link/reset`, undefined, headers());
      expect(reset.status).toBe(200);
      expect(reset.body).toEqual({ link: expect.stringMatching(/^https:\/\/chat\.whatsapp\.com\/[A-Za-z0-9_-]{22}$/) });
      expect(reset.body).not.toEqual(first.body);
      expect((await http.get(`/communities/${communityId}/invite-link`, headers())).body).toEqual(reset.body);
    });

    describe('membership follows the sub-groups', () => {
      it('makes someone who joins a sub-group a community member, and drops them when they leave it', async () => {
        const general = groups[1].groupId;
        const since = await lastSeq();
        expect((await http.post(`/sandbox/groups/${general}/changes`, { join: [PHONE.cat] }, headers())).status).toBe(204);
        const joined = await eventually(
          () => info(communityId),
          (body) => (body.participants as { id: string }[]).some((participant) => participant.id === CAT),
        );
        expect(joined).toEqual({ ...created, participants: [member(SELF, 'owner'), member(ANN), member(BOB), member(CAT)] });

        expect((await http.post(`/sandbox/groups/${general}/changes`, { leave: [CAT] }, headers())).status).toBe(204);
        const left = await eventually(
          () => info(communityId),
          (body) => !(body.participants as { id: string }[]).some((participant) => participant.id === CAT),
        );
        expect(left).toEqual(created);
        const cat = { id: CAT, phone: PHONE.cat };
        expect(withoutTime(await groupEvents(communityId, since))).toEqual([
          { id: communityId, sender: me(), join: [cat] },
          { id: communityId, sender: me(), leave: [cat] },
        ]);
      });

      it('creates a sub-group whose members join the community', async () => {
        const since = await lastSeq();
        const response = await http.post(`/communities/${communityId}/groups`, { name: 'Parents', participants: [PHONE.dan] }, headers());
        expect(response.status).toBe(201);
        expect(response.body).toEqual({ id: expect.stringMatching(GROUP_JID) });
        const parents = (response.body as { id: string }).id;
        expect(await info(communityId)).toEqual({
          ...created,
          participants: [member(SELF, 'owner'), member(ANN), member(BOB), member(DAN)],
        });
        expect(((await http.get(`/communities/${communityId}/groups`, headers())).body as unknown[]).at(-1)).toEqual({
          groupId: parents,
          name: 'Parents',
          nameSetAt: expect.stringMatching(ISO),
          isAnnouncementGroup: false,
        });
        const dan = { id: DAN, phone: PHONE.dan };
        expect(withoutTime(await groupEvents(communityId, since))).toEqual([
          {
            id: communityId,
            sender: me(),
            link: { type: 'sub_group', groupId: parents, groupName: 'Parents', isAnnouncementGroup: false },
          },
          { id: communityId, sender: me(), join: [dan] },
        ]);
        expect(withoutTime(await groupEvents(parents, since))).toEqual([
          {
            id: parents,
            sender: me(),
            groupType: 'new',
            communityId,
            isAnnouncementGroup: false,
            name: { name: 'Parents' },
            join: [{ id: SELF, phone: SELF.split('@')[0] }, dan],
          },
        ]);
      });

      it('links an existing group (its members join) and unlinks it (they leave)', async () => {
        const made = await http.post(
          '/sandbox/groups',
          { name: 'Book club', participants: [PHONE.eve], admins: [], selfIsAdmin: true },
          headers(),
        );
        expect(made.status).toBe(201);
        const bookClub = (made.body as { id: string }).id;
        const before = await info(communityId);
        const since = await lastSeq();

        const linked = await http.post(`/communities/${communityId}/groups/link`, { groupId: bookClub }, headers());
        expect(linked.status).toBe(204);
        expect(await info(communityId)).toEqual({
          ...before,
          participants: [...(before.participants as unknown[]), member(EVE)],
        });
        expectErrorBody(
          await http.post(`/communities/${communityId}/groups/link`, { groupId: bookClub }, headers()),
          400,
          `validation error: groupId ${bookClub} is already in this community`,
        );

        const unlinked = await http.delete(`/communities/${communityId}/groups/${bookClub}`, headers());
        expect(unlinked.status).toBe(204);
        expect(await info(communityId)).toEqual(before);
        expectErrorBody(
          await http.delete(`/communities/${communityId}/groups/${bookClub}`, headers()),
          400,
          `validation error: groupId ${bookClub} is not a group of this community`,
        );
        expectErrorBody(
          await http.delete(`/communities/${communityId}/groups/${groups[0].groupId}`, headers()),
          400,
          `validation error: groupId ${groups[0].groupId} is the announcement group of the community and cannot be unlinked`,
        );

        const eve = { id: EVE, phone: PHONE.eve };
        expect(withoutTime(await groupEvents(communityId, since))).toEqual([
          {
            id: communityId,
            sender: me(),
            link: { type: 'sub_group', groupId: bookClub, groupName: 'Book club', isAnnouncementGroup: false },
          },
          { id: communityId, sender: me(), join: [eve] },
          { id: communityId, sender: me(), unlink: { type: 'sub_group', reason: 'unlink_group', groupId: bookClub } },
          { id: communityId, sender: me(), leave: [eve] },
        ]);
        expect(await journal('communities.')).toEqual(
          expect.arrayContaining([
            { name: 'communities.linkGroup', args: { communityId, groupId: bookClub } },
            { name: 'communities.unlinkGroup', args: { communityId, groupId: bookClub } },
          ]),
        );
      });

      it('links only groups this account administers', async () => {
        const made = await http.post(
          '/sandbox/groups',
          { name: 'Choir', participants: [PHONE.eve], admins: [PHONE.eve], selfIsAdmin: false },
          headers(),
        );
        const choir = (made.body as { id: string }).id;
        expectErrorBody(
          await http.post(`/communities/${communityId}/groups/link`, { groupId: choir }, headers()),
          403,
          'forbidden: not an admin of the group',
        );
        expectErrorBody(
          await http.post(`/communities/${communityId}/groups/link`, { groupId: '120363000000000009@g.us' }, headers()),
          404,
          'not found',
        );
      });
    });
  });

  describe('a community where this account is not an admin', () => {
    let communityId: string;
    let before: Record<string, unknown>;

    beforeAll(async () => {
      const made = await http.post(
        '/sandbox/groups',
        { name: 'Club', participants: [PHONE.ann, PHONE.bob], admins: [PHONE.ann], selfIsAdmin: false, community: true },
        headers(),
      );
      expect(made.status).toBe(201);
      communityId = (made.body as { id: string }).id;
      before = await info(communityId);
    });

    it('shows the admins the community has', () => {
      expect(before).toEqual({
        communityId,
        name: 'Club',
        created: expect.stringMatching(ISO),
        isLocked: false,
        communityApprovalMode: 'off',
        participants: [member(SELF), member(ANN, 'admin'), member(BOB)],
      });
    });

    it('answers 403 to admin-only changes, and nothing reaches the network', async () => {
      const journalBefore = await journal('communities.');
      const refused = [
        http.put(`/communities/${communityId}/participants`, { participants: [BOB], action: 'promote' }, headers()),
        http.put(`/communities/${communityId}/settings/locked`, { enabled: true }, headers()),
        http.get(`/communities/${communityId}/invite-link`, headers()),
        http.post(`/communities/${communityId}/invite-link/reset`, undefined, headers()),
        http.post(`/communities/${communityId}/groups`, { name: 'Mine' }, headers()),
      ];
      for (const response of await Promise.all(refused)) expectErrorBody(response, 403, 'forbidden: not a community admin');
      expect(await journal('communities.')).toEqual(journalBefore);
      expect(await info(communityId)).toEqual(before);
    });

    it('lets a member edit the info while unlocked, and only admins once an admin locks it', async () => {
      expect((await http.put(`/communities/${communityId}/name`, { name: 'Club House' }, headers())).status).toBe(204);
      expect(await info(communityId)).toEqual({ ...before, name: 'Club House' });

      expect((await http.post(`/sandbox/groups/${communityId}/changes`, { by: PHONE.ann, locked: true }, headers())).status).toBe(204);
      await eventually(
        () => info(communityId),
        (body) => body.isLocked === true,
      );
      const journalBefore = await journal('communities.');
      expectErrorBody(
        await http.put(`/communities/${communityId}/name`, { name: 'Mine now' }, headers()),
        403,
        'forbidden: not a community admin',
      );
      expectErrorBody(
        await http.put(`/communities/${communityId}/description`, { description: 'Mine' }, headers()),
        403,
        'forbidden: not a community admin',
      );
      expectErrorBody(
        await http.post(`/communities/${communityId}/picture`, { data: JPEG }, headers()),
        403,
        'forbidden: not a community admin',
      );
      expect(await journal('communities.')).toEqual(journalBefore);
      expect(await info(communityId)).toEqual({ ...before, name: 'Club House', isLocked: true });

      expect((await http.post(`/sandbox/groups/${communityId}/changes`, { by: PHONE.ann, locked: false }, headers())).status).toBe(204);
      await eventually(
        () => info(communityId),
        (body) => body.isLocked === false,
      );
      expect((await http.put(`/communities/${communityId}/description`, { description: 'Open again' }, headers())).status).toBe(204);
      expect(await info(communityId)).toEqual({ ...before, name: 'Club House', description: 'Open again' });
    });

    it('leaves the community: 204, then it is gone for this account', async () => {
      const general = ((await http.get(`/communities/${communityId}/groups`, headers())).body as { groupId: string }[])[1].groupId;
      const since = await lastSeq();
      expect((await http.post(`/communities/${communityId}/leave`, undefined, headers())).status).toBe(204);
      expectErrorBody(await http.get(`/communities/${communityId}`, headers()), 404, 'not found');
      const list = (await http.get('/communities', headers())).body as { communityId: string }[];
      expect(list.map((entry) => entry.communityId)).not.toContain(communityId);
      const left = { id: communityId, sender: me(), leave: [{ id: SELF, phone: SELF.split('@')[0] }] };
      expect(withoutTime(await groupEvents(communityId, since))).toEqual([left]);
      expect(withoutTime(await groupEvents(general, since))).toEqual([{ ...left, id: general, communityId }]);
    });
  });

  describe('not found and other tenants', () => {
    it('answers 404 for an unknown community and for a plain group', async () => {
      const plain = await http.post(
        '/sandbox/groups',
        { name: 'Plain', participants: [PHONE.ann], admins: [], selfIsAdmin: true },
        headers(),
      );
      const plainId = (plain.body as { id: string }).id;
      for (const id of [NO_COMMUNITY, plainId]) {
        expectErrorBody(await http.get(`/communities/${id}`, headers()), 404, 'not found');
        expectErrorBody(
          await http.put(`/communities/${id}/participants`, { participants: [ANN], action: 'promote' }, headers()),
          404,
          'not found',
        );
        expectErrorBody(await http.put(`/communities/${id}/settings/locked`, { enabled: true }, headers()), 404, 'not found');
      }
    });

    it("never shows or changes one instance's community through another, of this customer or another", async () => {
      const made = await http.post('/communities', { name: 'Private', participants: [PHONE.ann] }, headers());
      const communityId = (made.body as { communityId: string }).communityId;
      const other = world.strangerInstance;
      const list = await http.get('/communities', headersOf(other));
      expect(list.status).toBe(200);
      expect(list.body).toEqual([]);
      expectErrorBody(await http.get(`/communities/${communityId}`, headersOf(other)), 404, 'not found');
      expectErrorBody(await http.put(`/communities/${communityId}/settings/locked`, { enabled: true }, headersOf(other)), 404, 'not found');
      expectErrorBody(
        await http.put(`/communities/${communityId}/participants`, { participants: [ANN], action: 'promote' }, headersOf(other)),
        404,
        'not found',
      );
      // Only the (empty) listing reached the stranger's network; nothing it tried changed anything.
      expect((await world.operations(other)).map((operation) => operation.name)).toEqual(['communities.list']);
      expect((await info(communityId)).isLocked).toBe(false);
    });
  });

  describeErrorMatrix('communities', ENDPOINTS, () => world);
});
