import { eventsIn, type Harness, inboundHarness, long } from '../testing/inbound';
import { ANA, BOB, GROUP } from '../testing/people';

const NOW = new Date('2025-11-22T10:00:00.000Z');

describe('chats.upsert and chats.update', () => {
  let harness: Harness;
  beforeEach(() => {
    jest.useFakeTimers({ now: NOW, doNotFake: ['nextTick', 'setImmediate', 'queueMicrotask'] });
    harness = inboundHarness({ knownPairs: { [ANA.lid]: ANA.pn } });
  });
  afterEach(() => jest.useRealTimers());

  it('learns the chats the phone lists', async () => {
    const calls = await harness.deliver({
      'chats.upsert': [
        { id: GROUP, name: 'Book club', conversationTimestamp: 1763800000 },
        { id: ANA.lid, archived: true, muteEndTime: -1, unreadCount: 0, conversationTimestamp: long(1763800060) },
        { id: '120363000000000001@newsletter', name: 'News' },
      ],
    });

    expect(calls).toEqual([
      {
        learned: {
          chats: [
            { jid: GROUP, isGroup: true, lastActivity: '2025-11-22T08:26:40.000Z' },
            {
              jid: ANA.pn,
              lid: ANA.lid,
              isGroup: false,
              archived: true,
              muted: true,
              muteEndTime: null,
              read: true,
              lastActivity: '2025-11-22T08:27:40.000Z',
            },
          ],
        },
      },
    ]);
  });

  it('reports archive, pin, mute and read changes made on the phone', async () => {
    // As processSyncAction emits them (the buffer has already dropped `conditional`).
    const calls = await harness.deliver({
      'chats.update': [
        { id: ANA.lid, archived: true },
        { id: GROUP, pinned: 1763800000000 },
        { id: BOB.pn, pinned: null },
        { id: GROUP, muteEndTime: 1763827200000 },
        { id: BOB.pn, muteEndTime: -1 },
        { id: ANA.lid, muteEndTime: null },
        { id: ANA.lid, unreadCount: 0 },
        { id: BOB.pn, unreadCount: -1 },
      ],
    });

    const setting = (id: string, data: object) => ({ eventType: 'chat_setting', data: { id, ...data } });
    expect(eventsIn(calls)).toEqual([
      setting(ANA.pn, { settingType: 'archive', archive: { isArchived: true } }),
      setting(GROUP, { settingType: 'pin', pin: { isPinned: true } }),
      setting(BOB.pn, { settingType: 'pin', pin: { isPinned: false } }),
      setting(GROUP, { settingType: 'mute', mute: { isMuted: true, muteEndTime: '2025-11-22T16:00:00.000Z' } }),
      setting(BOB.pn, { settingType: 'mute', mute: { isMuted: true } }),
      setting(ANA.pn, { settingType: 'mute', mute: { isMuted: false } }),
      setting(ANA.pn, { settingType: 'read', read: { isRead: true } }),
      setting(BOB.pn, { settingType: 'read', read: { isRead: false } }),
    ]);
  });

  it('learns, without an event, what a message did to its chat', async () => {
    // processMessage's chat update for a new message with "keep chats archived" off.
    const calls = await harness.deliver({
      'chats.update': [{ id: ANA.lid, conversationTimestamp: 1763800000, unreadCount: 1, archived: false, readOnly: false }],
    });

    expect(calls).toEqual([{ learned: { chats: [{ jid: ANA.pn, lid: ANA.lid, isGroup: false, archived: false }] } }]);
  });
});
