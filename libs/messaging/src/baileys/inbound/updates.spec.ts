import type { WAMessage } from '../baileys-library';
import { ServerAcks } from '../outbound/server-acks';
import { eventsIn, type Harness, inboundHarness, long } from '../testing/inbound';
import { ANA, BOB, GROUP, ME, SELF, senderOf } from '../testing/people';

const NOW = new Date('2025-11-22T10:00:00.000Z');

/** Ana's message, as stored when it arrived. */
function anaSaid(id: string, text: string): WAMessage {
  return {
    key: { remoteJid: ANA.lid, remoteJidAlt: ANA.pn, fromMe: false, id },
    messageTimestamp: 1763800000,
    pushName: 'Ana',
    message: { conversation: text },
  };
}

/** Ana's edit of one of her messages, as rc14 receives it (the protocol message inside `editedMessage`). */
function anaEdits(editId: string, targetId: string, text: string): WAMessage {
  return {
    key: { remoteJid: ANA.lid, remoteJidAlt: ANA.pn, fromMe: false, id: editId },
    messageTimestamp: 1763800120,
    pushName: 'Ana',
    message: {
      editedMessage: {
        message: {
          protocolMessage: {
            key: { remoteJid: SELF.lid, fromMe: true, id: targetId },
            type: 14,
            editedMessage: { conversation: text },
            timestampMs: long(1763800120456),
          },
        },
      },
    },
  };
}

/** The `messages.update` entry Baileys' processMessage derives from that edit. */
function derivedEdit(targetId: string, text: string) {
  return {
    key: { remoteJid: ANA.lid, remoteJidAlt: ANA.pn, fromMe: false, id: targetId },
    update: { message: { editedMessage: { message: { conversation: text } } }, messageTimestamp: 1763800120 },
  };
}

describe('messages.update', () => {
  let harness: Harness;
  beforeEach(() => {
    jest.useFakeTimers({ now: NOW, doNotFake: ['nextTick', 'setImmediate', 'queueMicrotask'] });
    // Baileys stored both pairs when their messages first arrived.
    harness = inboundHarness({ knownPairs: { [ANA.lid]: ANA.pn, [BOB.lid]: BOB.pn } });
  });
  afterEach(() => jest.useRealTimers());

  describe('edits', () => {
    it('reports an edit known only from messages.update under the edited message id', async () => {
      await harness.deliver({ 'messages.upsert': { type: 'notify', messages: [anaSaid('3A5C000000000ORIGINL', 'helo')] } });
      const calls = await harness.deliver({ 'messages.update': [derivedEdit('3A5C000000000ORIGINL', 'hello')] });

      expect(eventsIn(calls)).toEqual([
        {
          eventType: 'message',
          data: {
            id: '3A5C000000000ORIGINL',
            time: '2025-11-22T08:28:40.000Z',
            chatId: ANA.pn,
            sender: senderOf(ANA),
            isGroup: false,
            isStatus: false,
            type: 'text',
            text: 'hello',
            isEdit: true,
            edit: { originalMessageId: '3A5C000000000ORIGINL', originalMessageTime: '2025-11-22T08:26:40.000Z' },
          },
        },
      ]);
    });

    it('reports an edit once when its own message and Baileys’ update arrive together', async () => {
      const calls = await harness.deliver({
        'messages.upsert': { type: 'notify', messages: [anaEdits('3A5C0000000000EDIT01', '3A5C000000000ORIGINL', 'hello')] },
        'messages.update': [derivedEdit('3A5C000000000ORIGINL', 'hello')],
      });

      expect(eventsIn(calls).map((event) => event.eventType === 'message' && [event.data.id, event.data.edit])).toEqual([
        ['3A5C0000000000EDIT01', { originalMessageId: '3A5C000000000ORIGINL' }],
      ]);
    });

    it('stays quiet about the update of an edit whose message came in an earlier batch, and about the gateway’s own edit', async () => {
      await harness.deliver({
        'messages.upsert': { type: 'notify', messages: [anaEdits('3A5C0000000000EDIT01', '3A5C000000000ORIGINL', 'hello')] },
      });
      harness.sent.add('3EB00000000000MYEDIT');
      const ownEdit: WAMessage = {
        key: { remoteJid: ANA.pn, fromMe: true, id: '3EB00000000000MYEDIT' },
        messageTimestamp: 1763800180,
        message: {
          protocolMessage: {
            key: { remoteJid: ANA.pn, fromMe: true, id: '3EB000000000MYORIGIN' },
            type: 14,
            editedMessage: { conversation: 'fixed' },
            timestampMs: long(1763800180000),
          },
        },
      };
      const calls = await harness.deliver({
        'messages.upsert': { type: 'append', messages: [ownEdit] },
        'messages.update': [
          derivedEdit('3A5C000000000ORIGINL', 'hello'),
          {
            key: { remoteJid: ANA.pn, fromMe: true, id: '3EB000000000MYORIGIN' },
            update: { message: { editedMessage: { message: { conversation: 'fixed' } } }, messageTimestamp: 1763800180 },
          },
        ],
      });

      expect(eventsIn(calls)).toEqual([]);
    });
  });

  describe('deletes', () => {
    it('reports a delete for everyone known only from messages.update, naming the stored author', async () => {
      await harness.deliver({ 'messages.upsert': { type: 'notify', messages: [anaSaid('3A5C0000000000GONE01', 'oops')] } });
      const calls = await harness.deliver({
        'messages.update': [
          {
            key: { remoteJid: ANA.lid, remoteJidAlt: ANA.pn, fromMe: false, id: '3A5C0000000000GONE01' },
            update: { message: null, messageStubType: 1, key: { remoteJid: ANA.lid, fromMe: false, id: '3A5C00000000REVOKE1' } },
          },
        ],
      });

      expect(eventsIn(calls)).toEqual([
        {
          eventType: 'message_delete',
          data: {
            id: '3A5C0000000000GONE01',
            sender: senderOf(ANA),
            chatId: ANA.pn,
            time: NOW.toISOString(),
            isDeletedForAll: true,
            isDeletedForMe: false,
            isStatus: false,
          },
        },
      ]);
    });

    it('reports a delete for everyone once when the revoke message and the update arrive together', async () => {
      const revoke: WAMessage = {
        key: { remoteJid: ANA.lid, remoteJidAlt: ANA.pn, fromMe: false, id: '3A5C00000000REVOKE1' },
        messageTimestamp: 1763800060,
        message: { protocolMessage: { key: { remoteJid: SELF.lid, fromMe: true, id: '3A5C0000000000GONE01' }, type: 0 } },
      };
      const calls = await harness.deliver({
        'messages.upsert': { type: 'notify', messages: [revoke] },
        'messages.update': [
          {
            key: { ...revoke.key, id: '3A5C0000000000GONE01' },
            update: { message: null, messageStubType: 1, key: revoke.key },
          },
        ],
      });

      expect(eventsIn(calls).map((event) => event.eventType)).toEqual(['message_delete']);
    });

    it('reports a delete for this account only (messages.delete), when the author is known', async () => {
      await harness.deliver({ 'messages.upsert': { type: 'notify', messages: [anaSaid('3A5C00000000FORME001', 'hide me')] } });
      const calls = await harness.deliver({
        'messages.delete': {
          keys: [
            { remoteJid: ANA.lid, id: '3A5C00000000FORME001', fromMe: false },
            { remoteJid: GROUP, id: '3A5C0000000UNKNOWN01', fromMe: false },
          ],
        },
      });

      expect(eventsIn(calls)).toEqual([
        {
          eventType: 'message_delete',
          data: {
            id: '3A5C00000000FORME001',
            sender: senderOf(ANA),
            chatId: ANA.pn,
            time: NOW.toISOString(),
            isDeletedForAll: false,
            isDeletedForMe: true,
            isStatus: false,
          },
        },
      ]);
    });
  });

  describe('status receipts', () => {
    it('reports delivered, read and played for this account’s messages, one event per receipt stanza', async () => {
      const receipt = (id: string, status: number, t: number) => ({
        key: { remoteJid: ANA.lid, id, fromMe: true, participant: undefined },
        update: { status, messageTimestamp: t },
      });
      const calls = await harness.deliver({
        'messages.update': [
          receipt('3EB0000000000000SNT1', 3, 1763800060),
          receipt('3EB0000000000000SNT2', 3, 1763800060),
          receipt('3EB0000000000000SNT1', 4, 1763800120),
          receipt('3EB0000000000000VOX1', 5, 1763800180),
        ],
      });

      const read = (messageIds: string[], time: string, receiptType: string) => ({
        eventType: 'message_read',
        data: { chatId: ANA.pn, sender: senderOf(ANA), messageSender: ME, isGroup: false, messageIds, time, receiptType },
      });
      expect(eventsIn(calls)).toEqual([
        read(['3EB0000000000000SNT1', '3EB0000000000000SNT2'], '2025-11-22T08:27:40.000Z', 'delivered'),
        read(['3EB0000000000000SNT1'], '2025-11-22T08:28:40.000Z', 'read'),
        read(['3EB0000000000000VOX1'], '2025-11-22T08:29:40.000Z', 'played'),
      ]);
    });

    it('reports this account reading on another device as readSelf, and leaves server acks out', async () => {
      const calls = await harness.deliver({
        'messages.update': [
          { key: { remoteJid: ANA.lid, id: '3A5C000000000000INC1', fromMe: false }, update: { status: 4, messageTimestamp: 1763800060 } },
          { key: { remoteJid: ANA.lid, id: '3EB0000000000000SNT3', fromMe: true }, update: { status: 2, messageTimestamp: 1763800060 } },
        ],
      });

      expect(eventsIn(calls)).toEqual([
        {
          eventType: 'message_read',
          data: {
            chatId: ANA.pn,
            sender: ME,
            messageSender: senderOf(ANA),
            isGroup: false,
            messageIds: ['3A5C000000000000INC1'],
            time: '2025-11-22T08:27:40.000Z',
            receiptType: 'readSelf',
          },
        },
      ]);
    });

    it('reports a refusal no send waits for (a late error ack) as failed, with its code and reason', async () => {
      const calls = await harness.deliver({
        'messages.update': [
          {
            key: { remoteJid: BOB.pn, fromMe: true, id: '3EB0000000000000FAIL' },
            update: { status: 0, messageStubParameters: ['463', 'Account restricted: cannot message new contacts'] },
          },
        ],
      });

      expect(eventsIn(calls)).toEqual([
        {
          eventType: 'message_status',
          data: {
            id: '3EB0000000000000FAIL',
            chatId: BOB.pn,
            status: 'failed',
            error:
              'refused by the network (463): the account is restricted from reaching out: the network refuses messages to chats without a privacy token (new chats)',
            code: 463,
          },
        },
      ]);
    });
  });

  it("leaves a refusal to the send that waits for its ack: Baileys' ERROR update is not reported a second time", async () => {
    const acks = new ServerAcks(1_000);
    harness.context.acks = acks;
    acks.expect('3EB0000000000000WAIT', BOB.pn);
    acks.received({ id: '3EB0000000000000WAIT', error: '463' });
    const calls = await harness.deliver({
      'messages.update': [
        {
          key: { remoteJid: BOB.pn, fromMe: true, id: '3EB0000000000000WAIT' },
          update: { status: 0, messageStubParameters: ['463', 'Your account has been restricted'] },
        },
      ],
    });
    expect(eventsIn(calls)).toEqual([]);
    await expect(acks.outcome('3EB0000000000000WAIT')).resolves.toEqual({ outcome: 'refused', code: 463 });
  });

  it('reports a star from the phone with the stored author', async () => {
    await harness.deliver({
      'messages.upsert': {
        type: 'notify',
        messages: [
          {
            key: { remoteJid: GROUP, fromMe: false, id: '3EB0000000000STARRED', participant: BOB.lid, participantAlt: BOB.pn },
            messageTimestamp: 1763800000,
            message: { conversation: 'remember this' },
          },
        ],
      },
    });
    const calls = await harness.deliver({
      'messages.update': [{ key: { remoteJid: GROUP, id: '3EB0000000000STARRED', fromMe: false }, update: { starred: true } }],
    });

    expect(eventsIn(calls)).toEqual([
      {
        eventType: 'message_star',
        data: { id: '3EB0000000000STARRED', chatId: GROUP, sender: senderOf(BOB), time: NOW.toISOString(), isStarred: true },
      },
    ]);
  });

  it('ignores a media re-upload refreshing a message', async () => {
    const calls = await harness.deliver({
      'messages.update': [
        {
          key: { remoteJid: ANA.lid, id: '3A5C0000000000MEDIA1', fromMe: false },
          update: { message: { imageMessage: { directPath: '/v/t62/new', url: 'https://mmg.whatsapp.net/v/t62/new' } } },
        },
      ],
    });

    expect(eventsIn(calls)).toEqual([]);
  });
});
