import { AppError } from '@app/contracts';
import { signalRepositoryWith } from '../testing/rc14';
import { boom } from '../testing/kit';
import { buildOperations, fakeContext, iqError, storedMessage } from '../testing/operations';

const USER = '447700900123@s.whatsapp.net';
const GROUP = '120363025246125486@g.us';
const ALICE = '447700900200@s.whatsapp.net';
const t = (seconds: number) => new Date(seconds * 1000);

/** A group chat: my newest message, then Alice's, then an older one of mine. */
const groupHistory = [
  storedMessage({ id: 'M3', chatJid: GROUP, fromMe: true, sentAt: t(1_790_000_300) }),
  storedMessage({ id: 'A2', chatJid: GROUP, fromMe: false, senderJid: ALICE, sentAt: t(1_790_000_200) }),
  storedMessage({ id: 'M1', chatJid: GROUP, fromMe: true, sentAt: t(1_790_000_100) }),
];

describe('Baileys chat operations', () => {
  const operations = buildOperations();

  describe('chats.archive', () => {
    it('patches the chat with the stored messages, newest first, down to the newest one received', async () => {
      const chatModify = jest.fn().mockResolvedValue(undefined);
      const context = fakeContext({ socket: { chatModify }, messages: groupHistory });
      await expect(operations.perform(context, 'chats.archive', { chatId: GROUP, archived: true })).resolves.toEqual({});
      expect(chatModify).toHaveBeenCalledWith(
        {
          archive: true,
          lastMessages: [
            { key: { remoteJid: GROUP, id: 'M3', fromMe: true }, messageTimestamp: 1_790_000_300 },
            { key: { remoteJid: GROUP, id: 'A2', fromMe: false, participant: ALICE }, messageTimestamp: 1_790_000_200 },
          ],
        },
        GROUP,
      );
    });

    it("takes a group sender from the stored message's key when the record has none", async () => {
      const chatModify = jest.fn().mockResolvedValue(undefined);
      const messages = [storedMessage({ id: 'A9', chatJid: GROUP, sentAt: t(1_790_000_900), participant: '12345678901234@lid' })];
      await operations.perform(fakeContext({ socket: { chatModify }, messages }), 'chats.archive', { chatId: GROUP, archived: false });
      expect(chatModify).toHaveBeenCalledWith(
        {
          archive: false,
          lastMessages: [
            { key: { remoteJid: GROUP, id: 'A9', fromMe: false, participant: '12345678901234@lid' }, messageTimestamp: 1_790_000_900 },
          ],
        },
        GROUP,
      );
    });

    it('describes a chat without stored messages by a range ending now', async () => {
      jest.useFakeTimers({ now: t(1_790_001_000) });
      try {
        const chatModify = jest.fn().mockResolvedValue(undefined);
        await operations.perform(fakeContext({ socket: { chatModify } }), 'chats.archive', { chatId: USER, archived: true });
        expect(chatModify).toHaveBeenCalledWith({ archive: true, lastMessages: { lastMessageTimestamp: 1_790_001_000 } }, USER);
      } finally {
        jest.useRealTimers();
      }
    });

    it('keeps the whole window when nothing in it was received', async () => {
      const chatModify = jest.fn().mockResolvedValue(undefined);
      const messages = [
        storedMessage({ id: 'M2', chatJid: USER, fromMe: true, sentAt: t(1_790_000_020) }),
        storedMessage({ id: 'M1', chatJid: USER, fromMe: true, sentAt: t(1_790_000_010) }),
      ];
      await operations.perform(fakeContext({ socket: { chatModify }, messages }), 'chats.archive', { chatId: USER, archived: true });
      const [[modification]] = chatModify.mock.calls as [[{ lastMessages: { key: { id: string } }[] }]];
      expect(modification.lastMessages.map((message) => message.key.id)).toEqual(['M2', 'M1']);
    });

    it('reports the missing app-state key as the instance not available yet (the phone shares it after pairing)', async () => {
      const chatModify = jest.fn().mockRejectedValue(boom('App state key not present!', { statusCode: 400 }));
      await expect(
        operations.perform(fakeContext({ socket: { chatModify } }), 'chats.archive', { chatId: USER, archived: true }),
      ).rejects.toMatchObject({
        code: 'instance_unavailable',
        detail: 'instance not available: the phone has not shared its app-state key with this device yet; try again in a few seconds',
      });
    });
  });

  describe('chats.mute', () => {
    it('mutes until an absolute time in epoch milliseconds', async () => {
      const chatModify = jest.fn().mockResolvedValue(undefined);
      await operations.perform(fakeContext({ socket: { chatModify } }), 'chats.mute', {
        chatId: USER,
        muted: true,
        until: '2026-12-01T08:00:00.000Z',
      });
      expect(chatModify).toHaveBeenCalledWith({ mute: Date.parse('2026-12-01T08:00:00.000Z') }, USER);
    });

    it('mutes forever with -1 and unmutes with null', async () => {
      const chatModify = jest.fn().mockResolvedValue(undefined);
      const context = fakeContext({ socket: { chatModify } });
      await operations.perform(context, 'chats.mute', { chatId: USER, muted: true });
      await operations.perform(context, 'chats.mute', { chatId: USER, muted: false, until: '2026-12-01T08:00:00.000Z' });
      expect(chatModify.mock.calls).toEqual([
        [{ mute: -1 }, USER],
        [{ mute: null }, USER],
      ]);
    });

    it('refuses an end that is not a time', async () => {
      const chatModify = jest.fn();
      await expect(
        operations.perform(fakeContext({ socket: { chatModify } }), 'chats.mute', { chatId: USER, muted: true, until: 'tomorrow' }),
      ).rejects.toEqual(AppError.validation('until must be an ISO time'));
      expect(chatModify).not.toHaveBeenCalled();
    });
  });

  describe('chats.pin', () => {
    it('pins and unpins with a pin patch', async () => {
      const chatModify = jest.fn().mockResolvedValue(undefined);
      const context = fakeContext({ socket: { chatModify } });
      await operations.perform(context, 'chats.pin', { chatId: USER, pinned: true });
      await operations.perform(context, 'chats.pin', { chatId: USER, pinned: false });
      expect(chatModify.mock.calls).toEqual([
        [{ pin: true }, USER],
        [{ pin: false }, USER],
      ]);
    });

    it('refuses a fourth pinned chat, as the phone does', async () => {
      const pinned = ['1', '2', '3'].map((n) => ({ jid: `44770090030${n}@s.whatsapp.net`, pinned: true }));
      const chatModify = jest.fn();
      const limited = buildOperations({ chats: () => Promise.resolve(pinned) });
      await expect(limited.perform(fakeContext({ socket: { chatModify } }), 'chats.pin', { chatId: USER, pinned: true })).rejects.toEqual(
        AppError.validation('at most 3 chats can be pinned at a time'),
      );
      await limited.perform(fakeContext({ socket: { chatModify } }), 'chats.pin', { chatId: pinned[0].jid, pinned: true });
      expect(chatModify).toHaveBeenCalledTimes(1);
    });
  });

  describe('chats.read', () => {
    it('marks the chat read and sends read receipts for the received messages', async () => {
      const chatModify = jest.fn().mockResolvedValue(undefined);
      const readMessages = jest.fn().mockResolvedValue(undefined);
      await operations.perform(fakeContext({ socket: { chatModify, readMessages }, messages: groupHistory }), 'chats.read', {
        chatId: GROUP,
        read: true,
      });
      expect(chatModify).toHaveBeenCalledWith(
        {
          markRead: true,
          lastMessages: [
            { key: { remoteJid: GROUP, id: 'M3', fromMe: true }, messageTimestamp: 1_790_000_300 },
            { key: { remoteJid: GROUP, id: 'A2', fromMe: false, participant: ALICE }, messageTimestamp: 1_790_000_200 },
          ],
        },
        GROUP,
      );
      expect(readMessages).toHaveBeenCalledWith([{ remoteJid: GROUP, id: 'A2', fromMe: false, participant: ALICE }]);
    });

    it('marks the chat unread without receipts', async () => {
      const chatModify = jest.fn().mockResolvedValue(undefined);
      const readMessages = jest.fn();
      await operations.perform(fakeContext({ socket: { chatModify, readMessages }, messages: groupHistory }), 'chats.read', {
        chatId: GROUP,
        read: false,
      });
      expect(chatModify).toHaveBeenCalledWith(expect.objectContaining({ markRead: false }), GROUP);
      expect(readMessages).not.toHaveBeenCalled();
    });
  });

  describe('chats.ephemeral', () => {
    it('sets a person chat timer with a disappearing-messages message', async () => {
      const sendMessage = jest.fn().mockResolvedValue({ key: { remoteJid: USER, fromMe: true, id: '3EB0X' } });
      await operations.perform(fakeContext({ socket: { sendMessage } }), 'chats.ephemeral', { chatId: USER, expiration: '7d' });
      expect(sendMessage).toHaveBeenCalledWith(USER, { disappearingMessagesInChat: 604_800 });
    });

    it("toggles a group's timer, off as 0", async () => {
      const groupToggleEphemeral = jest.fn().mockResolvedValue(undefined);
      const context = fakeContext({ socket: { groupToggleEphemeral } });
      await operations.perform(context, 'chats.ephemeral', { chatId: GROUP, expiration: '90d' });
      await operations.perform(context, 'chats.ephemeral', { chatId: GROUP, expiration: 'off' });
      expect(groupToggleEphemeral.mock.calls).toEqual([
        [GROUP, 7_776_000],
        [GROUP, 0],
      ]);
    });

    it('reports a group refusing a member as forbidden', async () => {
      const groupToggleEphemeral = jest.fn().mockRejectedValue(iqError(401, 'not-authorized'));
      await expect(
        operations.perform(fakeContext({ socket: { groupToggleEphemeral } }), 'chats.ephemeral', { chatId: GROUP, expiration: '24h' }),
      ).rejects.toEqual(AppError.forbidden('not a group admin'));
    });
  });

  describe('chats.delete and chats.clear', () => {
    it('deletes the chat with its range and forgets its stored messages', async () => {
      const chatModify = jest.fn().mockResolvedValue(undefined);
      const context = fakeContext({ socket: { chatModify }, messages: groupHistory });
      await operations.perform(context, 'chats.delete', { chatId: GROUP });
      expect(chatModify).toHaveBeenCalledWith(
        {
          delete: true,
          lastMessages: [
            { key: { remoteJid: GROUP, id: 'M3', fromMe: true }, messageTimestamp: 1_790_000_300 },
            { key: { remoteJid: GROUP, id: 'A2', fromMe: false, participant: ALICE }, messageTimestamp: 1_790_000_200 },
          ],
        },
        GROUP,
      );
      expect(context.store.forgotten).toEqual([GROUP]);
    });

    it('clears the messages and keeps the stored ones', async () => {
      const chatModify = jest.fn().mockResolvedValue(undefined);
      const context = fakeContext({ socket: { chatModify }, messages: groupHistory });
      await operations.perform(context, 'chats.clear', { chatId: GROUP });
      expect(chatModify).toHaveBeenCalledWith({ clear: true, lastMessages: expect.any(Array) as unknown }, GROUP);
      expect(context.store.forgotten).toEqual([]);
    });

    it('does not forget the messages when the network refused the delete', async () => {
      const chatModify = jest.fn().mockRejectedValue(boom('App state key not present!', { statusCode: 400 }));
      const context = fakeContext({ socket: { chatModify }, messages: groupHistory });
      await expect(operations.perform(context, 'chats.delete', { chatId: GROUP })).rejects.toMatchObject({
        code: 'instance_unavailable',
      });
      expect(context.store.forgotten).toEqual([]);
    });
  });

  describe('presence', () => {
    it('shows typing, recording and paused as Baileys chat states', async () => {
      const sendPresenceUpdate = jest.fn().mockResolvedValue(undefined);
      const context = fakeContext({ socket: { sendPresenceUpdate } });
      await operations.perform(context, 'chats.presence', { chatId: USER, state: 'typing' });
      await operations.perform(context, 'chats.presence', { chatId: USER, state: 'recording' });
      await operations.perform(context, 'chats.presence', { chatId: GROUP, state: 'paused' });
      expect(sendPresenceUpdate.mock.calls).toEqual([
        ['composing', USER],
        ['recording', USER],
        ['paused', GROUP],
      ]);
    });

    it('subscribes to a person’s presence', async () => {
      const presenceSubscribe = jest.fn().mockResolvedValue(undefined);
      await operations.perform(fakeContext({ socket: { presenceSubscribe } }), 'chats.subscribePresence', { chatId: USER });
      expect(presenceSubscribe).toHaveBeenCalledWith(USER);
    });
  });

  describe('chats.requestHistory', () => {
    it("asks the phone for older messages from the stored anchor's key and time, at most 50", async () => {
      const fetchMessageHistory = jest.fn().mockResolvedValue('PDO-1');
      const context = fakeContext({ socket: { fetchMessageHistory }, messages: groupHistory });
      await operations.perform(context, 'chats.requestHistory', {
        chatId: GROUP,
        lastMessageId: 'A2',
        lastMessageSenderId: ALICE,
        count: 200,
      });
      expect(fetchMessageHistory).toHaveBeenCalledWith(
        50,
        { remoteJid: GROUP, id: 'A2', fromMe: false, participant: ALICE },
        1_790_000_200_000,
      );
    });

    it('passes a smaller count as it is', async () => {
      const fetchMessageHistory = jest.fn().mockResolvedValue('PDO-2');
      const context = fakeContext({ socket: { fetchMessageHistory }, messages: groupHistory });
      await operations.perform(context, 'chats.requestHistory', {
        chatId: GROUP,
        lastMessageId: 'M1',
        lastMessageSenderId: '447700900001',
        count: 10,
      });
      expect(fetchMessageHistory).toHaveBeenCalledWith(10, { remoteJid: GROUP, id: 'M1', fromMe: true }, 1_790_000_100_000);
    });

    it('is not_found for an anchor this device never stored', async () => {
      const fetchMessageHistory = jest.fn();
      await expect(
        operations.perform(fakeContext({ socket: { fetchMessageHistory } }), 'chats.requestHistory', {
          chatId: USER,
          lastMessageId: 'NOPE',
          lastMessageSenderId: USER,
          count: 50,
        }),
      ).rejects.toEqual(new AppError('not_found'));
      expect(fetchMessageHistory).not.toHaveBeenCalled();
    });
  });

  /**
   * rc14 keeps a received one-to-one message under the stanza's sender, now usually the contact's LID; our own sends
   * are kept under the JID they went to, the phone number the events name the chat by. The chat is both.
   */
  describe('a LID-addressed one-to-one chat', () => {
    const USER_LID = '100000000000077@lid';
    const history = [
      storedMessage({ id: 'M3', chatJid: USER, fromMe: true, sentAt: t(1_790_000_300) }),
      storedMessage({ id: 'R2', chatJid: USER_LID, fromMe: false, sentAt: t(1_790_000_200) }),
      storedMessage({ id: 'M1', chatJid: USER, fromMe: true, sentAt: t(1_790_000_100) }),
    ];
    const RECEIVED_KEY = { remoteJid: USER_LID, id: 'R2', fromMe: false };
    /** rc14's own mapping store knows the pair, as after the first message of the LID chat. */
    const mapping = signalRepositoryWith([{ lid: USER_LID, pn: USER }]);

    it('reads it with a range over both identities and a receipt under the key the message was kept with', async () => {
      const chatModify = jest.fn().mockResolvedValue(undefined);
      const readMessages = jest.fn().mockResolvedValue(undefined);
      const context = fakeContext({ socket: { chatModify, readMessages, ...mapping }, messages: history });
      await operations.perform(context, 'chats.read', { chatId: USER, read: true });
      expect(chatModify).toHaveBeenCalledWith(
        {
          markRead: true,
          lastMessages: [
            { key: { remoteJid: USER, id: 'M3', fromMe: true }, messageTimestamp: 1_790_000_300 },
            { key: RECEIVED_KEY, messageTimestamp: 1_790_000_200 },
          ],
        },
        USER,
      );
      expect(readMessages).toHaveBeenCalledWith([RECEIVED_KEY]);
    });

    it('asks for history before a message kept under the LID', async () => {
      const fetchMessageHistory = jest.fn().mockResolvedValue('PDO-3');
      const context = fakeContext({ socket: { fetchMessageHistory, ...mapping }, messages: history });
      await operations.perform(context, 'chats.requestHistory', {
        chatId: USER,
        lastMessageId: 'R2',
        lastMessageSenderId: USER,
        count: 20,
      });
      expect(fetchMessageHistory).toHaveBeenCalledWith(20, RECEIVED_KEY, 1_790_000_200_000);
    });

    it('deletes it and forgets the messages kept under either identity', async () => {
      const chatModify = jest.fn().mockResolvedValue(undefined);
      const context = fakeContext({ socket: { chatModify, ...mapping }, messages: history });
      await operations.perform(context, 'chats.delete', { chatId: USER });
      expect(chatModify).toHaveBeenCalledWith(
        {
          delete: true,
          lastMessages: [
            { key: { remoteJid: USER, id: 'M3', fromMe: true }, messageTimestamp: 1_790_000_300 },
            { key: RECEIVED_KEY, messageTimestamp: 1_790_000_200 },
          ],
        },
        USER,
      );
      expect(await context.store.latest('inst-1', [USER, USER_LID], 10)).toEqual([]);
    });
  });

  describe('chats.picture', () => {
    const URL =
      'https://pps.whatsapp.net/v/t61.24694-24/491836228_1232094478631937_7417364915224451133_n.jpg?ccb=11-4&oh=01_Q5Aa&oe=6850B2F1&_nc_sid=5e03e0&_nc_cat=104';

    it('answers the full-size picture, its id taken from the file name', async () => {
      const profilePictureUrl = jest.fn().mockResolvedValue(URL);
      await expect(operations.perform(fakeContext({ socket: { profilePictureUrl } }), 'chats.picture', { chatId: USER })).resolves.toEqual({
        pictureId: '491836228_1232094478631937_7417364915224451133_n',
        pictureUrl: URL,
      });
      expect(profilePictureUrl).toHaveBeenCalledWith(USER, 'image');
    });

    it.each([
      ['no picture', () => Promise.resolve(undefined)],
      ['a picture hidden from this account', () => Promise.reject(iqError(401, 'not-authorized'))],
      ['an unknown chat', () => Promise.reject(iqError(404, 'item-not-found'))],
    ])('is not_found for %s', async (_case, answer) => {
      const profilePictureUrl = jest.fn(answer);
      await expect(operations.perform(fakeContext({ socket: { profilePictureUrl } }), 'chats.picture', { chatId: GROUP })).rejects.toEqual(
        new AppError('not_found'),
      );
    });
  });

  describe('chats.businessProfile', () => {
    it('maps what Baileys reads of the profile', async () => {
      const getBusinessProfile = jest.fn().mockResolvedValue({
        wid: USER,
        address: '1 High Street, London',
        description: 'Fresh bread daily',
        website: ['https://bakery.example'],
        email: 'hello@bakery.example',
        category: 'Bakery',
        business_hours: {
          timezone: 'Europe/London',
          business_config: [
            { day_of_week: 'mon', mode: 'specific_hours', open_time: '540', close_time: '1050' },
            { day_of_week: 'sun', mode: 'open_24h' },
          ],
        },
      });
      await expect(
        operations.perform(fakeContext({ socket: { getBusinessProfile } }), 'chats.businessProfile', { chatId: USER }),
      ).resolves.toEqual({
        id: USER,
        description: 'Fresh bread daily',
        address: '1 High Street, London',
        email: 'hello@bakery.example',
        website: 'https://bakery.example',
        businessHours: [
          { dayOfWeek: 'mon', mode: 'specific_hours', openTime: '09:00', closeTime: '17:30' },
          { dayOfWeek: 'sun', mode: 'open_24h' },
        ],
        businessHoursTimeZone: 'Europe/London',
      });
      expect(getBusinessProfile).toHaveBeenCalledWith(USER);
    });

    it('leaves out what the business did not fill in', async () => {
      const getBusinessProfile = jest
        .fn()
        .mockResolvedValue({ wid: USER, description: '', website: [], email: undefined, business_hours: {} });
      await expect(
        operations.perform(fakeContext({ socket: { getBusinessProfile } }), 'chats.businessProfile', { chatId: USER }),
      ).resolves.toEqual({ id: USER });
    });

    it('is not_found for an account that is not a business, and for groups', async () => {
      const getBusinessProfile = jest.fn().mockResolvedValue(undefined);
      const context = fakeContext({ socket: { getBusinessProfile } });
      await expect(operations.perform(context, 'chats.businessProfile', { chatId: USER })).rejects.toEqual(new AppError('not_found'));
      await expect(operations.perform(context, 'chats.businessProfile', { chatId: GROUP })).rejects.toEqual(new AppError('not_found'));
      expect(getBusinessProfile).toHaveBeenCalledTimes(1);
    });
  });
});
