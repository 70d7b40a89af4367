import { eventsOfType, eventually, lastSeqOf } from './support/event-log';
import type { CreatedInstance } from './support/fixtures';
import type { Http } from './support/http';
import { headersOf, waitForStatus } from './support/instance-world';
import type { FakeNetworkProcess, GroupChange, ReceivedMessage } from './support/protocol-network/fake-network';
import { RealNetworkWorld } from './support/real-network-world';

const ME = '447700900500';
const ME_JID = `${ME}@s.whatsapp.net`;
/** People on the network: phone number, name and LID user. */
const PEOPLE = {
  ann: { phone: '447700900521', name: 'Ann', lid: '123456789012501' },
  bob: { phone: '447700900522', name: 'Bob', lid: '123456789012502' },
  cat: { phone: '447700900523', name: 'Cat', lid: '123456789012503' },
  dan: { phone: '447700900524', name: 'Dan', lid: '123456789012504' },
  eve: { phone: '447700900525', name: 'Eve', lid: '123456789012505' },
  fay: { phone: '447700900526', name: 'Fay', lid: '123456789012506' },
  gil: { phone: '447700900527', name: 'Gil', lid: '123456789012507' },
  hal: { phone: '447700900528', name: 'Hal', lid: '123456789012508' },
  ida: { phone: '447700900529', name: 'Ida', lid: '123456789012509' },
  jon: { phone: '447700900530', name: 'Jon', lid: '123456789012510' },
  kim: { phone: '447700900531', name: 'Kim', lid: '123456789012511' },
  lou: { phone: '447700900532', name: 'Lou', lid: '123456789012512' },
  mia: { phone: '447700900533', name: 'Mia', lid: '123456789012513' },
  ned: { phone: '447700900534', name: 'Ned', lid: '123456789012514' },
} as const;
type Person = (typeof PEOPLE)[keyof typeof PEOPLE];
const pnOf = (person: Person) => `${person.phone}@s.whatsapp.net`;
const lidOf = (person: Person) => `${person.lid}@lid`;
/** How the events name a person (phone-number JID first, the LID alongside). */
const identity = (person: Person) => ({ id: pnOf(person), lid: lidOf(person), phone: person.phone });
const senderOf = (person: Person) => ({ ...identity(person), isMe: false });

const ADDRESSING: ['phone number' | 'LID (the phone number alongside)', 'pn' | 'lid'][] = [
  ['phone number', 'pn'],
  ['LID (the phone number alongside)', 'lid'],
];

/**
 * Contacts with several devices and groups with their changes, through the real-network driver: the unmodified
 * Baileys library in the built worker against the fake network (test/support/protocol-network, devices.mjs and
 * groups.mjs), in both ways the network addresses people, compared with the sandbox's events for the same actions.
 */
describe('real instances: contacts with several devices and group changes over the WhatsApp Web protocol (fake network)', () => {
  let world: RealNetworkWorld;
  let network: FakeNetworkProcess;
  let http: Http;
  let real: CreatedInstance;
  let realDevice: string;
  let sandbox: CreatedInstance;

  beforeAll(async () => {
    world = await RealNetworkWorld.start({
      customer: 'Devices Co',
      people: Object.values(PEOPLE).map((person) => ({ phone: person.phone, name: person.name, lid: lidOf(person) })),
    });
    ({ network, http } = world);
    [{ instance: real, deviceJid: realDevice }, sandbox] = await Promise.all([world.pairReal(ME, 'real'), world.pairSandbox(ME)]);
  });

  afterAll(() => world?.stop());

  /** Sends text on the real instance to a person or a group; resolves with the message id. */
  async function send(to: string, message: string): Promise<string> {
    const response = await http.post('/messages/text', { to, message }, headersOf(real));
    expect(response.status).toBe(201);
    return (response.body as { id: string }).id;
  }

  /** The copies of message `id` the person's devices received, once `devices` of them did, by device. */
  async function copiesOf(person: Person, id: string, devices: number): Promise<ReceivedMessage[]> {
    const copies = await eventually(
      async () => (await network.inbox(person.phone)).filter((entry) => entry.id === id),
      (entries) => entries.length >= devices,
      30_000,
    );
    return copies.sort((a, b) => (a.device ?? 0) - (b.device ?? 0));
  }

  /** Resolves once our device acknowledged the notifications (Baileys acks each after handling it). */
  async function handled(ids: string[]): Promise<void> {
    await eventually(
      () => network.call<{ tag: string; attrs: Record<string, string> }[]>('GET', '/received'),
      (stanzas) => ids.every((id) => stanzas.some((stanza) => stanza.tag === 'ack' && stanza.attrs.id === id)),
      15_000,
    );
  }

  /** The `message` event the real instance logged for message `id`. */
  async function messageEvent(instance: CreatedInstance, id: string): Promise<Record<string, unknown>> {
    const [event] = await eventually(
      async () => (await eventsOfType(instance.id, 'message')).filter((logged) => logged.data.id === id),
      (events) => events.length === 1,
      15_000,
    );
    return event.data;
  }

  const text = (copy: ReceivedMessage) =>
    (copy.message?.extendedTextMessage as { text?: string } | undefined)?.text ?? (copy.message?.conversation as string | undefined);

  describe.each(ADDRESSING)('contacts with several devices, addressed by %s', (_name, mode) => {
    /** A contact of its own per mode: device lists and sessions are the instance's state. */
    const multi = mode === 'pn' ? PEOPLE.dan : PEOPLE.eve;
    const reinstalling = mode === 'pn' ? PEOPLE.fay : PEOPLE.gil;
    const reinstallingOffline = mode === 'pn' ? PEOPLE.kim : PEOPLE.lou;

    beforeAll(() => network.addressing(mode));
    afterAll(() => network.addressing('pn'));

    it("a send reaches the phone and the companion, each decrypting its own copy; the companion's message is the phone's event", async () => {
      const { device, notified } = await network.addContactDevice(multi.phone);
      expect(device).toBe(1);
      await handled(notified);
      const id = await send(multi.phone, 'to every device');
      const copies = await copiesOf(multi, id, 2);
      expect(copies.map((copy) => [copy.device ?? 0, copy.encType, copy.error, text(copy)])).toEqual([
        [0, 'pkmsg', undefined, 'to every device'],
        [1, 'pkmsg', undefined, 'to every device'],
      ]);
      // Each device's copy is addressed to it (the send went to the phone number): the phone by the user JID, the
      // companion by its device JID.
      expect(copies.map((copy) => copy.recipient)).toEqual([pnOf(multi), pnOf(multi).replace('@', ':1@')]);

      const { id: fromCompanion } = await network.sendFromContact(
        multi.phone,
        realDevice,
        { conversation: 'from my laptop' },
        { fromDevice: 1 },
      );
      expect(await messageEvent(real, fromCompanion)).toEqual({
        id: fromCompanion,
        time: expect.any(String),
        chatId: pnOf(multi),
        sender: senderOf(multi),
        isGroup: false,
        isStatus: false,
        type: 'text',
        text: 'from my laptop',
      });
    });

    it('a companion linked later gets our next send after its `devices` notification; an unlinked one no longer does', async () => {
      const before = await send(multi.phone, 'before');
      expect((await copiesOf(multi, before, 2)).map((copy) => [copy.device ?? 0, copy.error])).toEqual([
        [0, undefined],
        [1, undefined],
      ]);

      const added = await network.addContactDevice(multi.phone);
      expect(added.device).toBe(2);
      await handled(added.notified);
      const afterAdd = await send(multi.phone, 'after the add');
      const addCopies = await copiesOf(multi, afterAdd, 3);
      expect(addCopies.map((copy) => [copy.device ?? 0, copy.error, text(copy)])).toEqual([
        [0, undefined, 'after the add'],
        [1, undefined, 'after the add'],
        [2, undefined, 'after the add'],
      ]);
      // The new companion's session starts with this message (a pre-key message built from its bundle).
      expect(addCopies[2].encType).toBe('pkmsg');

      const removed = await network.removeContactDevice(multi.phone, 1);
      expect(removed.devices).toEqual([0, 2]);
      await handled(removed.notified);
      const afterRemove = await send(multi.phone, 'after the remove');
      const removeCopies = await copiesOf(multi, afterRemove, 2);
      // A copy for the unlinked device would show up as an entry the server refused ("no device 1").
      await new Promise((resolve) => setTimeout(resolve, 300));
      const all = (await network.inbox(multi.phone)).filter((entry) => entry.id === afterRemove);
      expect(all).toHaveLength(2);
      expect(removeCopies.map((copy) => [copy.device ?? 0, copy.error, text(copy)])).toEqual([
        [0, undefined, 'after the remove'],
        [2, undefined, 'after the remove'],
      ]);
    });

    it('the contact reinstalls WhatsApp (a new identity key): our sends and its messages go on', async () => {
      const first = await send(reinstalling.phone, 'before the reinstall');
      expect((await copiesOf(reinstalling, first, 1))[0]).toMatchObject({ encType: 'pkmsg', message: expect.anything() });

      const { notified } = await network.reinstallContact(reinstalling.phone);
      await handled(notified);
      const second = await send(reinstalling.phone, 'after the reinstall');
      const [copy] = await copiesOf(reinstalling, second, 1);
      expect([copy.device ?? 0, copy.encType, copy.error, text(copy)]).toEqual([0, 'pkmsg', undefined, 'after the reinstall']);

      const { id } = await network.sendFromContact(reinstalling.phone, realDevice, { conversation: 'new phone, same me' });
      expect(await messageEvent(real, id)).toEqual({
        id,
        time: expect.any(String),
        chatId: pnOf(reinstalling),
        sender: senderOf(reinstalling),
        isGroup: false,
        isStatus: false,
        type: 'text',
        text: 'new phone, same me',
      });
      const third = await send(reinstalling.phone, 'and a reply');
      const [reply] = await copiesOf(reinstalling, third, 1);
      expect([reply.device ?? 0, reply.error, text(reply)]).toEqual([0, undefined, 'and a reply']);
    });

    it('the contact reinstalls while the instance is offline: the identity notification comes from the offline queue, and sends still reach the new install', async () => {
      const first = await send(reinstallingOffline.phone, 'before going offline');
      expect((await copiesOf(reinstallingOffline, first, 1))[0].error).toBeUndefined();

      const { logins } = await network.device(realDevice);
      await network.disconnect(realDevice, 428);
      const { notified } = await network.reinstallContact(reinstallingOffline.phone);
      await eventually(
        () => network.device(realDevice),
        (device) => device.connected && device.logins > logins,
        30_000,
      );
      await waitForStatus(http, real, (status) => status.isConnected);
      await handled(notified);
      // rc14 skips the session refresh for an identity notification from the offline queue (identity-change-handler:
      // "skipping session refresh during offline processing"); the send still reaches the new install because a new
      // socket starts with an empty device-list cache, and the device query that fills it refreshes the sessions of
      // every person it maps to a LID (messages-send.js getUSyncDevices: assertSessions(lids, true)).
      const mark = (await network.call<unknown[]>('GET', '/received')).length;
      const second = await send(reinstallingOffline.phone, 'back online');
      const [copy] = await copiesOf(reinstallingOffline, second, 1);
      expect([copy.device ?? 0, copy.encType, copy.error, text(copy)]).toEqual([0, 'pkmsg', undefined, 'back online']);
      // The fresh bundle was fetched for the send: a key request naming the contact's LID (`reason="identity"`).
      const keyRequests = (await network.call<{ tag: string; attrs: Record<string, string>; content?: unknown }[]>('GET', '/received'))
        .slice(mark)
        .filter((stanza) => stanza.tag === 'iq' && stanza.attrs.xmlns === 'encrypt');
      expect(JSON.stringify(keyRequests)).toContain(JSON.stringify({ jid: lidOf(reinstallingOffline), reason: 'identity' }));
    });
  });

  describe.each(ADDRESSING)('groups addressed by %s', (_name, mode) => {
    /** Members of this mode's group: an admin who makes the changes, a member removed, one added (with a companion). */
    const [admin, leaver, joiner] = mode === 'pn' ? [PEOPLE.ann, PEOPLE.bob, PEOPLE.cat] : [PEOPLE.hal, PEOPLE.ida, PEOPLE.jon];
    let groupId: string;
    let sandboxGroupId: string;

    beforeAll(async () => {
      await network.addressing(mode);
      const created = await http.post('/groups', { name: `Crew ${mode}`, participants: [admin.phone, leaver.phone] }, headersOf(real));
      expect(created.status).toBe(201);
      groupId = (created.body as { groupId: string }).groupId;
      // The admin's changes as the network makes them; the sandbox twin's group gets the same changes by the same admin.
      await network.changeGroup(groupId, { by: ME, action: 'promote', participants: [admin.phone] });
      const sandboxGroup = await http.post(
        '/sandbox/groups',
        { name: `Crew ${mode}`, participants: [admin.phone, leaver.phone], admins: [admin.phone], selfIsAdmin: true },
        headersOf(sandbox),
      );
      expect(sandboxGroup.status).toBe(201);
      sandboxGroupId = (sandboxGroup.body as { id: string }).id;
    });
    afterAll(() => network.addressing('pn'));

    /** The `group` events an instance logs after `after`, once there are `count`, its own group id and times left out. */
    async function groupEvents(instance: CreatedInstance, after: number, count: number): Promise<Record<string, unknown>[]> {
      const events = await eventually(
        () => eventsOfType(instance.id, 'group', after),
        (logged) => logged.length >= count,
        15_000,
      );
      return events.map(({ data: { id, timestamp, ...rest } }) => ({
        ...rest,
        id: id === groupId || id === sandboxGroupId ? '<group>' : id,
        timestamp: typeof timestamp,
      }));
    }

    /** One change made by the admin on the network and in the sandbox: both instances' `group` events, side by side. */
    async function changeBoth(change: GroupChange, sandboxChange: Record<string, unknown>) {
      const [realSeq, sandboxSeq] = [await lastSeqOf(real.id), await lastSeqOf(sandbox.id)];
      await network.changeGroup(groupId, change);
      const sandboxed = await http.post(
        `/sandbox/groups/${sandboxGroupId}/changes`,
        { by: admin.phone, ...sandboxChange },
        headersOf(sandbox),
      );
      expect(sandboxed.status).toBe(204);
      const [realEvents, sandboxEvents] = [await groupEvents(real, realSeq, 1), await groupEvents(sandbox, sandboxSeq, 1)];
      expect(realEvents).toEqual(sandboxEvents);
      return realEvents;
    }

    it(`is created ${mode === 'lid' ? 'by LID, each member with its phone number alongside' : 'by phone number, each member with its LID alongside'}`, async () => {
      const [onNetwork] = (await network.call<{ id: string; addressing: string }[]>('GET', '/groups')).filter(
        (group) => group.id === groupId,
      );
      expect(onNetwork.addressing).toBe(mode);
      const read = await http.get(`/groups/${groupId}`, headersOf(real));
      expect(read.status).toBe(200);
      const ids = (read.body as { participants: { id: string }[] }).participants.map((participant) => participant.id).sort();
      expect(ids).toEqual([ME_JID, pnOf(admin), pnOf(leaver)].sort());
    });

    it("a member added by `w:gp2` gets our next send on every device; a removed one no longer does; the events are the sandbox's", async () => {
      const first = await send(groupId, 'hello crew');
      for (const member of [admin, leaver]) {
        const [copy] = await copiesOf(member, first, 1);
        expect([copy.encType, copy.error, text(copy)]).toEqual(['skmsg', undefined, 'hello crew']);
      }

      const { notified } = await network.addContactDevice(joiner.phone);
      await handled(notified);
      const joined = await changeBoth({ by: admin.phone, action: 'add', participants: [joiner.phone] }, { join: [joiner.phone] });
      expect(joined).toEqual([{ id: '<group>', timestamp: 'string', sender: senderOf(admin), join: [identity(joiner)] }]);
      const afterAdd = await send(groupId, 'welcome');
      const joinerCopies = await copiesOf(joiner, afterAdd, 2);
      const memberAddress = mode === 'lid' ? lidOf(joiner) : pnOf(joiner);
      expect(joinerCopies.map((copy) => [copy.device ?? 0, copy.recipient, copy.error, text(copy), copy.distribution?.encType])).toEqual([
        [0, memberAddress, undefined, 'welcome', 'pkmsg'],
        [1, memberAddress.replace('@', ':1@'), undefined, 'welcome', 'pkmsg'],
      ]);

      const left = await changeBoth({ by: admin.phone, action: 'remove', participants: [leaver.phone] }, { leave: [leaver.phone] });
      expect(left).toEqual([{ id: '<group>', timestamp: 'string', sender: senderOf(admin), leave: [identity(leaver)] }]);
      const afterRemove = await send(groupId, 'one fewer');
      await copiesOf(joiner, afterRemove, 2);
      for (const member of [admin, joiner]) {
        for (const copy of (await network.inbox(member.phone)).filter((entry) => entry.id === afterRemove)) {
          expect([copy.error, text(copy)]).toEqual([undefined, 'one fewer']);
        }
      }
      expect((await network.inbox(leaver.phone)).filter((entry) => entry.id === afterRemove)).toEqual([]);
    });

    it("promote, subject and announcement changes are the sandbox's group events; a companion's group message is the member's", async () => {
      expect(await changeBoth({ by: admin.phone, action: 'promote', participants: [joiner.phone] }, { promote: [joiner.phone] })).toEqual([
        { id: '<group>', timestamp: 'string', sender: senderOf(admin), promote: [identity(joiner)] },
      ]);
      expect(await changeBoth({ by: admin.phone, action: 'subject', subject: 'Crew renamed' }, { name: 'Crew renamed' })).toEqual([
        { id: '<group>', timestamp: 'string', sender: senderOf(admin), name: { name: 'Crew renamed' } },
      ]);
      expect(await changeBoth({ by: admin.phone, action: 'announce', announce: true }, { announce: true })).toEqual([
        { id: '<group>', timestamp: 'string', sender: senderOf(admin), announce: { isAnnounce: true } },
      ]);

      const { id } = await network.sendToGroup(joiner.phone, realDevice, groupId, { conversation: 'from my laptop' }, 1);
      expect(await messageEvent(real, id)).toEqual({
        id,
        time: expect.any(String),
        chatId: groupId,
        sender: senderOf(joiner),
        isGroup: true,
        isStatus: false,
        type: 'text',
        text: 'from my laptop',
      });
    });

    it("a change in someone else's group the instance never sent to names its author by phone number, as the sandbox does", async () => {
      // The group is the stranger's: the instance never fetched it, so nothing but the notification pairs the author's
      // two identities (rc14 drops `participant_pn` / `participant_lid` from its group events).
      const stranger = mode === 'pn' ? PEOPLE.mia : PEOPLE.ned;
      const { id: theirs } = await network.createGroup(stranger.phone, `Ours ${mode}`, [ME_JID], mode);
      const sandboxGroup = await http.post(
        '/sandbox/groups',
        { name: `Ours ${mode}`, participants: [stranger.phone], admins: [stranger.phone], selfIsAdmin: false },
        headersOf(sandbox),
      );
      expect(sandboxGroup.status).toBe(201);
      const theirsInSandbox = (sandboxGroup.body as { id: string }).id;
      const [realSeq, sandboxSeq] = [await lastSeqOf(real.id), await lastSeqOf(sandbox.id)];
      await network.changeGroup(theirs, { by: stranger.phone, action: 'subject', subject: 'Renamed by them' });
      const sandboxed = await http.post(
        `/sandbox/groups/${theirsInSandbox}/changes`,
        { by: stranger.phone, name: 'Renamed by them' },
        headersOf(sandbox),
      );
      expect(sandboxed.status).toBe(204);
      const eventOf = async (instance: CreatedInstance, after: number, group: string) => {
        const [event] = await eventually(
          () => eventsOfType(instance.id, 'group', after),
          (logged) => logged.some((logged) => logged.data.id === group),
          15_000,
        );
        const { id: _id, ...rest } = event.data;
        return rest;
      };
      const realEvent = await eventOf(real, realSeq, theirs);
      expect(realEvent).toEqual({ sender: senderOf(stranger), timestamp: expect.any(String), name: { name: 'Renamed by them' } });
      expect({ ...realEvent, timestamp: 't' }).toEqual({ ...(await eventOf(sandbox, sandboxSeq, theirsInSandbox)), timestamp: 't' });
    });

    it('a member device that never got our sender key asks again, and our resend carries the key: it decrypts', async () => {
      // The admin links a laptop the instance has not heard of yet (its device list is cached without it).
      const { device } = await network.addContactDevice(admin.phone, false);
      const id = await send(groupId, 'can everyone read this?');
      const copies = await eventually(
        async () => (await network.inbox(admin.phone)).filter((entry) => entry.id === id && entry.device === device),
        (entries) => entries.some((entry) => entry.retry === 1),
        30_000,
      );
      // First the skmsg it cannot read (libsignal's group cipher finds no sender key of ours), then our answer to its
      // retry receipt: rc14 sends one stanza to the group naming the device in `participant`, with the message twice
      // (a plain copy under `participants`, and the copy with the retry count and our sender key).
      expect(copies.map((copy) => [copy.encType, copy.retry ?? null, copy.error ?? null, text(copy) ?? null])).toEqual([
        ['skmsg', null, 'No session found to decrypt message', null],
        ['pkmsg', null, null, 'can everyone read this?'],
        ['pkmsg', 1, null, 'can everyone read this?'],
      ]);
      expect(copies[0].distribution).toBeNull();
      expect(copies[2].attrs).toEqual({
        id,
        to: groupId,
        type: 'text',
        participant: mode === 'lid' ? `${admin.lid}:${device}@lid` : `${admin.phone}:${device}@s.whatsapp.net`,
      });
      expect(await network.groupRetries(admin.phone)).toEqual([{ id, group: groupId, device, count: 1 }]);
      // From now on the laptop holds our sender key: the next message needs no retry.
      const next = await send(groupId, 'and this?');
      const [nextCopy] = await eventually(
        async () => (await network.inbox(admin.phone)).filter((entry) => entry.id === next && entry.device === device),
        (entries) => entries.length === 1,
        30_000,
      );
      expect([nextCopy.encType, nextCopy.error, text(nextCopy)]).toEqual(['skmsg', undefined, 'and this?']);
      // The retry made rc14 forget who holds our sender key, so this send gave it again to every device of every member
      // the group metadata cache lists: the member removed earlier is not among them (nor gets the skmsg).
      await copiesOf(joiner, next, 2);
      expect((await network.inbox(leaver.phone)).filter((entry) => entry.id === next)).toEqual([]);
      expect((await copiesOf(joiner, next, 2)).map((copy) => [copy.distribution?.groupId, copy.error])).toEqual([
        [groupId, undefined],
        [groupId, undefined],
      ]);
    });
  });
});
