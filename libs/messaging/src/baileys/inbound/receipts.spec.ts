import { eventsIn, type Harness, inboundHarness } from '../testing/inbound';
import { ANA, BOB, CAROL, GROUP, ME, SELF, senderOf } from '../testing/people';

describe('message-receipt.update', () => {
  let harness: Harness;
  beforeEach(() => {
    harness = inboundHarness({ knownPairs: { [ANA.lid]: ANA.pn, [BOB.lid]: BOB.pn } });
  });

  it('reports each member’s receipt in a group, the member as the reader', async () => {
    // As handleReceipt emits them: the key names the reader as participant; played lands in readTimestamp.
    const calls = await harness.deliver({
      'message-receipt.update': [
        {
          key: { remoteJid: GROUP, id: '3EB0000000000GROUP01', fromMe: true, participant: BOB.lid },
          receipt: { userJid: BOB.lid, receiptTimestamp: 1763800060 },
        },
        {
          key: { remoteJid: GROUP, id: '3EB0000000000GROUP02', fromMe: true, participant: BOB.lid },
          receipt: { userJid: BOB.lid, receiptTimestamp: 1763800060 },
        },
        {
          key: { remoteJid: GROUP, id: '3EB0000000000GROUP01', fromMe: true, participant: ANA.lid },
          receipt: { userJid: ANA.lid, readTimestamp: 1763800120 },
        },
        {
          key: { remoteJid: GROUP, id: '3EB0000000000GROUP01', fromMe: true, participant: CAROL.pn },
          receipt: { userJid: CAROL.pn, readTimestamp: 1763800180 },
        },
      ],
    });

    const read = (reader: object, messageIds: string[], time: string, receiptType: string) => ({
      eventType: 'message_read',
      data: { chatId: GROUP, sender: reader, messageSender: ME, isGroup: true, messageIds, time, receiptType },
    });
    expect(eventsIn(calls)).toEqual([
      read(senderOf(BOB), ['3EB0000000000GROUP01', '3EB0000000000GROUP02'], '2025-11-22T08:27:40.000Z', 'delivered'),
      read(senderOf(ANA), ['3EB0000000000GROUP01'], '2025-11-22T08:28:40.000Z', 'read'),
      read({ id: CAROL.pn, phone: CAROL.phone, isMe: false }, ['3EB0000000000GROUP01'], '2025-11-22T08:29:40.000Z', 'read'),
    ]);
  });

  it('reports a view of this account’s status post', async () => {
    const calls = await harness.deliver({
      'message-receipt.update': [
        {
          key: { remoteJid: 'status@broadcast', id: '3EB000000000STATUS01', fromMe: true, participant: ANA.lid },
          receipt: { userJid: ANA.lid, readTimestamp: 1763800060 },
        },
      ],
    });

    expect(eventsIn(calls)).toEqual([
      {
        eventType: 'message_read',
        data: {
          chatId: 'status@broadcast',
          sender: senderOf(ANA),
          messageSender: ME,
          isGroup: false,
          messageIds: ['3EB000000000STATUS01'],
          time: '2025-11-22T08:27:40.000Z',
          receiptType: 'read',
        },
      },
    ]);
  });

  it('reports this account reading a group message on the phone as readSelf, naming the stored writer', async () => {
    await harness.deliver({
      'messages.upsert': {
        type: 'notify',
        messages: [
          {
            key: { remoteJid: GROUP, fromMe: false, id: '3A5C0000000000GRPIN1', participant: BOB.lid, participantAlt: BOB.pn },
            messageTimestamp: 1763800000,
            message: { conversation: 'news' },
          },
        ],
      },
    });
    const calls = await harness.deliver({
      'message-receipt.update': [
        {
          key: { remoteJid: GROUP, id: '3A5C0000000000GRPIN1', fromMe: false, participant: SELF.lid },
          receipt: { userJid: SELF.lid, readTimestamp: 1763800240 },
        },
      ],
    });

    expect(eventsIn(calls)).toEqual([
      {
        eventType: 'message_read',
        data: {
          chatId: GROUP,
          sender: ME,
          messageSender: senderOf(BOB),
          isGroup: true,
          messageIds: ['3A5C0000000000GRPIN1'],
          time: '2025-11-22T08:30:40.000Z',
          receiptType: 'readSelf',
        },
      },
    ]);
  });
});

describe('1:1 receipts from a chat named by phone number', () => {
  it('name the reader with the LID Baileys stored for the number (found by the protocol-level e2e: it was left out)', async () => {
    const harness = inboundHarness({ storedLidMappings: { [BOB.phone]: BOB.lid.split('@')[0] } });
    const calls = await harness.deliver({
      'messages.update': [
        { key: { remoteJid: BOB.pn, id: '3EB00000000000PN0001', fromMe: true }, update: { status: 3, messageTimestamp: 1763800060 } },
      ],
    });
    expect(eventsIn(calls)).toEqual([
      {
        eventType: 'message_read',
        data: {
          chatId: BOB.pn,
          sender: senderOf(BOB),
          messageSender: ME,
          isGroup: false,
          messageIds: ['3EB00000000000PN0001'],
          time: '2025-11-22T08:27:40.000Z',
          receiptType: 'delivered',
        },
      },
    ]);
  });
});
