import { eventsIn, type Harness, inboundHarness } from '../testing/inbound';
import { ANA, BOB, GROUP, identityOf, senderOf } from '../testing/people';

describe('presence.update', () => {
  let harness: Harness;
  beforeEach(() => {
    harness = inboundHarness({ knownPairs: { [ANA.lid]: ANA.pn, [BOB.lid]: BOB.pn } });
  });

  it('reports typing, recording and pausing in a chat; Baileys hands a pause over as a bare `available`', async () => {
    const calls = await harness.deliver({ 'presence.update': { id: GROUP, presences: { [BOB.lid]: { lastKnownPresence: 'composing' } } } });
    calls.push(
      ...(await harness.deliver({ 'presence.update': { id: ANA.lid, presences: { [ANA.lid]: { lastKnownPresence: 'recording' } } } })),
    );
    calls.push(
      ...(await harness.deliver({ 'presence.update': { id: ANA.lid, presences: { [ANA.lid]: { lastKnownPresence: 'available' } } } })),
    );

    expect(eventsIn(calls)).toEqual([
      { eventType: 'chat_presence', data: { id: GROUP, sender: senderOf(BOB), state: 'typing' } },
      { eventType: 'chat_presence', data: { id: ANA.pn, sender: senderOf(ANA), state: 'recording' } },
      { eventType: 'chat_presence', data: { id: ANA.pn, sender: senderOf(ANA), state: 'paused' } },
    ]);
  });

  it('reports a person coming online, and going offline with when they were last seen', async () => {
    const calls = await harness.deliver({
      'presence.update': {
        id: ANA.lid,
        presences: { [ANA.lid]: { lastKnownPresence: 'available', lastSeen: undefined, groupOnlineCount: undefined } },
      },
    });
    calls.push(
      ...(await harness.deliver({
        'presence.update': {
          id: ANA.lid,
          presences: { [ANA.lid]: { lastKnownPresence: 'unavailable', lastSeen: 1763800300, groupOnlineCount: undefined } },
        },
      })),
    );

    expect(eventsIn(calls)).toEqual([
      { eventType: 'user_presence', data: { user: identityOf(ANA), status: 'available' } },
      { eventType: 'user_presence', data: { user: identityOf(ANA), status: 'unavailable', lastSeen: '2025-11-22T08:31:40.000Z' } },
    ]);
  });

  it('leaves out a group’s online count', async () => {
    const calls = await harness.deliver({
      'presence.update': {
        id: GROUP,
        presences: { [GROUP]: { lastKnownPresence: 'available', lastSeen: undefined, groupOnlineCount: 4 } },
      },
    });

    expect(eventsIn(calls)).toEqual([]);
  });
});
