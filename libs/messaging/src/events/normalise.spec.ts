import { HISTORY_CHUNK, identity, normalise, type MessageInput } from './normalise';

const ANN = '447700900123@s.whatsapp.net';
const ME = '15550001111@s.whatsapp.net';
const GROUP = '120363111111111222222@g.us';
const AT = new Date('2025-05-19T00:51:44.816Z');
const TIME = '2025-05-19T00:51:44.816Z';
const ann = { id: ANN, phone: '447700900123' };

function message(overrides: Partial<MessageInput> = {}): MessageInput {
  return {
    id: '3EB0AAAAAAAAAAAAAAAAAA',
    time: AT,
    chatId: ANN,
    sender: { jid: ANN, isMe: false },
    content: { type: 'text', text: 'hello' },
    ...overrides,
  };
}

describe('identity', () => {
  it('prefers the phone-number JID, keeps the LID, and names the device only when non-zero', () => {
    expect(identity({ jid: ANN })).toEqual(ann);
    expect(identity({ jid: '447700900123:0@s.whatsapp.net', lid: '12345678901234@lid' })).toEqual({
      ...ann,
      lid: '12345678901234@lid',
    });
    expect(identity({ jid: '447700900123:12@s.whatsapp.net' })).toEqual({ ...ann, device: 12 });
  });

  it('falls back to the LID when the phone number is unknown', () => {
    expect(identity({ jid: '12345678901234@lid' })).toEqual({ id: '12345678901234@lid', lid: '12345678901234@lid' });
  });
});

describe('normalise: session events', () => {
  it('builds logged_in, logged_out, login_error and initial_sync_finished', () => {
    expect(normalise.loggedIn({ deviceId: '15550001111:12@s.whatsapp.net' })).toEqual({
      eventType: 'logged_in',
      data: { deviceId: '15550001111:12@s.whatsapp.net' },
    });
    expect(normalise.loggedOut({ reason: 'api_logout' })).toEqual({ eventType: 'logged_out', data: { reason: 'api_logout' } });
    expect(normalise.loginError({ deviceId: '15550001111:12@s.whatsapp.net', error: 'refused' })).toEqual({
      eventType: 'login_error',
      data: { id: '15550001111:12@s.whatsapp.net', error: 'refused' },
    });
    expect(normalise.loginError({ error: 'refused' }).data).toEqual({ id: '', error: 'refused' });
    expect(normalise.initialSyncFinished()).toEqual({ eventType: 'initial_sync_finished', data: {} });
  });
});

describe('normalise.message', () => {
  it('builds a text message with the fields the family defines and nothing undefined', () => {
    const event = normalise.message(message());
    expect(event).toEqual({
      eventType: 'message',
      data: {
        id: '3EB0AAAAAAAAAAAAAAAAAA',
        time: TIME,
        chatId: ANN,
        sender: { ...ann, isMe: false },
        isGroup: false,
        isStatus: false,
        type: 'text',
        text: 'hello',
      },
    });
    expect(Object.values(event.data)).not.toContain(undefined);
  });

  it('carries the options: forwarded, mentions, quoted message, disappearing timer, edit', () => {
    const data = normalise.message(
      message({
        chatId: GROUP,
        isForwarded: true,
        mentions: [ME],
        replyTo: { id: '3EB0BBBBBBBBBBBBBBBBBB', sender: { jid: ME, isMe: true }, text: 'original' },
        ephemeralSeconds: 604_800,
        edit: { originalMessageId: '3EB0CCCCCCCCCCCCCCCCCC', originalTime: AT },
      }),
    ).data;
    expect(data).toEqual({
      id: '3EB0AAAAAAAAAAAAAAAAAA',
      time: TIME,
      chatId: GROUP,
      sender: { ...ann, isMe: false },
      isGroup: true,
      isStatus: false,
      isForwarded: true,
      type: 'text',
      text: 'hello',
      mentions: [ME],
      replyTo: { id: '3EB0BBBBBBBBBBBBBBBBBB', sender: { id: ME, phone: '15550001111', isMe: true }, text: 'original' },
      ephemeralExpiration: '7d',
      isEdit: true,
      edit: { originalMessageTime: TIME, originalMessageId: '3EB0CCCCCCCCCCCCCCCCCC' },
    });
  });

  it('describes media, reactions, contacts, pins and link previews as the family does', () => {
    const media = {
      mediaType: 'image' as const,
      mimeType: 'image/jpeg',
      id: 'm-1',
      fileLength: 204800,
      caption: 'look',
      width: 1920,
      height: 1080,
    };
    expect(normalise.message(message({ content: { type: 'media', media }, viewOnce: true })).data).toMatchObject({
      type: 'media',
      viewOnce: true,
      media,
    });
    expect(normalise.message(message({ content: { type: 'reaction', messageId: 'X', emoji: '👍' } })).data).toMatchObject({
      type: 'reaction',
      reaction: { messageId: 'X', emoji: '👍' },
    });
    expect(normalise.message(message({ content: { type: 'contact', vcard: 'BEGIN:VCARD' } })).data).toMatchObject({
      type: 'contact',
      contact: 'BEGIN:VCARD',
    });
    expect(normalise.message(message({ content: { type: 'contactArray', vcards: ['A', 'B'] } })).data).toMatchObject({
      type: 'contactArray',
      contactArray: ['A', 'B'],
    });
    expect(
      normalise.message(message({ content: { type: 'pinInChat', pinned: true, messageId: 'X', seconds: 86_400 } })).data,
    ).toMatchObject({
      type: 'pinInChat',
      pin: { pinned: true, messageId: 'X', expiration: '24h' },
    });
    const link = normalise.message(
      message({ content: { type: 'text', text: 'see https://e.com', link: { url: 'https://e.com', title: 'E' } } }),
    );
    expect(link.data).toMatchObject({
      type: 'text',
      text: 'see https://e.com',
      extendedText: { matchedText: 'https://e.com', title: 'E' },
    });
    expect(link.data.extendedText).toEqual({ matchedText: 'https://e.com', title: 'E' });
  });

  it('builds taps with the label as text and the answered message as replyTo.id', () => {
    expect(
      normalise.message(message({ content: { type: 'button_reply', id: 'yes', text: 'Yes' }, replyTo: { id: 'B' } })).data,
    ).toMatchObject({
      type: 'button_reply',
      text: 'Yes',
      buttonReply: { id: 'yes', text: 'Yes' },
      replyTo: { id: 'B' },
    });
    const list = normalise.message(message({ content: { type: 'list_reply', id: 'r1', title: 'Nine' }, replyTo: { id: 'L' } })).data;
    expect(list).toMatchObject({ type: 'list_reply', text: 'Nine', replyTo: { id: 'L' } });
    expect(list.listReply).toEqual({ id: 'r1', title: 'Nine' });
  });
});

describe('normalise: message happenings', () => {
  it('builds message_read with reader and author', () => {
    expect(
      normalise.messageRead({
        chatId: ANN,
        reader: { jid: ANN, isMe: false },
        messageSender: { jid: ME, isMe: true },
        messageIds: ['X'],
        time: AT,
        receiptType: 'read',
      }).data,
    ).toEqual({
      chatId: ANN,
      sender: { ...ann, isMe: false },
      messageSender: { id: ME, phone: '15550001111', isMe: true },
      isGroup: false,
      messageIds: ['X'],
      time: TIME,
      receiptType: 'read',
    });
  });

  it('builds message_delete for everyone and for me, and message_star', () => {
    const base = { id: 'X', chatId: ANN, sender: { jid: ANN, isMe: false }, time: AT };
    expect(normalise.messageDelete({ ...base, forEveryone: true }).data).toEqual({
      id: 'X',
      sender: { ...ann, isMe: false },
      chatId: ANN,
      time: TIME,
      isDeletedForAll: true,
      isDeletedForMe: false,
      isStatus: false,
    });
    expect(normalise.messageDelete({ ...base, forEveryone: false }).data).toMatchObject({ isDeletedForAll: false, isDeletedForMe: true });
    expect(normalise.messageStar({ ...base, starred: true }).data).toEqual({
      id: 'X',
      chatId: ANN,
      sender: { ...ann, isMe: false },
      time: TIME,
      isStarred: true,
    });
  });

  it('sends history per chat, in chunks of at most HISTORY_CHUNK messages', () => {
    const many = Array.from({ length: HISTORY_CHUNK + 1 }, (_, index) => message({ id: `A${index}` }));
    const events = normalise.messageHistorySync([message({ id: 'G1', chatId: GROUP }), ...many]);
    expect(events.map((event) => [event.eventType, event.data.chatId, event.data.messages.length])).toEqual([
      ['message_history_sync', GROUP, 1],
      ['message_history_sync', ANN, HISTORY_CHUNK],
      ['message_history_sync', ANN, 1],
    ]);
    expect(events[2].data.messages[0]).toEqual(normalise.message(message({ id: `A${HISTORY_CHUNK}` })).data);
    expect(normalise.messageHistorySync([])).toEqual([]);
  });
});

describe('normalise: chats, contacts, people', () => {
  it('builds chat_setting for each setting type', () => {
    const setting = (input: Parameters<typeof normalise.chatSetting>[0]['setting']) =>
      normalise.chatSetting({ chatId: ANN, setting: input }).data;
    expect(setting({ type: 'mute', muted: true, until: AT })).toEqual({
      id: ANN,
      settingType: 'mute',
      mute: { isMuted: true, muteEndTime: TIME },
    });
    expect(setting({ type: 'mute', muted: false, until: AT })).toEqual({ id: ANN, settingType: 'mute', mute: { isMuted: false } });
    expect(setting({ type: 'pin', pinned: true })).toEqual({ id: ANN, settingType: 'pin', pin: { isPinned: true } });
    expect(setting({ type: 'read', read: false })).toEqual({ id: ANN, settingType: 'read', read: { isRead: false } });
    expect(setting({ type: 'archive', archived: true })).toEqual({ id: ANN, settingType: 'archive', archive: { isArchived: true } });
    expect(setting({ type: 'ephemeral', seconds: 86_400, by: { jid: ANN, isMe: false } })).toEqual({
      id: ANN,
      settingType: 'ephemeral',
      ephemeral: { expiration: '24h', sender: { ...ann, isMe: false } },
    });
  });

  it('builds presence, push name, about, picture and contact events', () => {
    expect(normalise.chatPresence({ chatId: GROUP, sender: { jid: ANN, isMe: false }, state: 'typing' }).data).toEqual({
      id: GROUP,
      sender: { ...ann, isMe: false },
      state: 'typing',
    });
    expect(normalise.userPresence({ user: { jid: ANN }, available: false, lastSeen: AT }).data).toEqual({
      user: ann,
      status: 'unavailable',
      lastSeen: TIME,
    });
    expect(normalise.userPresence({ user: { jid: ANN }, available: true }).data).toEqual({ user: ann, status: 'available' });
    expect(normalise.chatPushName({ user: { jid: ANN }, pushName: 'Ann' }).data).toEqual({ user: ann, pushName: 'Ann' });
    expect(normalise.chatStatus({ user: { jid: ANN }, status: 'Busy' }).data).toEqual({ user: ann, status: 'Busy' });
    expect(normalise.chatPicture({ chatId: ANN, sender: { jid: ANN, isMe: false }, pictureId: '1' }).data).toEqual({
      id: ANN,
      sender: { ...ann, isMe: false },
      pictureId: '1',
    });
    expect(
      normalise.contact({ contact: { jid: ANN, lid: '1234567890123@lid' }, fullName: 'Ann Lee', inPhoneAddressBook: true }).data,
    ).toEqual({
      contact: { ...ann, lid: '1234567890123@lid' },
      fullName: 'Ann Lee',
      inPhoneAddressBook: true,
    });
  });
});

describe('normalise: groups, newsletters, calls', () => {
  it('builds a group event with only the change it carries', () => {
    expect(normalise.group({ groupId: GROUP, by: { jid: ME, isMe: true }, at: AT, promote: [{ jid: ANN }] }).data).toEqual({
      id: GROUP,
      sender: { id: ME, phone: '15550001111', isMe: true },
      timestamp: TIME,
      promote: [ann],
    });
    expect(normalise.group({ groupId: GROUP, topic: 'Plans', locked: true }).data).toEqual({
      id: GROUP,
      description: { topic: 'Plans' },
      locked: { isLocked: true },
    });
    expect(
      normalise.group({
        groupId: GROUP,
        communityId: '120363999999999888888@g.us',
        isAnnouncementGroup: false,
        groupType: 'new',
        join: [{ jid: ME }],
      }).data,
    ).toEqual({
      id: GROUP,
      communityId: '120363999999999888888@g.us',
      isAnnouncementGroup: false,
      groupType: 'new',
      join: [{ id: ME, phone: '15550001111' }],
    });
  });

  it('builds newsletter join, leave and mute', () => {
    const id = '120363000000000111111@newsletter';
    expect(normalise.newsletter({ id, action: 'join', name: 'News', role: 'SUBSCRIBER' }).data).toEqual({
      id,
      action: 'join',
      name: 'News',
      role: 'SUBSCRIBER',
    });
    expect(normalise.newsletter({ id, action: 'leave', role: 'SUBSCRIBER' }).data).toEqual({ id, action: 'leave', role: 'SUBSCRIBER' });
    expect(normalise.newsletter({ id, action: 'mute', muted: true }).data).toEqual({ id, action: 'mute', mute: 'MUTED' });
    expect(normalise.newsletter({ id, action: 'mute', muted: false }).data).toEqual({ id, action: 'mute', mute: 'UNMUTED' });
  });

  it('builds call offer (1:1 and group), accept and terminate', () => {
    expect(normalise.callOffer({ id: 'C1', caller: { jid: ANN }, time: AT, isVideo: true }).data).toEqual({
      id: 'C1',
      caller: ann,
      chatId: ANN,
      isGroup: false,
      time: TIME,
      isVideo: true,
    });
    expect(normalise.callOffer({ id: 'C1', caller: { jid: ANN }, chatId: GROUP, time: AT, isVideo: false }).data).toMatchObject({
      chatId: GROUP,
      isGroup: true,
    });
    expect(normalise.callAccept({ id: 'C1', caller: { jid: ANN }, time: AT }).data).toEqual({ id: 'C1', caller: ann, time: TIME });
    expect(normalise.callTerminate({ id: 'C1', caller: { jid: ANN }, time: AT, reason: 'rejected' }).data).toEqual({
      id: 'C1',
      caller: ann,
      time: TIME,
      reason: 'rejected',
    });
  });
});
