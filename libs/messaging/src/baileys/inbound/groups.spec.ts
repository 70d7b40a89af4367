import { eventsIn, type Harness, inboundHarness } from '../testing/inbound';
import { ANA, BOB, CAROL, GROUP, SELF, identityOf, senderOf } from '../testing/people';

const COMMUNITY = '120363111111111111@g.us';
/** Member and settings changes carry the time they reached the instance (rc14 drops the notification's own). */
const ARRIVED = expect.stringMatching(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/) as unknown as string;

describe('group events', () => {
  let harness: Harness;
  beforeEach(() => {
    harness = inboundHarness();
  });

  describe('group-participants.update', () => {
    it('reports members an admin added, the v7 participant objects carrying both JIDs', async () => {
      const calls = await harness.deliver({
        'group-participants.update': {
          id: GROUP,
          author: BOB.lid,
          authorPn: BOB.pn,
          participants: [
            { id: CAROL.lid, phoneNumber: CAROL.pn, admin: null },
            { id: ANA.pn, lid: ANA.lid, admin: null },
          ],
          action: 'add',
        },
      });

      expect(calls).toEqual([
        {
          learned: {
            contacts: [
              { jid: BOB.pn, lid: BOB.lid },
              { jid: CAROL.pn, lid: CAROL.lid },
              { jid: ANA.pn, lid: ANA.lid },
            ],
          },
        },
        {
          event: {
            eventType: 'group',
            data: { id: GROUP, sender: senderOf(BOB), timestamp: ARRIVED, join: [identityOf(CAROL), identityOf(ANA)] },
          },
        },
      ]);
    });

    it('reports a member joining by invite link with the invite reason', async () => {
      const calls = await harness.deliver({
        'group-participants.update': {
          id: GROUP,
          author: ANA.lid,
          authorPn: ANA.pn,
          participants: [{ id: ANA.lid, phoneNumber: ANA.pn, admin: null }],
          action: 'add',
        },
      });

      expect(eventsIn(calls)).toEqual([
        {
          eventType: 'group',
          data: { id: GROUP, sender: senderOf(ANA), timestamp: ARRIVED, joinReason: 'invite', join: [identityOf(ANA)] },
        },
      ]);
    });

    it('reports leaving, removal, promotion and demotion', async () => {
      const change = (action: 'remove' | 'promote' | 'demote', author: typeof ANA, member: typeof ANA) =>
        harness.deliver({
          'group-participants.update': {
            id: GROUP,
            author: author.lid,
            authorPn: author.pn,
            participants: [{ id: member.lid, phoneNumber: member.pn, admin: action === 'promote' ? 'admin' : null }],
            action,
          },
        });
      const calls = [
        ...(await change('remove', ANA, ANA)),
        ...(await change('remove', BOB, CAROL)),
        ...(await change('promote', BOB, ANA)),
        ...(await change('demote', BOB, ANA)),
      ];

      expect(eventsIn(calls).map((event) => event.data)).toEqual([
        { id: GROUP, sender: senderOf(ANA), timestamp: ARRIVED, leave: [identityOf(ANA)] },
        { id: GROUP, sender: senderOf(BOB), timestamp: ARRIVED, leave: [identityOf(CAROL)] },
        { id: GROUP, sender: senderOf(BOB), timestamp: ARRIVED, promote: [identityOf(ANA)] },
        { id: GROUP, sender: senderOf(BOB), timestamp: ARRIVED, demote: [identityOf(ANA)] },
      ]);
    });

    it('reports this account being added, as this account', async () => {
      const calls = await harness.deliver({
        'group-participants.update': {
          id: GROUP,
          author: BOB.lid,
          authorPn: BOB.pn,
          participants: [{ id: SELF.lid, phoneNumber: SELF.pn, admin: null }],
          action: 'add',
        },
      });

      expect(eventsIn(calls)).toEqual([
        { eventType: 'group', data: { id: GROUP, sender: senderOf(BOB), timestamp: ARRIVED, join: [identityOf(SELF)] } },
      ]);
    });

    it("names an author rc14 gives by LID alone by phone number, from the w:gp2 notification's participant_pn", async () => {
      harness.context.groupActors?.notified({
        tag: 'notification',
        attrs: { from: GROUP, type: 'w:gp2', participant: BOB.lid, participant_pn: BOB.pn, addressing_mode: 'lid' },
      });
      const calls = await harness.deliver({
        'group-participants.update': {
          id: GROUP,
          author: BOB.lid,
          participants: [{ id: CAROL.lid, phoneNumber: CAROL.pn, admin: null }],
          action: 'add',
        },
        'groups.update': [{ id: GROUP, subject: 'Renamed', author: BOB.lid }],
      });

      expect(eventsIn(calls).map((event) => event.data)).toEqual([
        { id: GROUP, sender: senderOf(BOB), timestamp: ARRIVED, name: { name: 'Renamed' } },
        { id: GROUP, sender: senderOf(BOB), timestamp: ARRIVED, join: [identityOf(CAROL)] },
      ]);
    });

    it('reports no event for a number change, only the pair it tells', async () => {
      const calls = await harness.deliver({
        'group-participants.update': {
          id: GROUP,
          author: CAROL.lid,
          authorPn: CAROL.pn,
          participants: [{ id: CAROL.lid, phoneNumber: CAROL.pn }],
          action: 'modify',
        },
      });

      expect(calls).toEqual([{ learned: { contacts: [{ jid: CAROL.pn, lid: CAROL.lid }] } }]);
    });
  });

  describe('groups.update', () => {
    it('reports subject, description, announce, locked and membership approval changes by their author', async () => {
      const by = { author: BOB.lid, authorPn: BOB.pn, authorUsername: undefined };
      const calls = await harness.deliver({
        'groups.update': [
          { id: GROUP, subject: 'Weekend trip', ...by },
          { id: `${GROUP.slice(0, -5)}1@g.us`, desc: 'Bring snacks', ...by },
          { id: `${GROUP.slice(0, -5)}2@g.us`, desc: undefined, ...by },
          { id: `${GROUP.slice(0, -5)}3@g.us`, announce: true, ...by },
          { id: `${GROUP.slice(0, -5)}4@g.us`, restrict: false, ...by },
          { id: `${GROUP.slice(0, -5)}5@g.us`, joinApprovalMode: true, ...by },
        ],
      });

      const sender = senderOf(BOB);
      expect(eventsIn(calls).map((event) => event.data)).toEqual([
        { id: GROUP, sender, timestamp: ARRIVED, name: { name: 'Weekend trip' } },
        { id: `${GROUP.slice(0, -5)}1@g.us`, sender, timestamp: ARRIVED, description: { topic: 'Bring snacks' } },
        { id: `${GROUP.slice(0, -5)}2@g.us`, sender, timestamp: ARRIVED, description: { topic: '' } },
        { id: `${GROUP.slice(0, -5)}3@g.us`, sender, timestamp: ARRIVED, announce: { isAnnounce: true } },
        { id: `${GROUP.slice(0, -5)}4@g.us`, sender, timestamp: ARRIVED, locked: { isLocked: false } },
        { id: `${GROUP.slice(0, -5)}5@g.us`, sender, timestamp: ARRIVED, membershipApproval: { isRequired: true } },
      ]);
    });

    it('reports nothing for a full metadata read (groupFetchAllParticipating)', async () => {
      const calls = await harness.deliver({
        'groups.update': [
          {
            id: GROUP,
            subject: 'Weekend trip',
            owner: BOB.lid,
            ownerPn: BOB.pn,
            creation: 1763700000,
            announce: false,
            restrict: false,
            participants: [{ id: BOB.lid, phoneNumber: BOB.pn, admin: 'superadmin' }],
          },
        ],
      });

      expect(eventsIn(calls)).toEqual([]);
    });
  });

  it('reports a group created with this account in it (groups.upsert), community parts included', async () => {
    const metadata = (id: string, extra: object) => ({
      id,
      addressingMode: 'lid' as never,
      subject: 'Book club',
      subjectOwner: BOB.lid,
      subjectOwnerPn: BOB.pn,
      subjectTime: 1763800000,
      size: 2,
      creation: 1763800000,
      owner: BOB.lid,
      ownerPn: BOB.pn,
      restrict: false,
      announce: false,
      joinApprovalMode: false,
      memberAddMode: false,
      participants: [
        { id: BOB.lid, phoneNumber: BOB.pn, admin: 'superadmin' as const },
        { id: SELF.lid, phoneNumber: SELF.pn, admin: null },
      ],
      author: BOB.lid,
      authorPn: BOB.pn,
      ...extra,
    });
    const calls = await harness.deliver({
      'groups.upsert': [
        metadata(GROUP, { isCommunity: false, isCommunityAnnounce: false }),
        metadata(COMMUNITY, { isCommunity: true, isCommunityAnnounce: false }),
        metadata(`${GROUP.slice(0, -5)}9@g.us`, { linkedParent: COMMUNITY, isCommunityAnnounce: true, announce: true }),
      ],
    });

    const base = { sender: senderOf(BOB), timestamp: '2025-11-22T08:26:40.000Z', groupType: 'new', join: [identityOf(SELF)] };
    expect(eventsIn(calls).map((event) => event.data)).toEqual([
      { id: GROUP, ...base },
      { id: COMMUNITY, ...base, isCommunity: true },
      { id: `${GROUP.slice(0, -5)}9@g.us`, ...base, communityId: COMMUNITY, isAnnouncementGroup: true },
    ]);
  });

  it('reports no event for a join request (the contract has none), only the pairs it carries', async () => {
    const calls = await harness.deliver({
      'group.join-request': {
        id: GROUP,
        author: CAROL.lid,
        authorPn: CAROL.pn,
        participant: CAROL.lid,
        participantPn: CAROL.pn,
        action: 'created',
        method: 'invite_link',
      },
    });

    expect(calls).toEqual([{ learned: { contacts: [{ jid: CAROL.pn, lid: CAROL.lid }] } }]);
  });
});
