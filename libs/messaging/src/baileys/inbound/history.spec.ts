import type { BaileysEvents } from '../baileys-library';
import { eventsIn, inboundHarness, long, type Harness } from '../testing/inbound';
import { ANA, BOB, GROUP, ME, senderOf } from '../testing/people';

/** A RECENT history chunk as processHistoryMessage builds it: chats, contacts and messages newest first. */
function recentChunk(): BaileysEvents['messaging-history.set'] {
  return {
    chats: [
      {
        id: GROUP,
        name: 'Book club',
        conversationTimestamp: long(1763800120),
        unreadCount: 0,
        pinned: 1763700000,
        muteEndTime: long(1763820000000),
        ephemeralExpiration: 604800,
      },
      {
        id: ANA.lid,
        pnJid: ANA.pn,
        conversationTimestamp: long(1763800060),
        unreadCount: 2,
        archived: false,
        lastMessageRecvTimestamp: 1763800060,
      },
    ],
    contacts: [
      { id: GROUP, name: 'Book club', username: undefined, lid: undefined, phoneNumber: undefined },
      { id: ANA.lid, name: 'Ana Silva', username: undefined, lid: undefined, phoneNumber: ANA.pn },
    ],
    messages: [
      {
        key: { remoteJid: GROUP, fromMe: false, id: '3EB0000000000HIST003', participant: BOB.lid, participantAlt: BOB.pn },
        messageTimestamp: long(1763800120),
        message: { extendedTextMessage: { text: 'chapter 3 tonight' } },
      },
      {
        key: { remoteJid: ANA.lid, fromMe: false, id: '3A5C0000000000HIST02' },
        messageTimestamp: long(1763800060),
        message: { reactionMessage: { key: { remoteJid: ANA.lid, fromMe: true, id: '3AF10000000000HIST01' }, text: '👍' } },
      },
      {
        key: { remoteJid: ANA.lid, fromMe: false, id: '3A5C0000000000HIST04' },
        messageTimestamp: long(1763800060),
        messageStubType: 1,
      },
      {
        key: { remoteJid: ANA.lid, fromMe: false, id: '3A5C0000000000HIST05' },
        messageTimestamp: long(1763800060),
        message: { conversation: 'see you there' },
      },
      {
        key: { remoteJid: ANA.lid, fromMe: true, id: '3AF10000000000HIST01' },
        messageTimestamp: long(1763800000),
        status: 4,
        message: { conversation: 'dinner at 8?' },
        userReceipt: [{ userJid: ANA.pn, readTimestamp: long(1763800030) }],
      },
    ],
    lidPnMappings: [{ lid: ANA.lid, pn: ANA.pn }],
    isLatest: true,
    progress: 100,
    syncType: 3,
    chunkOrder: 1,
  };
}

describe('messaging-history.set', () => {
  let harness: Harness;
  beforeEach(() => {
    jest.useFakeTimers({ now: new Date('2025-11-22T10:00:00.000Z'), doNotFake: ['nextTick', 'setImmediate', 'queueMicrotask'] });
    harness = inboundHarness();
  });
  afterEach(() => jest.useRealTimers());

  it('learns contacts and chats, stores the messages and reports them per chat, oldest first', async () => {
    const calls = await harness.deliver({ 'messaging-history.set': recentChunk() });

    const common = { isStatus: false };
    expect(calls).toEqual([
      {
        learned: {
          contacts: [
            { jid: ANA.pn, lid: ANA.lid },
            { jid: BOB.pn, lid: BOB.lid },
          ],
        },
      },
      { learned: { contacts: [{ jid: ANA.pn, lid: ANA.lid, fullName: 'Ana Silva' }] } },
      {
        learned: {
          chats: [
            {
              jid: GROUP,
              isGroup: true,
              pinned: true,
              muted: true,
              muteEndTime: '2025-11-22T14:00:00.000Z',
              read: true,
              ephemeralSeconds: 604800,
              lastActivity: '2025-11-22T08:28:40.000Z',
            },
            { jid: ANA.pn, lid: ANA.lid, isGroup: false, archived: false, read: false, lastActivity: '2025-11-22T08:27:40.000Z' },
          ],
        },
      },
      {
        event: {
          eventType: 'message_history_sync',
          data: {
            chatId: ANA.pn,
            messages: [
              {
                id: '3AF10000000000HIST01',
                time: '2025-11-22T08:26:40.000Z',
                chatId: ANA.pn,
                sender: ME,
                isGroup: false,
                ...common,
                type: 'text',
                text: 'dinner at 8?',
              },
              {
                id: '3A5C0000000000HIST05',
                time: '2025-11-22T08:27:40.000Z',
                chatId: ANA.pn,
                sender: senderOf(ANA),
                isGroup: false,
                ...common,
                type: 'text',
                text: 'see you there',
              },
            ],
          },
        },
      },
      {
        event: {
          eventType: 'message_history_sync',
          data: {
            chatId: GROUP,
            messages: [
              {
                id: '3EB0000000000HIST003',
                time: '2025-11-22T08:28:40.000Z',
                chatId: GROUP,
                sender: senderOf(BOB),
                isGroup: true,
                ...common,
                type: 'text',
                text: 'chapter 3 tonight',
              },
            ],
          },
        },
      },
    ]);
    expect(harness.store.ids().sort()).toEqual([
      '3A5C0000000000HIST02',
      '3A5C0000000000HIST05',
      '3AF10000000000HIST01',
      '3EB0000000000HIST003',
    ]);
  });

  it('reports history again on demand, though its messages are stored', async () => {
    await harness.deliver({ 'messaging-history.set': recentChunk() });
    const calls = await harness.deliver({ 'messaging-history.set': { ...recentChunk(), syncType: 6, isLatest: undefined } });

    expect(eventsIn(calls).map((event) => event.eventType)).toEqual(['message_history_sync', 'message_history_sync']);
  });

  it('learns the push names of a PUSH_NAME chunk', async () => {
    const calls = await harness.deliver({
      'messaging-history.set': {
        chats: [],
        contacts: [
          { id: ANA.lid, notify: 'Ana' },
          { id: BOB.pn, notify: 'Bob' },
        ],
        messages: [],
        lidPnMappings: [{ lid: ANA.lid, pn: ANA.pn }],
        syncType: 4,
        progress: null,
      },
    });

    expect(calls).toEqual([
      { learned: { contacts: [{ jid: ANA.pn, lid: ANA.lid }] } },
      {
        learned: {
          contacts: [
            { jid: ANA.pn, lid: ANA.lid, pushName: 'Ana' },
            { jid: BOB.pn, pushName: 'Bob' },
          ],
        },
      },
    ]);
  });
});
