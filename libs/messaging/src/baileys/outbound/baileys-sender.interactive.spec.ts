import { createHash } from 'node:crypto';
import type { InteractiveTextFallback } from '@app/config';
import type { OutboundMessage } from '@app/contracts';
import { BaileysSender } from './baileys-sender';
import { ServerAcks } from './server-acks';
import { MemoryNetworkMessages } from '../testing/kit';
import type { FakeSocket } from '../testing/socket';
import { CONTACT, GROUP, SELF, SELF_LID, fakeContext, fakeSocket, networkMessage } from '../testing/outbound';

const NOW = new Date('2025-05-19T00:51:44.000Z');
const ID = '3EB0F00DF00DF00DF00DF0';
/** The text copy's id: our format, derived from the message id. */
const TEXT_ID = `3EB0${createHash('sha256').update(`${ID}:text`).digest('hex').slice(0, 18).toUpperCase()}`;

const BIZ = {
  tag: 'biz',
  attrs: { actual_actors: '2', host_storage: '2', privacy_mode_ts: String(1_747_615_904 - 77_980_457) },
  content: [
    { tag: 'interactive', attrs: { type: 'native_flow', v: '1' }, content: [{ tag: 'native_flow', attrs: { v: '9', name: 'mixed' } }] },
    { tag: 'quality_control', attrs: { source_type: 'third_party' } },
  ],
};
const BOT = { tag: 'bot', attrs: { biz_bot: '1' } };

const buttons = (chatJid: string): OutboundMessage<'buttons'> => ({
  id: ID,
  kind: 'buttons',
  chatJid,
  payload: {
    text: 'Do you confirm the booking?',
    header: 'Booking',
    footer: 'Reply below',
    aiLabel: false,
    buttons: [
      { type: 'reply', text: 'Yes', id: 'yes' },
      { type: 'url', text: 'Details', url: 'https://example.com/b/1' },
      { type: 'copy', text: 'Code', copyCode: 'SAVE20' },
    ],
  },
});

const BUTTONS_CONTENT = {
  interactiveMessage: {
    header: { title: 'Booking', hasMediaAttachment: false },
    body: { text: 'Do you confirm the booking?' },
    footer: { text: 'Reply below' },
    nativeFlowMessage: {
      buttons: [
        { name: 'quick_reply', buttonParamsJson: '{"display_text":"Yes","id":"yes"}' },
        { name: 'cta_url', buttonParamsJson: '{"display_text":"Details","url":"https://example.com/b/1"}' },
        { name: 'cta_copy', buttonParamsJson: '{"display_text":"Code","copy_code":"SAVE20"}' },
      ],
      messageVersion: 1,
    },
  },
};

const BUTTONS_TEXT =
  '*Booking*\n\nDo you confirm the booking?\n\n1. Yes\n2. Details: https://example.com/b/1\n3. Code: SAVE20\n\n_Reply below_';

const list: OutboundMessage = {
  id: ID,
  kind: 'list',
  chatJid: CONTACT,
  payload: {
    text: 'Pick a time slot',
    buttonText: 'See slots',
    aiLabel: false,
    sections: [
      {
        title: 'Morning',
        rows: [
          { id: 'slot-0900', title: '9:00', description: 'Front desk' },
          { id: 'slot-1000', title: '10:00' },
        ],
      },
      { title: 'Afternoon', rows: [{ id: 'slot-1400', title: '14:00' }] },
    ],
  },
};

describe('BaileysSender: buttons and lists', () => {
  let socket: FakeSocket;
  let store: MemoryNetworkMessages;
  const send = (fallback: InteractiveTextFallback, message: OutboundMessage) =>
    new BaileysSender({ interactiveTextFallback: fallback }).send(fakeContext(socket, store), message);

  beforeEach(() => {
    jest.useFakeTimers({ now: NOW });
    socket = fakeSocket();
    store = new MemoryNetworkMessages();
  });

  afterEach(() => jest.useRealTimers());

  it('relays buttons as a native-flow message under our id, with the <biz> node (no AI label asked for)', async () => {
    const result = await send('off', buttons(CONTACT));

    expect(socket.relayMessage.mock.calls).toEqual([[CONTACT, BUTTONS_CONTENT, { messageId: ID, additionalNodes: [BIZ] }]]);
    expect(socket.sendMessage).not.toHaveBeenCalled();
    expect(store.saved()).toEqual([networkMessage(CONTACT, ID, BUTTONS_CONTENT)]);
    expect(result).toEqual({
      ownMessage: {
        eventType: 'message',
        data: {
          id: ID,
          time: NOW.toISOString(),
          chatId: CONTACT,
          sender: { id: SELF, lid: SELF_LID, phone: '447700900123', isMe: true },
          isGroup: false,
          isStatus: false,
          type: 'buttons',
          text: 'Do you confirm the booking?',
        },
      },
    });
  });

  it('relays call buttons to a group with the <biz> node only', async () => {
    const message: OutboundMessage = {
      id: ID,
      kind: 'buttons',
      chatJid: GROUP,
      payload: { text: 'Need help?', aiLabel: false, buttons: [{ type: 'call', text: 'Call us', phoneNumber: '+14155550123' }] },
    };

    await send('off', message);

    const content = {
      interactiveMessage: {
        body: { text: 'Need help?' },
        nativeFlowMessage: {
          buttons: [{ name: 'cta_call', buttonParamsJson: '{"display_text":"Call us","phone_number":"+14155550123"}' }],
          messageVersion: 1,
        },
      },
    };
    expect(socket.relayMessage.mock.calls).toEqual([[GROUP, content, { messageId: ID, additionalNodes: [BIZ] }]]);
    expect(store.saved()).toEqual([networkMessage(GROUP, ID, content)]);
  });

  it('relays a list as one single_select button holding the sections', async () => {
    const result = await send('off', list);

    expect(socket.relayMessage.mock.calls).toEqual([
      [
        CONTACT,
        {
          interactiveMessage: {
            body: { text: 'Pick a time slot' },
            nativeFlowMessage: {
              buttons: [
                {
                  name: 'single_select',
                  buttonParamsJson:
                    '{"title":"See slots","sections":[{"title":"Morning","rows":[{"title":"9:00","description":"Front desk","id":"slot-0900"},' +
                    '{"title":"10:00","id":"slot-1000"}]},{"title":"Afternoon","rows":[{"title":"14:00","id":"slot-1400"}]}]}',
                },
              ],
              messageVersion: 1,
            },
          },
        },
        { messageId: ID, additionalNodes: [BIZ] },
      ],
    ]);
    expect(result.ownMessage?.data).toMatchObject({ id: ID, type: 'list', text: 'Pick a time slot' });
  });

  it('adds <bot biz_bot="1"> ahead of <biz> only for an AI-labelled message in a one-to-one chat', async () => {
    const labelled = (chat: string): OutboundMessage => {
      const message = buttons(chat);
      return { ...message, payload: { ...message.payload, aiLabel: true } };
    };
    await send('off', labelled(CONTACT));
    await send('off', labelled(GROUP));
    expect(socket.relayMessage.mock.calls.map((call) => (call[2] as { additionalNodes: unknown }).additionalNodes)).toEqual([
      [BOT, BIZ],
      [BIZ],
    ]);
  });

  it('follows the interactive message with numbered plain text under a derived id (after)', async () => {
    socket.sendMessage.mockResolvedValueOnce(networkMessage(CONTACT, TEXT_ID, { extendedTextMessage: { text: BUTTONS_TEXT } }));

    const result = await send('after', buttons(CONTACT));

    expect(socket.relayMessage.mock.calls).toEqual([[CONTACT, BUTTONS_CONTENT, { messageId: ID, additionalNodes: [BIZ] }]]);
    expect(socket.sendMessage.mock.calls).toEqual([[CONTACT, { text: BUTTONS_TEXT, linkPreview: null }, { messageId: TEXT_ID }]]);
    expect(socket.relayMessage.mock.invocationCallOrder[0]).toBeLessThan(socket.sendMessage.mock.invocationCallOrder[0]);
    expect(store.saved().map((message) => message.key.id)).toEqual([ID, TEXT_ID]);
    expect(result.ownMessage?.data).toMatchObject({ id: ID, type: 'buttons' });
  });

  it('numbers list rows across sections in the text copy', async () => {
    socket.sendMessage.mockResolvedValueOnce(networkMessage(CONTACT, TEXT_ID, { extendedTextMessage: { text: 'x' } }));

    await send('after', list);

    expect(socket.sendMessage.mock.calls).toEqual([
      [
        CONTACT,
        { text: 'Pick a time slot\n\n*Morning*\n1. 9:00 - Front desk\n2. 10:00\n\n*Afternoon*\n3. 14:00', linkPreview: null },
        { messageId: TEXT_ID },
      ],
    ]);
  });

  it('sends only the text copy, under our id, when configured instead', async () => {
    socket.sendMessage.mockResolvedValueOnce(networkMessage(CONTACT, ID, { extendedTextMessage: { text: BUTTONS_TEXT } }));

    const result = await send('instead', buttons(CONTACT));

    expect(socket.relayMessage).not.toHaveBeenCalled();
    expect(socket.sendMessage.mock.calls).toEqual([[CONTACT, { text: BUTTONS_TEXT, linkPreview: null }, { messageId: ID }]]);
    expect(result.ownMessage?.data).toMatchObject({ id: ID, type: 'text', text: BUTTONS_TEXT });
    expect(store.saved().map((message) => message.key.id)).toEqual([ID]);
  });

  describe('a message of two parts (after): each part goes out once', () => {
    const connectionClosed = () => Object.assign(new Error('Connection Closed'), { isBoom: true, output: { statusCode: 428 } });
    const textCopy = () => networkMessage(CONTACT, TEXT_ID, { extendedTextMessage: { text: BUTTONS_TEXT } });
    const sendWith = (acks: ServerAcks) =>
      new BaileysSender({ interactiveTextFallback: 'after' }).send({ ...fakeContext(socket, store), acks }, buttons(CONTACT));

    it('retries only the text copy after it failed on a closed link: the buttons are relayed once, their ack still counts', async () => {
      const acks = new ServerAcks(1_000);
      socket.relayMessage.mockImplementationOnce((_jid, _message, options) => {
        acks.received({ id: options.messageId });
        return Promise.resolve(options.messageId ?? '');
      });
      socket.sendMessage.mockRejectedValueOnce(connectionClosed()).mockResolvedValueOnce(textCopy());

      await expect(sendWith(acks)).rejects.toThrow('Connection Closed');
      const retried = await sendWith(acks);

      expect(socket.relayMessage.mock.calls).toEqual([[CONTACT, BUTTONS_CONTENT, { messageId: ID, additionalNodes: [BIZ] }]]);
      expect(socket.sendMessage.mock.calls).toEqual([
        [CONTACT, { text: BUTTONS_TEXT, linkPreview: null }, { messageId: TEXT_ID }],
        [CONTACT, { text: BUTTONS_TEXT, linkPreview: null }, { messageId: TEXT_ID }],
      ]);
      expect(store.saved().map((message) => message.key.id)).toEqual([ID, TEXT_ID]);
      expect(retried).toEqual({ ownMessage: expect.objectContaining({ eventType: 'message' }) });
      expect(retried.ownMessage?.data).toMatchObject({ id: ID, type: 'buttons' });
    });

    it('sends nothing again when both parts went out, and reports the send unconfirmed when this session never saw the ack', async () => {
      await store.save('ins_1', [
        { id: ID, chatJid: CONTACT, fromMe: true, senderJid: null, sentAt: NOW, data: '{}' },
        { id: TEXT_ID, chatJid: CONTACT, fromMe: true, senderJid: null, sentAt: NOW, data: '{}' },
      ]);

      const result = await sendWith(new ServerAcks(1_000));

      expect(socket.relayMessage).not.toHaveBeenCalled();
      expect(socket.sendMessage).not.toHaveBeenCalled();
      expect(result).toEqual({
        ownMessage: expect.objectContaining({ eventType: 'message' }),
        unconfirmed: 'the buttons went out on an earlier attempt whose acknowledgement this session did not see',
      });
    });

    it('reports a send whose buttons were written but whose link closed before the ack unconfirmed, not sent', async () => {
      const acks = new ServerAcks(1_000);
      socket.relayMessage.mockImplementationOnce((_jid, _message, options) => {
        acks.socketClosed();
        return Promise.resolve(options.messageId ?? '');
      });
      socket.sendMessage.mockResolvedValueOnce(textCopy());

      const result = await sendWith(acks);

      expect(result).toEqual({
        ownMessage: expect.objectContaining({ eventType: 'message' }),
        unconfirmed: 'the link closed before the network acknowledged the message',
      });
    });
  });
});
