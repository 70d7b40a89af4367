import type { Response } from 'supertest';
import { FAMILY_SHAPES, shapeProblems, type Shape } from './support/family-shapes';
import type { Http } from './support/http';
import { headersOf, type InstanceWorld } from './support/instance-world';
import { expectErrorBody } from './support/openapi';
import { useInstanceWorld } from './support/world-suite';

const ANN = '447700900701';
const ANN_JID = `${ANN}@s.whatsapp.net`;
const BOB = '447700900702';
const NAME_RULE = 'validation error: name must be 1-100 characters, not only spaces';

/** The body, after checking the status and that it holds `shape` (or, for a list, that every item does). */
function expectShape(response: Response, status: number, shape: Shape | { listOf: Shape }): unknown {
  expect({ status: response.status, body: response.body as unknown }).toMatchObject({ status });
  const problems =
    'listOf' in shape
      ? Array.isArray(response.body)
        ? (response.body as unknown[]).flatMap((item, index) => shapeProblems(item, shape.listOf, `$[${index}]`))
        : [`$ should be an array, is ${JSON.stringify(response.body)}`]
      : shapeProblems(response.body, shape);
  expect(problems).toEqual([]);
  return response.body;
}

// What the family's SDKs read from this gateway (the WSAPI Node SDK 3.0.0, unmodified, made 106 calls): every shape in
// test/support/family-shapes.ts, asserted on live responses of a connected sandbox instance with something in each list.
describe('the contract family SDK shapes', () => {
  let http: Http;
  let world: InstanceWorld;
  useInstanceWorld('1555071', (suite) => ({ http, world } = suite));

  const headers = () => headersOf(world.connected);
  const list = (shape: Shape) => ({ listOf: shape });

  describe('instance settings carry the name, and the SDK sends them back whole', () => {
    it('GET /instance/settings has the name; PUT with the SDK settings type renames and keeps the secret', async () => {
      const asInstance = headers();
      const read = expectShape(await http.get('/instance/settings', asInstance), 200, FAMILY_SHAPES.instanceSettings) as Record<
        string,
        unknown
      >;
      const detail = await http.get(`/account/instances/${world.connected.id}`, { 'X-Api-Key': world.customer.apiKey });
      expect(read.name).toBe((detail.body as { name: string }).name);

      const secret = 'whsec_ZmFtaWx5LXNkay1zZWNyZXQtb2YtMzItYnl0ZXMhIQ';
      expect((await http.put('/instance/settings', { eventSigningSecret: secret }, asInstance)).status).toBe(204);
      const withSecret = (await http.get('/instance/settings', asInstance)).body as Record<string, unknown>;
      // The SDK's own type: every field, read back and sent whole with one change.
      const sdkSettings = {
        name: '  Support line  ',
        useCustomDefaults: withSecret.useCustomDefaults,
        pullMode: withSecret.pullMode,
        webhookUrl: withSecret.webhookUrl,
        eventSigningSecret: withSecret.eventSigningSecret,
        historySync: withSecret.historySync,
        eventFilters: withSecret.eventFilters,
      };
      expect((await http.put('/instance/settings', sdkSettings, asInstance)).status).toBe(204);
      expect((await http.get('/instance/settings', asInstance)).body).toEqual({ ...withSecret, name: 'Support line' });
      expect(
        ((await http.get(`/account/instances/${world.connected.id}`, { 'X-Api-Key': world.customer.apiKey })).body as { name: string })
          .name,
      ).toBe('Support line');
      // The customer route takes the same body.
      expect(
        (
          await http.put(
            `/account/instances/${world.connected.id}/settings`,
            { ...sdkSettings, name: 'Sales line' },
            { 'X-Api-Key': world.customer.apiKey },
          )
        ).status,
      ).toBe(204);
      expect(((await http.get('/instance/settings', asInstance)).body as { name: string }).name).toBe('Sales line');
    });

    it('refuses a blank or long name and changes nothing, not even the other fields sent with it', async () => {
      const asInstance = headers();
      const before = (await http.get('/instance/settings', asInstance)).body as Record<string, unknown>;
      for (const name of ['', '   ', 'x'.repeat(101)]) {
        expectErrorBody(await http.put('/instance/settings', { ...before, name, pullMode: !before.pullMode }, asInstance), 400, NAME_RULE);
      }
      expectErrorBody(await http.put('/instance/settings', { name: 7 }, asInstance), 400, 'invalid request body');
      expect((await http.get('/instance/settings', asInstance)).body).toEqual(before);
    });
  });

  it('answers every shape the SDK reads', async () => {
    const asInstance = headers();
    expectShape(await http.get('/session/status', asInstance), 200, FAMILY_SHAPES.sessionStatus);
    expectShape(await http.get('/status/privacy', asInstance), 200, FAMILY_SHAPES.statusPrivacy);
    expectShape(await http.get('/status/privacy?format=list', asInstance), 200, list(FAMILY_SHAPES.statusPrivacy));

    // Something in every list: a saved contact, a chat, a group, a community, a channel, a blocked number.
    expect((await http.post('/sandbox/contacts', { id: ANN }, asInstance)).status).toBeLessThan(300);
    expect((await http.post('/contacts', { id: ANN, fullName: 'Ann Example', firstName: 'Ann' }, asInstance)).status).toBe(204);
    expectShape(await http.post('/messages/text', { to: ANN, message: 'hello' }, asInstance), 201, FAMILY_SHAPES.createdId);
    const group = expectShape(
      await http.post('/groups', { name: 'Family shapes', participants: [ANN] }, asInstance),
      201,
      FAMILY_SHAPES.createdId,
    ) as {
      id: string;
    };
    const community = expectShape(
      await http.post('/communities', { name: 'Family community', participants: [ANN] }, asInstance),
      201,
      FAMILY_SHAPES.createdId,
    ) as { id: string };
    const channel = expectShape(await http.post('/newsletters', { name: 'Family channel' }, asInstance), 201, FAMILY_SHAPES.createdId) as {
      id: string;
    };
    expect((await http.put(`/contacts/${BOB}@s.whatsapp.net/block`, undefined, asInstance)).status).toBe(204);

    const shapes: [string, Shape | { listOf: Shape }][] = [
      ['/contacts', list(FAMILY_SHAPES.contact)],
      [`/contacts/${ANN_JID}`, FAMILY_SHAPES.contact],
      ['/contacts/blocklist', list(FAMILY_SHAPES.identity)],
      ['/chats', list(FAMILY_SHAPES.chat)],
      [`/chats/${ANN_JID}`, FAMILY_SHAPES.chat],
      ['/groups', list(FAMILY_SHAPES.group)],
      [`/groups/${group.id}`, FAMILY_SHAPES.group],
      [`/groups/${group.id}/participants`, list(FAMILY_SHAPES.participant)],
      [`/groups/${group.id}/invite-link`, FAMILY_SHAPES.inviteLink],
      ['/communities', list(FAMILY_SHAPES.community)],
      [`/communities/${community.id}`, FAMILY_SHAPES.community],
      [`/communities/${community.id}/groups`, list(FAMILY_SHAPES.communitySubGroup)],
      [`/communities/${community.id}/invite-link`, FAMILY_SHAPES.inviteLink],
      ['/newsletters', list(FAMILY_SHAPES.newsletter)],
      [`/newsletters/${channel.id}`, FAMILY_SHAPES.newsletter],
      ['/users/me/profile', FAMILY_SHAPES.me],
      ['/users/me/privacy', FAMILY_SHAPES.privacy],
      [`/users/${ANN}/check`, FAMILY_SHAPES.presence],
      [`/users/${ANN}/profile`, FAMILY_SHAPES.user],
    ];
    for (const [path, shape] of shapes) {
      const response = await http.get(path, asInstance);
      const body = expectShape(response, 200, shape);
      if ('listOf' in shape) expect({ path, empty: (body as unknown[]).length === 0 }).toEqual({ path, empty: false });
    }
    expectShape(await http.post('/users/check', { phones: [ANN, BOB] }, asInstance), 200, list(FAMILY_SHAPES.userCheck));
  });
});
