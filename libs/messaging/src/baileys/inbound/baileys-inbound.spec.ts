import type { BaileysEvents, BaileysSocket } from '../baileys-library';
import { inboundHarness, long, type SinkCall } from '../testing/inbound';
import { FakeSocket } from '../testing/socket';
import { ANA, BOB, GROUP, SELF } from '../testing/people';

/** A call reduced to what it is: the event type, or which facts were learned. */
function shape(call: SinkCall): string {
  if ('event' in call) return call.event.eventType;
  return `learned ${Object.keys(call.learned).join(',')}`;
}

/** One flush of Baileys' event buffer after a reconnect: many event kinds in one map. */
function bufferedFlush(): Partial<BaileysEvents> {
  return {
    'messaging-history.set': {
      chats: [{ id: ANA.lid, pnJid: ANA.pn, conversationTimestamp: 1763799000, unreadCount: 0 }],
      contacts: [{ id: ANA.lid, name: 'Ana Silva', phoneNumber: ANA.pn }],
      messages: [
        {
          key: { remoteJid: ANA.lid, fromMe: false, id: '3A5C0000000000OLD001' },
          messageTimestamp: 1763799000,
          message: { conversation: 'earlier' },
        },
      ],
      syncType: 3,
      progress: 100,
      isLatest: true,
    },
    'chats.update': [{ id: GROUP, pinned: 1763800000000 }],
    'contacts.upsert': [{ id: BOB.pn, name: 'Bob Jones', lid: BOB.lid, phoneNumber: BOB.pn }],
    'messages.upsert': {
      type: 'append',
      messages: [
        {
          key: { remoteJid: GROUP, fromMe: false, id: '3EB00000000000NEW001', participant: BOB.lid, participantAlt: BOB.pn },
          messageTimestamp: 1763800000,
          pushName: 'Bob',
          message: { conversation: 'welcome back' },
        },
      ],
    },
    'messages.update': [
      { key: { remoteJid: ANA.lid, id: '3EB00000000000MINE01', fromMe: true }, update: { status: 4, messageTimestamp: 1763800010 } },
    ],
    'messages.reaction': [
      {
        key: { remoteJid: GROUP, fromMe: true, id: '3EB00000000000MINE02' },
        reaction: {
          key: { remoteJid: GROUP, fromMe: false, id: '3A5C00000000REACT01', participant: ANA.lid },
          text: '🎉',
          senderTimestampMs: long(1763800020000),
        },
      },
    ],
    'message-receipt.update': [
      {
        key: { remoteJid: GROUP, id: '3EB00000000000MINE02', fromMe: true, participant: BOB.lid },
        receipt: { userJid: BOB.lid, readTimestamp: 1763800030 },
      },
    ],
    'groups.update': [{ id: GROUP, subject: 'Welcome party', author: ANA.lid, authorPn: ANA.pn }],
  };
}

describe('BaileysInbound', () => {
  it('maps a whole buffered batch handed over by the socket, in a fixed order: who is who, history, people, groups, messages, changes, settings', async () => {
    const harness = inboundHarness();
    const calls = await harness.deliver(bufferedFlush());

    expect(calls.map(shape)).toEqual([
      'learned contacts',
      'learned contacts',
      'learned chats',
      'message_history_sync',
      'learned contacts',
      'contact',
      'group',
      'learned contacts',
      'message',
      'message_read',
      'message',
      'message_read',
      'chat_setting',
    ]);
    expect(calls[0]).toEqual({
      learned: {
        contacts: [
          { jid: BOB.pn, lid: BOB.lid },
          { jid: ANA.pn, lid: ANA.lid },
        ],
      },
    });
  });

  it('maps presence and calls after everything else in the same batch', async () => {
    const harness = inboundHarness();
    const calls = await harness.deliver({
      call: [
        {
          chatId: ANA.lid,
          from: ANA.lid,
          callerPn: ANA.pn,
          id: 'CALL0001',
          date: new Date(1763800000000),
          offline: false,
          status: 'offer',
          isVideo: false,
          isGroup: false,
        },
      ],
      'presence.update': { id: ANA.lid, presences: { [ANA.lid]: { lastKnownPresence: 'composing' } } },
      'messages.upsert': {
        type: 'notify',
        messages: [
          {
            key: { remoteJid: ANA.lid, remoteJidAlt: ANA.pn, fromMe: false, id: '3A5C0000000000NOW001' },
            messageTimestamp: 1763800000,
            message: { conversation: 'calling you' },
          },
        ],
      },
    });

    expect(calls.map(shape)).toEqual(['learned contacts', 'message', 'chat_presence', 'call_offer']);
  });

  it('forgets offered calls with the socket: a new socket (reconnect) reports a still-ringing call again', async () => {
    const harness = inboundHarness();
    const ringing: Partial<BaileysEvents> = {
      call: [
        {
          chatId: ANA.lid,
          from: ANA.lid,
          callerPn: ANA.pn,
          id: 'CALL0002',
          date: new Date(1763800000000),
          offline: false,
          status: 'ringing',
        },
      ],
    };
    const first = await harness.deliver(ringing);
    const again = await harness.deliver(ringing);
    const reconnected = { ...harness.context, socket: new FakeSocket() as unknown as BaileysSocket };
    harness.sink.clear();
    await harness.inbound.process(reconnected, ringing, harness.sink);

    expect(first.map(shape)).toEqual(['learned contacts', 'call_offer']);
    expect(again.map(shape)).toEqual(['learned contacts']);
    expect(harness.sink.calls.map(shape)).toEqual(['learned contacts', 'call_offer']);
  });

  it('works without a known LID of its own and without a sent registry', async () => {
    const harness = inboundHarness({ selfLid: null });
    delete harness.context.sent;
    const calls = await harness.deliver({
      'messages.upsert': {
        type: 'notify',
        messages: [
          {
            key: { remoteJid: ANA.pn, fromMe: true, id: '3AF1000000000PHONE01' },
            messageTimestamp: 1763800000,
            message: { conversation: 'typed on the phone' },
          },
        ],
      },
    });

    expect(calls).toEqual([
      {
        event: {
          eventType: 'message',
          data: {
            id: '3AF1000000000PHONE01',
            time: '2025-11-22T08:26:40.000Z',
            chatId: ANA.pn,
            sender: { id: SELF.pn, phone: SELF.phone, isMe: true },
            isGroup: false,
            isStatus: false,
            type: 'text',
            text: 'typed on the phone',
          },
        },
      },
    ]);
  });
});
