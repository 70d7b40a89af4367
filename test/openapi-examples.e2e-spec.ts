import { OPENAPI_EXAMPLE_IDS } from '../apps/api/src/openapi-examples';
import { customerWithSession, sessionHeaders, signIn, type DashboardSession, type CustomerWithOwner } from './support/dashboard';
import { testEnv } from './support/environment';
import { eventually } from './support/event-log';
import { createInstance, type CreatedInstance } from './support/fixtures';
import type { Http } from './support/http';
import { headersOf, pairedInstance } from './support/instance-world';
import { prefilledRequest, type OpenApiDocument, type OperationObject } from './support/swagger-sample';
import { useInstanceWorld } from './support/world-suite';

const PREFIX = '1555047';

/**
 * Operations that end what the others use (a key, a session, the pairing, the instance): run last, in this order.
 * Everything else runs in the document's order.
 */
const LAST = [
  'POST /groups/{id}/leave',
  'POST /communities/{id}/leave',
  'POST /sandbox/newsletters/{id}/leave',
  'POST /chats/{chatId}/clear',
  'DELETE /chats/{chatId}',
  'PUT /instance/apikey',
  'PUT /account/instances/{id}/apikey',
  'POST /sandbox/logout',
  'POST /session/logout',
  'PUT /instance/restart',
  'PUT /account/instances/{id}/restart',
  'DELETE /account/instances/{id}',
  'POST /account/apikey/rotate',
  'POST /auth/sign-out',
  'POST /auth/sign-out-everywhere',
  'PUT /admin/customers/{id}/disabled',
];

/** Operations on an instance that has never been paired (asking for a QR code or a pairing code, pairing it). */
const ON_UNPAIRED = ['GET /session/qr', 'GET /session/qr/text', 'GET /session/pair-code/{phone}', 'POST /sandbox/pair'];

/** Answered as a stream that never ends: only the status line is read. */
const STREAMS = ['GET /events/stream', 'GET /account/instances/stream'];

interface Prepared {
  customer: CustomerWithOwner;
  session: DashboardSession;
  otherSession: DashboardSession;
  connected: CreatedInstance;
  unpaired: CreatedInstance;
  spare: CreatedInstance;
  /** Each id the examples name (OPENAPI_EXAMPLE_IDS), replaced by the id of an object this test made. */
  substitutions: Map<string, string>;
}

describe("Swagger UI's prefilled requests", () => {
  let http: Http;
  let document: OpenApiDocument;
  let prepared: Prepared;
  let apiUrl: string;
  useInstanceWorld(PREFIX, ({ api, http: client }) => {
    http = client;
    apiUrl = api.url;
  });

  beforeAll(async () => {
    document = (await http.unchecked().get('/docs-json')).body as OpenApiDocument;
    prepared = await prepare(http);
  });

  const substitute = (text: string) => {
    let result = text;
    for (const [example, actual] of prepared.substitutions) result = result.split(example).join(actual);
    return result;
  };

  const headersFor = (key: string, operation: OperationObject): Record<string, string> => {
    const scheme = operation.security?.[0] ?? {};
    if ('X-Admin-Key' in scheme) return { 'X-Admin-Key': testEnv().ADMIN_API_KEY };
    // Signing out ends the session the other requests use: that one signs out a session of its own.
    if (key === 'POST /auth/sign-out') return sessionHeaders(prepared.otherSession);
    if ('DashboardSession' in scheme && !('X-Api-Key' in scheme)) return sessionHeaders(prepared.session);
    // Both log the instance out: the phone's logout acts on an instance of its own.
    const instance = ON_UNPAIRED.includes(key) ? prepared.unpaired : key === 'POST /sandbox/logout' ? prepared.spare : prepared.connected;
    // The customer key: the instance's own key is rotated by one of the operations.
    if ('X-Instance-Id' in scheme) return { 'X-Api-Key': prepared.customer.apiKey, 'X-Instance-Id': instance.id };
    if ('X-Api-Key' in scheme) return { 'X-Api-Key': prepared.customer.apiKey };
    return {};
  };

  it('every operation succeeds (2xx) with the example Swagger UI prefills', async () => {
    const operations = Object.entries(document.paths).flatMap(([path, methods]) =>
      Object.entries(methods).map(([method, operation]) => ({ key: `${method.toUpperCase()} ${path}`, path, method, operation })),
    );
    const ordered = [
      ...operations.filter(({ key }) => !LAST.includes(key)),
      ...LAST.map((key) => operations.find((operation) => operation.key === key)).filter((operation) => operation !== undefined),
    ];
    expect(ordered).toHaveLength(operations.length);
    const outcomes: string[] = [];
    for (const { key, path, method, operation } of ordered) {
      const request = prefilledRequest(document, path, operation, substitute);
      if (request.missing.length > 0) {
        outcomes.push(`${key}: no example for ${request.missing.join(', ')}`);
        continue;
      }
      const query = new URLSearchParams(request.query).toString();
      const url = `${apiUrl}${request.path}${query ? `?${query}` : ''}`;
      const body = request.body === undefined ? undefined : substitute(JSON.stringify(request.body));
      const headers = { ...headersFor(key, operation), ...(body === undefined ? {} : { 'Content-Type': 'application/json' }) };
      const abort = new AbortController();
      const response = await fetch(url, { method: method.toUpperCase(), headers, body, signal: abort.signal });
      const text = STREAMS.includes(key) ? '' : await response.text();
      abort.abort();
      if (response.status < 200 || response.status > 299) outcomes.push(`${key}: ${response.status} ${text.slice(0, 300)}`);
    }
    expect(outcomes).toEqual([]);
  });

  /** The objects the examples refer to, made the way a client would make them. */
  async function prepare(client: Http): Promise<Prepared> {
    const { customer, session, password } = await customerWithSession(client, `${PREFIX} Examples`);
    const [connected, unpaired, spare] = await Promise.all([
      pairedInstance(client, customer, `${PREFIX}0001`),
      createInstance(client, customer.apiKey),
      pairedInstance(client, customer, `${PREFIX}0002`),
    ]);
    const headers = headersOf(connected);
    const ok = async <T>(response: Promise<{ status: number; body: unknown }>, what: string): Promise<T> => {
      const { status, body } = await response;
      if (status < 200 || status > 299) throw new Error(`${what}: ${status} ${JSON.stringify(body)}`);
      return body as T;
    };
    const ids = OPENAPI_EXAMPLE_IDS;
    const sent = await ok<{ id: string }>(client.post('/messages/text', { to: ids.userJid, text: 'hello' }, headers), 'send');
    const group = await ok<{ id: string }>(
      client.post('/sandbox/groups', { name: 'Examples', participants: [ids.userJid], admins: [], selfIsAdmin: true }, headers),
      'group',
    );
    const community = await ok<{ id: string }>(
      client.post(
        '/sandbox/groups',
        { name: 'Community', participants: [ids.userJid], admins: [], selfIsAdmin: true, community: true },
        headers,
      ),
      'community',
    );
    const channel = await ok<{ id: string; inviteCode: string }>(
      client.post('/sandbox/channels', { name: 'Examples' }, headers),
      'channel',
    );
    const newsletter = await ok<{ id: string }>(client.post('/sandbox/newsletters', { name: 'Followed' }, headers), 'newsletter');
    const [call, sandboxCall] = await Promise.all(
      [1, 2].map(() => ok<{ id: string }>(client.post('/sandbox/calls', { from: ids.userJid }, headers), 'call')),
    );
    await ok(client.post('/sandbox/inbound', { type: 'media', from: ids.userJid, media: { mediaType: 'image' } }, headers), 'image');
    await ok(client.post('/sandbox/business-profiles', { id: ids.userJid, name: 'Jane Bakes' }, headers), 'business');
    await ok(client.post('/sandbox/profile-pictures', { id: ids.userJid }, headers), 'picture');
    const editable = await ok<{ id: string }>(
      client.post('/sandbox/inbound', { type: 'text', from: ids.userJid, text: 'hi' }, headers),
      'inbound',
    );
    // Groups this account may join: by link, and by an invite message from an admin.
    const joinable = await Promise.all(
      [[], [ids.userJid]].map(async (admins) => {
        const made = await ok<{ id: string }>(
          client.post('/sandbox/groups', { name: 'Joinable', participants: [ids.userJid], admins, selfIsAdmin: true }, headers),
          'joinable group',
        );
        const { link } = await ok<{ link: string }>(client.get(`/groups/${made.id}/invite-link`, headers), 'joinable link');
        await ok(client.post(`/groups/${made.id}/leave`, undefined, headers), 'leave joinable');
        return { id: made.id, code: link.slice(link.lastIndexOf('/') + 1) };
      }),
    );
    const inbound = await ok<{ id: string }>(
      client.post('/sandbox/inbound', { type: 'text', from: ids.userJid, text: 'hi' }, headers),
      'inbound',
    );
    const status = await ok<{ id: string }>(client.post('/status/text', { text: 'status' }, headers), 'status');
    await ok(client.put(`/groups/${group.id}/settings/join-approval`, { enabled: true }, headers), 'approval on');
    await ok(client.post(`/sandbox/groups/${group.id}/join-requests`, { from: ids.requesterJid }, headers), 'join request');
    const inviteLink = await ok<{ link: string }>(client.get(`/groups/${group.id}/invite-link`, headers), 'invite link');
    const subGroups = await ok<{ groupId: string; isAnnouncementGroup: boolean }[]>(
      client.get(`/communities/${community.id}/groups`, headers),
      'sub-groups',
    );
    const teammate = await ok<{ user: { id: string }; inviteUrl: string }>(
      client.post('/account/users', { email: `teammate-${PREFIX}@example.com` }, sessionHeaders(session)),
      'teammate',
    );
    type Logged = { event: { eventId: string; eventType: string; eventData?: { media?: { id: string } } } };
    const events = await eventually(
      async () => (await client.get('/events', headers)).body as { items: Logged[] },
      (page) => page.items.some(({ event }) => event.eventData?.media),
    );
    const mediaId = events.items.find(({ event }) => event.eventData?.media)?.event.eventData?.media?.id ?? '';
    const otherSession = await signIn(client, customer.ownerEmail, password);
    return {
      customer,
      session,
      otherSession,
      connected,
      unpaired,
      spare,
      substitutions: new Map<string, string>([
        [ids.instanceId, connected.id],
        [ids.customerId, customer.id],
        [ids.userId, session.userId],
        [ids.otherUserId, teammate.user.id],
        [ids.inviteToken, teammate.inviteUrl.slice(teammate.inviteUrl.lastIndexOf('/') + 1)],
        [ids.messageId, sent.id],
        [ids.statusId, status.id],
        [ids.mediaId, mediaId],
        [ids.selfJid, `${PREFIX}0001@s.whatsapp.net`],
        [ids.joinInviteCode, joinable[0].code],
        [ids.invitingGroupJid, joinable[1].id],
        [ids.invitingGroupCode, joinable[1].code],
        [ids.editableMessageId, editable.id],
        [ids.inboundMessageId, inbound.id],
        [ids.signInEmail, customer.ownerEmail],
        [ids.signInPassword, password],
        [ids.callId, call.id],
        [ids.sandboxCallId, sandboxCall.id],
        [ids.groupJid, group.id],
        [ids.groupInviteCode, inviteLink.link.slice(inviteLink.link.lastIndexOf('/') + 1)],
        [ids.communityJid, community.id],
        [ids.communityGroupJid, subGroups.find((group) => !group.isAnnouncementGroup)?.groupId ?? ''],
        [ids.newsletterJid, newsletter.id],
        [ids.newsletterInviteCode, channel.inviteCode],
        [ids.eventId, events.items[0].event.eventId],
      ]),
    };
  }
});
