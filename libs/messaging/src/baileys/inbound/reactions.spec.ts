import type { WAMessage } from '../baileys-library';
import { eventsIn, type Harness, inboundHarness, long } from '../testing/inbound';
import { ANA, BOB, GROUP, ME, senderOf } from '../testing/people';

/** Bob's reaction message in the group, as received. */
const bobReacts: WAMessage = {
  key: { remoteJid: GROUP, fromMe: false, id: '3A5C00000000REACTION', participant: BOB.lid, participantAlt: BOB.pn },
  messageTimestamp: 1763800060,
  pushName: 'Bob',
  message: {
    reactionMessage: {
      key: { remoteJid: GROUP, fromMe: true, id: '3EB00000000000TARGET' },
      text: '❤️',
      senderTimestampMs: long(1763800060789),
    },
  },
};

/** What processMessage derives from it: the target's key, and the reaction with the reaction message's key. */
const derived = {
  key: { remoteJid: GROUP, fromMe: true, id: '3EB00000000000TARGET' },
  reaction: { key: bobReacts.key, text: '❤️', senderTimestampMs: long(1763800060789) },
};

describe('messages.reaction', () => {
  let harness: Harness;
  beforeEach(() => {
    harness = inboundHarness();
  });

  it('reports a reaction known only from messages.reaction, and stores it', async () => {
    const calls = await harness.deliver({ 'messages.reaction': [derived] });

    expect(eventsIn(calls)).toEqual([
      {
        eventType: 'message',
        data: {
          id: '3A5C00000000REACTION',
          time: '2025-11-22T08:27:40.789Z',
          chatId: GROUP,
          sender: senderOf(BOB),
          isGroup: true,
          isStatus: false,
          type: 'reaction',
          reaction: { messageId: '3EB00000000000TARGET', emoji: '❤️' },
        },
      },
    ]);
    expect(harness.store.ids()).toEqual(['3A5C00000000REACTION']);
  });

  it('reports a reaction once when its message and the derived reaction arrive together', async () => {
    const calls = await harness.deliver({ 'messages.upsert': { type: 'notify', messages: [bobReacts] }, 'messages.reaction': [derived] });

    expect(eventsIn(calls).map((event) => event.eventType)).toEqual(['message']);
  });

  it('reports a removed reaction with an empty emoji, and this account’s reaction from the phone as its own', async () => {
    const calls = await harness.deliver({
      'messages.reaction': [
        { ...derived, reaction: { ...derived.reaction, text: '' } },
        {
          key: { remoteJid: ANA.pn, fromMe: false, id: '3A5C0000000000HERMSG' },
          reaction: {
            key: { remoteJid: ANA.pn, fromMe: true, id: '3AF1000000000MYREACT' },
            text: '😂',
            senderTimestampMs: long(1763800120000),
          },
        },
      ],
    });

    expect(
      eventsIn(calls).map((event) => event.eventType === 'message' && [event.data.sender, event.data.chatId, event.data.reaction]),
    ).toEqual([
      [senderOf(BOB), GROUP, { messageId: '3EB00000000000TARGET', emoji: '' }],
      [ME, ANA.pn, { messageId: '3A5C0000000000HERMSG', emoji: '😂' }],
    ]);
  });

  it('leaves out the gateway’s own reaction', async () => {
    harness.sent.add('3EB000000000MYREACT2');
    const calls = await harness.deliver({
      'messages.reaction': [
        {
          key: { remoteJid: ANA.pn, fromMe: false, id: '3A5C0000000000HERMSG' },
          reaction: {
            key: { remoteJid: ANA.pn, fromMe: true, id: '3EB000000000MYREACT2' },
            text: '👍',
            senderTimestampMs: long(1763800120000),
          },
        },
      ],
    });

    expect(eventsIn(calls)).toEqual([]);
  });
});
