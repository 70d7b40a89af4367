import { Client } from 'pg';
import { describeErrorMatrix, type MatrixEndpoint } from './support/endpoint-matrix';
import { testEnv } from './support/environment';
import { eventsOfType, eventually, lastSeqOf } from './support/event-log';
import type { Http } from './support/http';
import { headersOf, operationsNamed as journaled, type InstanceWorld } from './support/instance-world';
import { expectErrorBody } from './support/openapi';
import { useInstanceWorld } from './support/world-suite';

const ANN = '447700900601';
const ANN_JID = `${ANN}@s.whatsapp.net`;
const ANN_LID = '223344556677889@lid';
const BOB = '447700900602';
const BOB_JID = `${BOB}@s.whatsapp.net`;
const CAT_JID = '447700900603@s.whatsapp.net';
const BAD_ID = 'validation error: id must be a user JID or an international number';

const ENDPOINTS: MatrixEndpoint[] = [
  { method: 'get', route: '/contacts', path: '/contacts' },
  {
    method: 'post',
    route: '/contacts',
    path: '/contacts',
    body: { id: ANN, fullName: 'Ann Example' },
    invalid: [
      { label: 'id missing', body: { fullName: 'Ann' }, detail: 'validation error: id is required' },
      { label: 'fullName missing', body: { id: ANN }, detail: 'validation error: fullName is required' },
      { label: 'an empty fullName', body: { id: ANN, fullName: '' }, detail: 'validation error: fullName must not be empty' },
      {
        label: 'a long firstName',
        body: { id: ANN, fullName: 'Ann', firstName: 'A'.repeat(101) },
        detail: 'validation error: firstName must be at most 100 characters',
      },
      { label: 'fullName as a number', body: { id: ANN, fullName: 7 }, detail: 'invalid request body' },
      {
        label: 'a group id',
        body: { id: '120363000000000001@g.us', fullName: 'Ann' },
        detail: 'validation error: id must be a user JID (<digits>@s.whatsapp.net) or an international number',
      },
    ],
  },
  { method: 'post', route: '/contacts/sync', path: '/contacts/sync' },
  { method: 'get', route: '/contacts/blocklist', path: '/contacts/blocklist' },
  {
    method: 'get',
    route: '/contacts/{id}',
    path: `/contacts/${ANN_JID}`,
    badPaths: [
      { path: '/contacts/someone', detail: BAD_ID },
      { path: '/contacts/120363000000000001@g.us', detail: BAD_ID },
    ],
  },
  {
    method: 'put',
    route: '/contacts/{id}/block',
    path: `/contacts/${ANN_JID}/block`,
    badPaths: [{ path: '/contacts/x/block', detail: BAD_ID }],
  },
  {
    method: 'put',
    route: '/contacts/{id}/unblock',
    path: `/contacts/${ANN_JID}/unblock`,
    badPaths: [{ path: '/contacts/x/unblock', detail: BAD_ID }],
  },
];

describe('contacts', () => {
  let http: Http;
  let world: InstanceWorld;
  useInstanceWorld('1555033', (suite) => ({ http, world } = suite));

  const headers = () => headersOf(world.connected);
  const contact = (id: string) => http.get(`/contacts/${id}`, headers());

  const operationsNamed = (name: string) => journaled(world, world.connected, name);
  const eventsOf = (type: string, after = 0) => eventsOfType(world.connected.id, type, after);
  const lastSeq = () => lastSeqOf(world.connected.id);

  describe('the address book', () => {
    it('saves a contact on the phone: 204, a contact event, and the store shows every field', async () => {
      const known = await http.post('/sandbox/contacts', { id: ANN, lid: ANN_LID }, headers());
      expect(known.status).toBe(201);
      // The network announces the new person (not in the address book yet) on its own time: wait for it before the barrier.
      await eventually(
        () => eventsOf('contact'),
        (events) => events.some((event) => event.data.inPhoneAddressBook === false),
      );
      const before = await lastSeq();
      const saved = await http.post('/contacts', { id: ANN, fullName: 'Ann Example', firstName: 'Ann' }, headers());
      expect(saved.status).toBe(204);
      expect(saved.body).toEqual({});
      expect((await eventsOf('contact', before)).map((event) => event.data)).toEqual([
        { contact: { id: ANN_JID, lid: ANN_LID, phone: ANN }, fullName: 'Ann Example', inPhoneAddressBook: true },
      ]);
      const expected = { id: ANN_JID, lid: ANN_LID, phone: ANN, fullName: 'Ann Example', firstName: 'Ann', inPhoneAddressBook: true };
      expect((await contact(ANN_JID)).body).toEqual(expected);
      expect((await contact(ANN)).body).toEqual(expected);
      expect((await contact(ANN_LID)).body).toEqual(expected);
      expect(await operationsNamed('contacts.save')).toEqual([{ jid: ANN_JID, fullName: 'Ann Example', firstName: 'Ann' }]);
    });

    it('renames a saved contact, keeping what the network told of them', async () => {
      const inbound = await http.post('/sandbox/inbound', { from: BOB, type: 'text', text: 'hey', pushName: 'Bobby' }, headers());
      expect(inbound.status).toBe(201);
      await eventually(
        async () => (await contact(BOB_JID)).status,
        (status) => status === 200,
      );
      expect((await http.post('/contacts', { id: BOB_JID, fullName: 'Bob Builder' }, headers())).status).toBe(204);
      expect((await http.post('/contacts', { id: BOB, fullName: 'Robert Builder', firstName: 'Robert' }, headers())).status).toBe(204);
      expect((await contact(BOB_JID)).body).toEqual({
        id: BOB_JID,
        phone: BOB,
        fullName: 'Robert Builder',
        firstName: 'Robert',
        pushName: 'Bobby',
        inPhoneAddressBook: true,
      });
    });

    it('lists everyone the instance knows, ordered by JID', async () => {
      const list = await http.get('/contacts', headers());
      expect(list.status).toBe(200);
      expect(list.body).toEqual([
        { id: ANN_JID, lid: ANN_LID, phone: ANN, fullName: 'Ann Example', firstName: 'Ann', inPhoneAddressBook: true },
        { id: BOB_JID, phone: BOB, fullName: 'Robert Builder', firstName: 'Robert', pushName: 'Bobby', inPhoneAddressBook: true },
      ]);
    });

    it('answers 404 for a person the instance never heard of', async () => {
      expectErrorBody(await contact(CAT_JID), 404, 'not found');
    });

    it('a full sync replaces stale address-book data with what the phone holds', async () => {
      const db = new Client({ connectionString: testEnv().DATABASE_URL });
      await db.connect();
      try {
        await db.query("UPDATE contacts SET full_name = 'Stale Name', first_name = NULL WHERE instance_id = $1 AND jid = $2", [
          world.connected.id,
          ANN_JID,
        ]);
        await db.query(
          "INSERT INTO contacts (instance_id, jid, full_name, in_address_book, updated_at) VALUES ($1, $2, 'Gone Person', true, now())",
          [world.connected.id, CAT_JID],
        );
      } finally {
        await db.end();
      }
      const synced = await http.post('/contacts/sync', undefined, headers());
      expect(synced.status).toBe(204);
      expect((await contact(ANN_JID)).body).toEqual({
        id: ANN_JID,
        lid: ANN_LID,
        phone: ANN,
        fullName: 'Ann Example',
        firstName: 'Ann',
        inPhoneAddressBook: true,
      });
      expect((await contact(CAT_JID)).body).toEqual({ id: CAT_JID, phone: CAT_JID.split('@')[0], inPhoneAddressBook: false });
      expect(await operationsNamed('contacts.sync')).toEqual([{}]);
    });
  });

  describe('the blocklist', () => {
    /**
     * Whether a message from Ann reaches the instance. Bob writes right after her: an instance's network events are
     * recorded in the order they happened, so once his message is logged, hers is too if it ever will be.
     */
    async function inboundReaches(text: string): Promise<boolean> {
      const send = async (from: string, body: string) => {
        const sent = await http.post('/sandbox/inbound', { from, type: 'text', text: body }, headers());
        expect(sent.status).toBe(201);
        return (sent.body as { id: string }).id;
      };
      const id = await send(ANN, text);
      const barrier = await send(BOB, `after ${text}`);
      const events = await eventually(
        () => eventsOf('message'),
        (all) => all.some((event) => event.data.id === barrier),
      );
      return events.some((event) => event.data.id === id);
    }

    it('starts empty', async () => {
      const list = await http.get('/contacts/blocklist', headers());
      expect(list.status).toBe(200);
      expect(list.body).toEqual([]);
    });

    it('blocks a contact: listed, and their messages no longer reach the instance; unblocking lets them through', async () => {
      const blocked = await http.put(`/contacts/${ANN}/block`, undefined, headers());
      expect(blocked.status).toBe(204);
      expect(blocked.body).toEqual({});
      expect((await http.put(`/contacts/${ANN_JID}/block`, undefined, headers())).status).toBe(204);
      expect((await http.get('/contacts/blocklist', headers())).body).toEqual([{ id: ANN_JID, lid: ANN_LID, phone: ANN }]);
      expect(await inboundReaches('are you there?')).toBe(false);

      expect((await http.put(`/contacts/${ANN_JID}/unblock`, undefined, headers())).status).toBe(204);
      expect((await http.get('/contacts/blocklist', headers())).body).toEqual([]);
      expect(await inboundReaches('hello again')).toBe(true);
      expect(await operationsNamed('contacts.block')).toEqual([
        { jid: ANN_JID, blocked: true },
        { jid: ANN_JID, blocked: true },
        { jid: ANN_JID, blocked: false },
      ]);
    });

    it('refuses to block the account itself, and nothing reaches the network', async () => {
      const journaled = (await operationsNamed('contacts.block')).length;
      expectErrorBody(
        await http.put(`/contacts/${world.self(world.connected)}/block`, undefined, headers()),
        400,
        'validation error: id must not be this account itself',
      );
      expect(await operationsNamed('contacts.block')).toHaveLength(journaled);
    });
  });

  describe('other tenants', () => {
    it("never see this instance's contacts or blocklist, and their blocks do not touch it", async () => {
      const stranger = headersOf(world.strangerInstance);
      expect((await http.get('/contacts', stranger)).body).toEqual([]);
      expectErrorBody(await http.get(`/contacts/${ANN_JID}`, stranger), 404, 'not found');
      expect((await http.put(`/contacts/${BOB_JID}/block`, undefined, stranger)).status).toBe(204);
      expect((await http.get('/contacts/blocklist', stranger)).body).toEqual([{ id: BOB_JID, phone: BOB }]);
      expect((await http.get('/contacts/blocklist', headers())).body).toEqual([]);
      for (const other of [world.refused]) expect((await http.get('/contacts', headersOf(other))).body).toEqual([]);
    });
  });

  describeErrorMatrix('contacts', ENDPOINTS, () => world);
});
