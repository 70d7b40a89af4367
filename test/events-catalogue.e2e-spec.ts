import { startApi, type RunningApi } from './support/api-harness';
import { eventLog, eventually, type LoggedEvent } from './support/event-log';
import { createCustomer, createInstance, type CreatedInstance, type Customer } from './support/fixtures';
import { Http } from './support/http';
import { expectErrorBody, useServedOpenApi } from './support/openapi';
import { ownsAllShards, spawnApp, type AppProcess } from './support/processes';

// Every event type of docs/api.md (Events), caused on the sandbox network the way a phone or a contact would, with the
// whole payload the contract family defines (libs/contracts/src/event-payloads.ts). Only times and generated ids are
// matched loosely.

const SELF_PHONE = '15550004444';
const SELF = `${SELF_PHONE}@s.whatsapp.net`;
const ANN = '447700900123@s.whatsapp.net';
const ANN_LID = '123456789012345@lid';
const BOB = '447700900124@s.whatsapp.net';
const CAROL = '447700900125@s.whatsapp.net';

const TIME = /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/;
const MESSAGE_ID = /^3EB0[0-9A-F]{18}$/;
const anyTime = (): unknown => expect.stringMatching(TIME);

const me = { id: SELF, phone: SELF_PHONE };
const meSender = { ...me, isMe: true };
const ann = { id: ANN, lid: ANN_LID, phone: '447700900123' };
const annSender = { ...ann, isMe: false };
/** What every message Ann sends this instance's 1:1 chat carries, before its type and content. */
const fromAnn = (id: unknown = expect.stringMatching(MESSAGE_ID)) => ({
  id,
  time: anyTime(),
  chatId: ANN,
  sender: annSender,
  isGroup: false,
  isStatus: false,
});
const bob = { id: BOB, phone: '447700900124' };
const bobSender = { ...bob, isMe: false };
const carol = { id: CAROL, phone: '447700900125' };

type Entry = { id: string; content: Record<string, unknown> };

describe('event catalogue: every event type from the sandbox network, with the payloads the family defines', () => {
  let api: RunningApi;
  let worker: AppProcess;
  let http: Http;
  let customer: Customer;
  let phone: CreatedInstance;
  let quiet: CreatedInstance;

  const headersOf = (instance: CreatedInstance) => ({ 'X-Api-Key': instance.apiKey, 'X-Instance-Id': instance.id });
  const headers = () => headersOf(phone);
  const post = (path: string, body: unknown, instance = phone) => http.post(path, body, headersOf(instance));

  /** Runs the trigger and answers the `count` events it caused (the ones logged after it), as [type, data]. */
  async function caused(count: number, trigger: () => Promise<unknown>, instance = phone): Promise<[string, Record<string, unknown>][]> {
    const before = (await eventLog(instance.id)).length;
    await trigger();
    const log = await eventually(
      () => eventLog(instance.id),
      (events) => events.length >= before + count,
    );
    return log.slice(before).map((event: LoggedEvent) => [event.eventType, event.data]);
  }

  /** Triggers expected to answer with `status`. */
  const ok =
    (status: number, path: string, body: unknown, instance = phone) =>
    async () => {
      const response = await post(path, body, instance);
      expect({ path, status: response.status, body: response.body as unknown }).toMatchObject({ path, status });
      return response;
    };

  async function paired(instance: CreatedInstance, number: string): Promise<string> {
    const response = await post('/sandbox/pair', { phone: number }, instance);
    expect(response.status).toBe(200);
    await eventually(
      async () => (await http.get('/session/status', headersOf(instance))).body as { isConnected: boolean },
      (status) => status.isConnected,
    );
    return (response.body as { deviceId: string }).deviceId;
  }

  async function inbound(body: Record<string, unknown>): Promise<string> {
    const response = await post('/sandbox/inbound', { from: ANN, ...body });
    expect(response.status).toBe(201);
    return (response.body as { id: string }).id;
  }

  /** A contact's message whose own event is already in the log (events are appended a moment after the 201). */
  async function inboundLogged(body: Record<string, unknown>): Promise<string> {
    const id = await inbound(body);
    await eventually(
      () => eventLog(phone.id),
      (events) => events.some((event) => event.data.id === id),
    );
    return id;
  }

  const inbox = async () => (await http.get('/sandbox/inbox', headers())).body as Entry[];
  const outbox = async () => (await http.get('/sandbox/outbox', headers())).body as Entry[];

  beforeAll(async () => {
    [api, worker] = await Promise.all([startApi(), spawnApp('worker')]);
    await ownsAllShards(worker, api.config.shardCount);
    http = new Http(api.url);
    await useServedOpenApi(api.url);
    customer = await createCustomer(http, 'Catalogue Co');
    // History sync on for the customer's instances that follow the defaults; `quiet` opts out with its own settings.
    const defaults = {
      defaultWebhookUrl: '',
      defaultSigningSecret: '',
      defaultEventFilters: [],
      defaultHistorySync: true,
      defaultPullMode: false,
    };
    expect((await http.put('/account/instances/defaults', defaults, { 'X-Api-Key': customer.apiKey })).status).toBe(204);
    phone = await createInstance(http, customer.apiKey);
    quiet = await createInstance(http, customer.apiKey, { name: 'quiet', sandbox: true });
    const own = { useCustomDefaults: false, historySync: false };
    expect((await http.put(`/account/instances/${quiet.id}/settings`, own, { 'X-Api-Key': customer.apiKey })).status).toBe(204);
  });

  afterAll(async () => {
    await Promise.all([api?.close(), worker?.stop()]);
  });

  describe('session events', () => {
    it('logged_in, then initial_sync_finished when history sync is on (only logged_in when it is off)', async () => {
      const deviceId = await paired(phone, SELF_PHONE);
      const log = await eventually(
        () => eventLog(phone.id),
        (events) => events.length >= 2,
      );
      expect(log.map((event) => [event.eventType, event.data])).toEqual([
        ['logged_in', { deviceId }],
        ['initial_sync_finished', {}],
      ]);

      const quietDevice = await paired(quiet, '15550004445');
      const quietLog = await eventually(
        () => eventLog(quiet.id),
        (events) => events.length >= 1,
      );
      expect(quietLog.map((event) => [event.eventType, event.data])).toEqual([['logged_in', { deviceId: quietDevice }]]);
    });

    it('login_error when the network refuses the device, which stays unpaired; logged_out from the phone', async () => {
      const instance = await createInstance(http, customer.apiKey, { name: 'refused', sandbox: true });
      expect((await http.get('/session/qr/text', headersOf(instance))).status).toBe(200);
      const events = await caused(
        1,
        async () => {
          const refused = await post('/sandbox/pair', { phone: '15550004446', error: 'multi-device limit reached' }, instance);
          expect(refused.status).toBe(200);
          expect(refused.body).toEqual({ deviceId: expect.stringMatching(/^15550004446:\d+@s\.whatsapp\.net$/) });
        },
        instance,
      );
      expect(events).toEqual([
        ['login_error', { id: expect.stringMatching(/^15550004446:\d+@s\.whatsapp\.net$/), error: 'multi-device limit reached' }],
      ]);
      expect(
        await eventually(
          async () => (await http.get('/session/status', headersOf(instance))).body as Record<string, unknown>,
          (status) => status.isLoggedIn === false,
        ),
      ).toEqual({ isConnected: false, isLoggedIn: false, deviceId: '' });
      expectErrorBody(await post('/sandbox/pair', { error: '' }, instance), 400, 'validation error: error must be 1-200 characters');

      // It can pair after all, and the phone can log it out again.
      expect((await http.get('/session/qr/text', headersOf(instance))).status).toBe(200);
      await paired(instance, '15550004446');
      expect(await caused(1, ok(204, '/sandbox/logout', undefined, instance), instance)).toEqual([
        ['logged_out', { reason: 'user_logged_out' }],
      ]);
    });
  });

  describe('contacts and messages', () => {
    it('contact: saving a contact on the phone; in the address book only with a full name', async () => {
      const saved = await caused(
        1,
        ok(201, '/sandbox/contacts', { id: '+447700900123', fullName: 'Ann Lee', pushName: 'Ann', lid: ANN_LID }),
      );
      expect(saved).toEqual([['contact', { contact: ann, fullName: 'Ann Lee', inPhoneAddressBook: true }]]);
      const known = await caused(1, ok(201, '/sandbox/contacts', { id: BOB, pushName: 'Bob' }));
      expect(known).toEqual([['contact', { contact: bob, fullName: '', inPhoneAddressBook: false }]]);
    });

    it('message: text, with chat_push_name first when the push name changed', async () => {
      let id = '';
      const events = await caused(2, async () => {
        id = await inbound({ type: 'text', text: 'hello', pushName: 'Annie' });
      });
      expect(events).toEqual([
        ['chat_push_name', { user: ann, pushName: 'Annie' }],
        [
          'message',
          {
            ...fromAnn(),
            type: 'text',
            text: 'hello',
          },
        ],
      ]);
      expect(events[1][1].id).toBe(id);
      // The same name again is not news.
      expect((await caused(1, () => inbound({ type: 'text', text: 'again', pushName: 'Annie' })))[0][0]).toBe('message');
    });

    it('message: a reply quoting a message, forwarded, with mentions', async () => {
      const quoted = await inboundLogged({ type: 'text', text: 'original' });
      const [[type, data]] = await caused(1, () =>
        inbound({ type: 'text', text: 'replying', replyTo: quoted, isForwarded: true, mentions: [SELF_PHONE] }),
      );
      expect(type).toBe('message');
      expect(data).toEqual({
        ...fromAnn(),
        isForwarded: true,
        type: 'text',
        text: 'replying',
        mentions: [SELF],
        replyTo: { id: quoted, sender: annSender, text: 'original' },
      });
    });

    it('message: media, contact and contactArray', async () => {
      const image = { mediaType: 'image', caption: 'look', fileLength: 204800, width: 1920, height: 1080 };
      const events = await caused(3, async () => {
        await inbound({ type: 'media', media: image });
        await inbound({ type: 'contact', vcards: ['BEGIN:VCARD\nFN:Cy\nEND:VCARD'] });
        await inbound({ type: 'contact', vcards: ['BEGIN:VCARD\nFN:Cy\nEND:VCARD', 'BEGIN:VCARD\nFN:Di\nEND:VCARD'] });
      });
      const common = fromAnn();
      expect(events).toEqual([
        [
          'message',
          {
            ...common,
            type: 'media',
            media: {
              mediaType: 'image',
              mimeType: 'image/jpeg',
              id: expect.stringMatching(/^[A-Za-z0-9_-]{32}$/),
              fileLength: 204800,
              caption: 'look',
              width: 1920,
              height: 1080,
            },
          },
        ],
        ['message', { ...common, type: 'contact', contact: 'BEGIN:VCARD\nFN:Cy\nEND:VCARD' }],
        ['message', { ...common, type: 'contactArray', contactArray: ['BEGIN:VCARD\nFN:Cy\nEND:VCARD', 'BEGIN:VCARD\nFN:Di\nEND:VCARD'] }],
      ]);
      expectErrorBody(
        await post('/sandbox/inbound', { from: ANN, type: 'media', media: { mediaType: 'hologram' } }),
        400,
        'validation error: media.mediaType must be one of image, video, audio, voice, document, sticker',
      );
      expectErrorBody(
        await post('/sandbox/inbound', { from: ANN, type: 'media' }),
        400,
        'validation error: media is required for a media message',
      );
    });

    it('message: reactions and pins, which change the message they are about', async () => {
      const target = await inboundLogged({ type: 'text', text: 'react to me' });
      const events = await caused(2, async () => {
        await inbound({ type: 'reaction', messageId: target, emoji: '👍' });
        await inbound({ type: 'pinInChat', messageId: target, pinExpiration: '24h' });
      });
      const common = fromAnn();
      expect(events).toEqual([
        ['message', { ...common, type: 'reaction', reaction: { messageId: target, emoji: '👍' } }],
        ['message', { ...common, type: 'pinInChat', pin: { pinned: true, messageId: target, expiration: '24h' } }],
      ]);
      expect((await inbox()).find((entry) => entry.id === target)?.content).toEqual({
        text: 'react to me',
        reactions: { [ANN]: '👍' },
        pinned: { by: ANN, seconds: 86_400 },
      });
      expectErrorBody(
        await post('/sandbox/inbound', { from: ANN, type: 'reaction', messageId: '3EB0000000000000000000', emoji: 'x' }),
        400,
        `validation error: messageId 3EB0000000000000000000 is not a message of chat ${ANN}`,
      );
    });

    it('message_read: the contact reads a message this instance sent', async () => {
      const sent = await caused(2, ok(201, '/messages/text', { to: ANN, message: 'for Ann' }));
      const id = sent[0][1].id as string;
      const events = await caused(1, ok(204, '/sandbox/receipts', { messageId: id, status: 'read' }));
      expect(events).toEqual([
        [
          'message_read',
          {
            chatId: ANN,
            sender: annSender,
            messageSender: meSender,
            isGroup: false,
            messageIds: [id],
            time: anyTime(),
            receiptType: 'read',
          },
        ],
      ]);
    });

    it('message_delete: the author deletes for everyone, or the phone only for this account', async () => {
      const theirs = await inboundLogged({ type: 'text', text: 'oops' });
      const forAll = await caused(1, ok(204, '/sandbox/delete', { messageId: theirs, forEveryone: true }));
      expect(forAll).toEqual([
        [
          'message_delete',
          { id: theirs, sender: annSender, chatId: ANN, time: anyTime(), isDeletedForAll: true, isDeletedForMe: false, isStatus: false },
        ],
      ]);
      expect((await inbox()).find((entry) => entry.id === theirs)?.content).toEqual({ text: 'oops', deleted: true });

      const mine = (await caused(2, ok(201, '/messages/text', { to: ANN, message: 'hide me' })))[0][1].id as string;
      const forMe = await caused(1, ok(204, '/sandbox/delete', { messageId: mine, forEveryone: false }));
      expect(forMe).toEqual([
        [
          'message_delete',
          { id: mine, sender: meSender, chatId: ANN, time: anyTime(), isDeletedForAll: false, isDeletedForMe: true, isStatus: false },
        ],
      ]);
      expect((await outbox()).find((entry) => entry.id === mine)?.content).toEqual({ text: 'hide me', deletedForMe: true });
      expectErrorBody(await post('/sandbox/delete', { messageId: '3EB0000000000000000000', forEveryone: true }), 404, 'not found');
      expectErrorBody(await post('/sandbox/delete', { messageId: theirs }), 400, 'validation error: forEveryone is required');
    });

    it('message (isEdit): a contact edits the text of a message it sent; a new id names the original', async () => {
      const [[, original]] = await caused(1, () => inbound({ type: 'text', text: 'see you at 9' }));
      const theirs = original.id as string;
      const response = await post('/sandbox/edit', { messageId: theirs, text: 'see you at 10' });
      expect(response.status).toBe(201);
      const { id } = response.body as { id: string };
      expect(id).not.toBe(theirs);
      const events = await eventually(
        () => eventLog(phone.id),
        (log) => log.some((event) => event.data.id === id),
      );
      expect(events.filter((event) => event.data.id === id).map((event) => [event.eventType, event.data])).toEqual([
        [
          'message',
          {
            ...fromAnn(id),
            type: 'text',
            text: 'see you at 10',
            isEdit: true,
            edit: { originalMessageId: theirs, originalMessageTime: original.time },
          },
        ],
      ]);
      expect((await inbox()).find((entry) => entry.id === theirs)?.content).toEqual({ text: 'see you at 10', edited: true });

      const mine = (await caused(2, ok(201, '/messages/text', { to: ANN, message: 'mine' })))[0][1].id as string;
      expectErrorBody(
        await post('/sandbox/edit', { messageId: mine, text: 'x' }),
        400,
        `validation error: message ${mine} was sent by this instance; only the contact's own messages are edited here`,
      );
      expectErrorBody(await post('/sandbox/edit', { messageId: '3EB0000000000000000000', text: 'x' }), 404, 'not found');
      expectErrorBody(await post('/sandbox/edit', { messageId: theirs }), 400, 'validation error: text is required');
      expectErrorBody(await post('/sandbox/edit', { messageId: theirs, text: '   ' }), 400, 'validation error: text must not be empty');
      const unchanged = (await inbox()).find((entry) => entry.id === theirs)?.content;
      expect(unchanged).toEqual({ text: 'see you at 10', edited: true });
    });

    it('message_star: the phone stars and unstars a message', async () => {
      const theirs = await inboundLogged({ type: 'text', text: 'keep this' });
      const events = await caused(2, async () => {
        await ok(204, '/sandbox/star', { messageId: theirs, starred: true })();
        expect((await inbox()).find((entry) => entry.id === theirs)?.content).toEqual({ text: 'keep this', starred: true });
        await ok(204, '/sandbox/star', { messageId: theirs, starred: false })();
      });
      expect(events).toEqual([
        ['message_star', { id: theirs, chatId: ANN, sender: annSender, time: anyTime(), isStarred: true }],
        ['message_star', { id: theirs, chatId: ANN, sender: annSender, time: anyTime(), isStarred: false }],
      ]);
      expect((await inbox()).find((entry) => entry.id === theirs)?.content).toEqual({ text: 'keep this' });
    });
  });

  describe('history', () => {
    it('message_history_sync: flush-history sends the chats, one event per chat, without deleted messages', async () => {
      const log = await eventLog(phone.id);
      const received = log.filter(
        (event) => event.eventType === 'message' && event.data.sender && !(event.data.sender as { isMe: boolean }).isMe,
      );
      const deleted = new Set(log.filter((event) => event.eventType === 'message_delete').map((event) => event.data.id));
      const effects = new Set(['reaction', 'pinInChat']);
      // An edit, like a reaction or a pin, shows in its target rather than as a message of its own.
      const expected = received.filter(
        (event) => !deleted.has(event.data.id) && !effects.has(event.data.type as string) && event.data.isEdit !== true,
      );

      const events = await caused(1, ok(202, '/session/flush-history', undefined));
      expect(events.map(([type, data]) => [type, data.chatId])).toEqual([['message_history_sync', ANN]]);
      const messages = events[0][1].messages as Record<string, unknown>[];
      // The messages this instance received, as their message events had them (the reaction and pin show in their target).
      const inHistory = messages.filter((message) => !(message.sender as { isMe: boolean }).isMe);
      expect(inHistory.map((message) => message.id)).toEqual(expected.map((event) => event.data.id));
      const target = expected.find((event) => event.data.text === 'react to me');
      expect(inHistory.find((message) => message.id === target?.data.id)).toEqual(target?.data);
      expect(inHistory.find((message) => message.text === 'replying')).toEqual(
        expected.find((event) => event.data.text === 'replying')?.data,
      );
      // And the ones it sent that were not deleted, as messages of their own.
      const sentMessage = (text: string) => ({
        id: expect.stringMatching(MESSAGE_ID),
        time: anyTime(),
        chatId: ANN,
        sender: meSender,
        isGroup: false,
        isStatus: false,
        type: 'text',
        text,
      });
      expect(messages.filter((message) => (message.sender as { isMe: boolean }).isMe)).toEqual([
        sentMessage('for Ann'),
        sentMessage('mine'),
      ]);
    });

    it('sends nothing (still 202) when the effective historySync setting is off', async () => {
      const events = await caused(
        2,
        async () => {
          expect((await post('/sandbox/inbound', { from: ANN, type: 'text', text: 'history?' }, quiet)).status).toBe(201);
          expect((await post('/session/flush-history', undefined, quiet)).status).toBe(202);
          await ok(204, '/sandbox/presence', { from: ANN, state: 'available' }, quiet)();
        },
        quiet,
      );
      // Events keep their order per instance: had the flush sent anything, it would come before the presence.
      expect(events.map(([type]) => type)).toEqual(['message', 'user_presence']);
    });
  });

  describe('chats and people', () => {
    it('chat_setting: mute, pin, read, archive and the disappearing-message timer', async () => {
      const events = await caused(6, async () => {
        await ok(204, '/sandbox/chat-settings', {
          chatId: ANN,
          settingType: 'mute',
          enabled: true,
          muteEndTime: '2030-01-01T00:00:00.000Z',
        })();
        await ok(204, '/sandbox/chat-settings', { chatId: '447700900123', settingType: 'pin', enabled: true })();
        await ok(204, '/sandbox/chat-settings', { chatId: ANN, settingType: 'read', enabled: false })();
        await ok(204, '/sandbox/chat-settings', { chatId: ANN, settingType: 'archive', enabled: true })();
        await ok(204, '/sandbox/chat-settings', { chatId: ANN, settingType: 'ephemeral', expiration: '7d', from: ANN })();
        await ok(204, '/sandbox/chat-settings', { chatId: ANN, settingType: 'ephemeral', expiration: 'off' })();
      });
      expect(events).toEqual([
        ['chat_setting', { id: ANN, settingType: 'mute', mute: { isMuted: true, muteEndTime: '2030-01-01T00:00:00.000Z' } }],
        ['chat_setting', { id: ANN, settingType: 'pin', pin: { isPinned: true } }],
        ['chat_setting', { id: ANN, settingType: 'read', read: { isRead: false } }],
        ['chat_setting', { id: ANN, settingType: 'archive', archive: { isArchived: true } }],
        ['chat_setting', { id: ANN, settingType: 'ephemeral', ephemeral: { expiration: '7d', sender: annSender } }],
        ['chat_setting', { id: ANN, settingType: 'ephemeral', ephemeral: { expiration: 'off', sender: meSender } }],
      ]);
      expectErrorBody(
        await post('/sandbox/chat-settings', { chatId: ANN, settingType: 'mute' }),
        400,
        'validation error: enabled is required for a mute setting',
      );
      expectErrorBody(
        await post('/sandbox/chat-settings', { chatId: ANN, settingType: 'snooze', enabled: true }),
        400,
        'validation error: settingType must be one of mute, pin, read, archive, ephemeral',
      );
      expectErrorBody(
        await post('/sandbox/chat-settings', { chatId: ANN, settingType: 'ephemeral', expiration: '1y' }),
        400,
        'validation error: expiration must be one of off, 24h, 7d, 90d',
      );
    });

    it('user_presence and chat_presence', async () => {
      const events = await caused(4, async () => {
        await ok(204, '/sandbox/presence', { from: ANN, state: 'available' })();
        await ok(204, '/sandbox/presence', { from: ANN, state: 'typing' })();
        await ok(204, '/sandbox/presence', { from: BOB, state: 'recording', chatId: ANN })();
        await ok(204, '/sandbox/presence', { from: ANN, state: 'unavailable' })();
      });
      expect(events).toEqual([
        ['user_presence', { user: ann, status: 'available' }],
        ['chat_presence', { id: ANN, sender: annSender, state: 'typing' }],
        ['chat_presence', { id: ANN, sender: bobSender, state: 'recording' }],
        ['user_presence', { user: ann, status: 'unavailable', lastSeen: anyTime() }],
      ]);
      expectErrorBody(
        await post('/sandbox/presence', { from: ANN, state: 'dancing' }),
        400,
        'validation error: state must be one of available, unavailable, typing, recording, paused',
      );
      expectErrorBody(
        await post('/sandbox/presence', { from: ANN, state: 'available', chatId: ANN }),
        400,
        'validation error: chatId does not apply to available',
      );
    });

    it('chat_push_name, chat_status and chat_picture: a contact changes their profile', async () => {
      const events = await caused(3, ok(204, '/sandbox/profile', { id: ANN, pushName: 'Ann L', about: 'At work', picture: true }));
      expect(events).toEqual([
        ['chat_push_name', { user: ann, pushName: 'Ann L' }],
        ['chat_status', { user: ann, status: 'At work' }],
        ['chat_picture', { id: ANN, sender: annSender, pictureId: expect.stringMatching(/^\d+$/) }],
      ]);
      expectErrorBody(
        await post('/sandbox/profile', { id: ANN }),
        400,
        'validation error: at least one of pushName, about and picture is required',
      );
    });
  });

  describe('groups, channels and calls', () => {
    let groupId = '';

    it('group: created with this instance in it, and a community with its groups', async () => {
      const created = await caused(1, async () => {
        const response = await ok(201, '/sandbox/groups', { name: 'Team', participants: [ANN, BOB], admins: [BOB], selfIsAdmin: true })();
        groupId = (response.body as { id: string }).id;
      });
      expect(created).toEqual([['group', { id: groupId, sender: bobSender, timestamp: anyTime(), groupType: 'new', join: [me] }]]);

      let communityId = '';
      const community = await caused(3, async () => {
        const response = await ok(201, '/sandbox/groups', {
          name: 'Hub',
          participants: [ANN],
          admins: [],
          selfIsAdmin: true,
          community: true,
        })();
        communityId = (response.body as { id: string }).id;
      });
      const groupOf = (data: Record<string, unknown>) => ({ ...data, id: expect.stringMatching(/^\d+@g\.us$/) });
      expect(community).toEqual([
        ['group', { id: communityId, sender: meSender, timestamp: anyTime(), isCommunity: true, groupType: 'new', join: [me] }],
        [
          'group',
          groupOf({ sender: meSender, timestamp: anyTime(), communityId, isAnnouncementGroup: true, groupType: 'new', join: [me] }),
        ],
        [
          'group',
          groupOf({ sender: meSender, timestamp: anyTime(), communityId, isAnnouncementGroup: false, groupType: 'new', join: [me] }),
        ],
      ]);
    });

    it('group: members join and leave, admins are promoted and demoted, name, topic, locked, announce; chat_picture', async () => {
      const change = (body: object) => ok(204, `/sandbox/groups/${groupId}/changes`, body)();
      const events = await caused(9, async () => {
        await change({ by: BOB, join: [CAROL] });
        await change({ promote: [CAROL] });
        await change({ demote: ['447700900125'] });
        await change({ by: CAROL, leave: [CAROL] });
        await change({ by: ANN, name: 'Team 2' });
        await change({ topic: 'Plans' });
        await change({ locked: true });
        await change({ by: BOB, announce: false });
        await change({ by: BOB, picture: true });
      });
      const base = { id: groupId, timestamp: anyTime() };
      expect(events).toEqual([
        ['group', { ...base, sender: bobSender, join: [carol] }],
        ['group', { ...base, sender: meSender, promote: [carol] }],
        ['group', { ...base, sender: meSender, demote: [carol] }],
        ['group', { ...base, sender: { ...carol, isMe: false }, leave: [carol] }],
        ['group', { ...base, sender: annSender, name: { name: 'Team 2' } }],
        ['group', { ...base, sender: meSender, description: { topic: 'Plans' } }],
        ['group', { ...base, sender: meSender, locked: { isLocked: true } }],
        ['group', { ...base, sender: bobSender, announce: { isAnnounce: false } }],
        ['chat_picture', { id: groupId, sender: bobSender, pictureId: expect.stringMatching(/^\d+$/) }],
      ]);

      expectErrorBody(
        await post(`/sandbox/groups/${groupId}/changes`, { by: ANN, name: 'Locked now' }),
        400,
        `validation error: by ${ANN} is not an admin of ${groupId}`,
      );
      expectErrorBody(
        await post(`/sandbox/groups/${groupId}/changes`, { name: 'A', topic: 'B' }),
        400,
        'validation error: exactly one change is required: one of join, leave, promote, demote, name, topic, locked, announce, picture',
      );
      expectErrorBody(
        await post(`/sandbox/groups/${groupId}/changes`, { leave: [CAROL] }),
        400,
        `validation error: leave: ${CAROL} is not a participant of ${groupId}`,
      );
      expectErrorBody(await post('/sandbox/groups/120363000000000000000@g.us/changes', { topic: 'x' }), 404, 'not found');
      expectErrorBody(await post(`/sandbox/groups/${groupId}/changes`, { join: 'everyone' }), 400, 'invalid request body');
    });

    it('chat_presence in a group', async () => {
      expect(await caused(1, ok(204, '/sandbox/presence', { from: BOB, state: 'paused', chatId: groupId }))).toEqual([
        ['chat_presence', { id: groupId, sender: bobSender, state: 'paused' }],
      ]);
    });

    it('newsletter: the phone joins, mutes and leaves a channel', async () => {
      let id = '';
      const events = await caused(3, async () => {
        id = ((await ok(201, '/sandbox/newsletters', { name: 'Daily News' })()).body as { id: string }).id;
        await ok(204, `/sandbox/newsletters/${id}/mute`, { muted: true })();
        await ok(204, `/sandbox/newsletters/${id}/leave`, undefined)();
      });
      expect(id).toMatch(/^\d+@newsletter$/);
      expect(events).toEqual([
        ['newsletter', { id, action: 'join', name: 'Daily News', role: 'SUBSCRIBER' }],
        ['newsletter', { id, action: 'mute', mute: 'MUTED' }],
        ['newsletter', { id, action: 'leave', role: 'SUBSCRIBER' }],
      ]);
      expectErrorBody(await post(`/sandbox/newsletters/${id}/leave`, undefined), 404, 'not found');
      expectErrorBody(
        await post('/sandbox/newsletters', { name: 'X', role: 'KING' }),
        400,
        'validation error: role must be one of SUBSCRIBER, ADMIN, OWNER',
      );
    });

    it('call_offer, call_accept and call_terminate: answered and hung up; a group video call declined', async () => {
      let first = '';
      let second = '';
      const events = await caused(5, async () => {
        first = ((await ok(201, '/sandbox/calls', { from: ANN })()).body as { id: string }).id;
        await ok(204, `/sandbox/calls/${first}/accept`, undefined)();
        await ok(204, `/sandbox/calls/${first}/end`, { reason: 'ended' })();
        second = ((await ok(201, '/sandbox/calls', { from: BOB, video: true, groupId })()).body as { id: string }).id;
        await ok(204, `/sandbox/calls/${second}/end`, { reason: 'rejected' })();
      });
      expect(first).toMatch(/^[0-9A-F]{32}$/);
      expect(events).toEqual([
        ['call_offer', { id: first, caller: ann, chatId: ANN, isGroup: false, time: anyTime(), isVideo: false }],
        ['call_accept', { id: first, caller: ann, time: anyTime() }],
        ['call_terminate', { id: first, caller: ann, time: anyTime(), reason: 'ended' }],
        ['call_offer', { id: second, caller: bob, chatId: groupId, isGroup: true, time: anyTime(), isVideo: true }],
        ['call_terminate', { id: second, caller: bob, time: anyTime(), reason: 'rejected' }],
      ]);
      expectErrorBody(await post(`/sandbox/calls/${first}/accept`, undefined), 404, 'not found');
      const third = ((await post('/sandbox/calls', { from: ANN })).body as { id: string }).id;
      await post(`/sandbox/calls/${third}/accept`, undefined);
      expectErrorBody(
        await post(`/sandbox/calls/${third}/end`, { reason: 'rejected' }),
        400,
        `validation error: call ${third} was accepted and can no longer be rejected`,
      );
      expectErrorBody(
        await post(`/sandbox/calls/${third}/end`, { reason: 'dropped' }),
        400,
        'validation error: reason must be ended or rejected',
      );
    });
  });

  // After the history tests: these sends would be part of the chat's history.
  describe('send outcomes', () => {
    it('message_status: sent; unconfirmed when the link drops before the acknowledgement, then sent with the receipt', async () => {
      const taken = await caused(2, ok(201, '/messages/text', { to: ANN, message: 'taken' }));
      expect(taken[0]).toEqual(['message_status', { id: taken[1][1].id, chatId: ANN, status: 'sent' }]);

      expect((await http.put('/sandbox/link-drops', { chatId: ANN }, headers())).status).toBe(204);
      const dropped = await caused(2, ok(201, '/messages/text', { to: ANN, message: 'ack lost' }));
      const id = dropped[1][1].id as string;
      expect(dropped).toEqual([
        [
          'message_status',
          { id, chatId: ANN, status: 'unconfirmed', error: 'the link closed before the network acknowledged the message' },
        ],
        [
          'message',
          { id, time: anyTime(), chatId: ANN, sender: meSender, isGroup: false, isStatus: false, type: 'text', text: 'ack lost' },
        ],
      ]);
      // The link comes back by itself; the receipt settles the send before it is reported.
      await eventually(
        async () => (await http.get('/session/status', headers())).body as { isConnected: boolean },
        (status) => status.isConnected,
      );
      const settled = await caused(2, ok(204, '/sandbox/receipts', { messageId: id, status: 'delivered' }));
      expect(settled).toEqual([
        ['message_status', { id, chatId: ANN, status: 'sent' }],
        [
          'message_read',
          {
            chatId: ANN,
            sender: annSender,
            messageSender: meSender,
            isGroup: false,
            messageIds: [id],
            time: anyTime(),
            receiptType: 'delivered',
          },
        ],
      ]);
      expectErrorBody(await http.put('/sandbox/link-drops', { chatId: 'nobody' }, headers()), 400, /^validation error: chatId /);
    });
  });

  it('answers 404 on the new sandbox endpoints for a real-network instance', async () => {
    const real = await createInstance(http, customer.apiKey, { name: 'real', sandbox: false });
    expectErrorBody(await post('/sandbox/presence', { from: ANN, state: 'available' }, real), 404, 'not found');
    expectErrorBody(await post('/sandbox/calls', { from: ANN }, real), 404, 'not found');
    expectErrorBody(await http.get('/sandbox/inbox', headersOf(real)), 404, 'not found');
  });
});
