import type { WAMessage } from '../baileys-library';
import { eventsIn, type Harness, inboundHarness, INSTANCE_ID, long } from '../testing/inbound';
import { ANA, BOB, GROUP, ME, SELF, identityOf, senderOf } from '../testing/people';

/** An incoming 1:1 message from Ana in a LID-addressed chat, as rc14 decodes it. */
function fromAna(id: string, message: WAMessage['message'], extra: Partial<WAMessage> = {}): WAMessage {
  return {
    key: { remoteJid: ANA.lid, remoteJidAlt: ANA.pn, fromMe: false, id, addressingMode: 'lid' },
    messageTimestamp: 1763800000,
    pushName: 'Ana',
    broadcast: false,
    message,
    ...extra,
  };
}

/** A group message from Bob, LID-addressed, his phone number in `participantAlt`. */
function fromBobInGroup(id: string, message: WAMessage['message']): WAMessage {
  return {
    key: { remoteJid: GROUP, fromMe: false, id, participant: BOB.lid, participantAlt: BOB.pn, addressingMode: 'lid' },
    messageTimestamp: 1763800060,
    pushName: 'Bob',
    broadcast: false,
    message,
  };
}

const BASE = { time: '2025-11-22T08:26:40.000Z', chatId: ANA.pn, sender: senderOf(ANA), isGroup: false, isStatus: false };

describe('messages.upsert', () => {
  let harness: Harness;
  beforeEach(() => {
    harness = inboundHarness();
  });

  it('reports a text from a LID-addressed chat under the phone number with the LID alongside, after learning who sent it', async () => {
    const calls = await harness.deliver({
      'messages.upsert': {
        type: 'notify',
        messages: [fromAna('3A5C1F0E7B2D4A6C8E10', { conversation: 'Olá!', messageContextInfo: { deviceListMetadataVersion: 2 } })],
      },
    });

    expect(calls).toEqual([
      { learned: { contacts: [{ jid: ANA.pn, lid: ANA.lid }] } },
      { learned: { contacts: [{ jid: ANA.pn, lid: ANA.lid, pushName: 'Ana' }] } },
      { event: { eventType: 'message', data: { id: '3A5C1F0E7B2D4A6C8E10', ...BASE, type: 'text', text: 'Olá!' } } },
    ]);
    expect(harness.store.ids()).toEqual(['3A5C1F0E7B2D4A6C8E10']);
  });

  it('announces a changed push name (chat_push_name) before the message that carries it, once', async () => {
    await harness.deliver({ 'messages.upsert': { type: 'notify', messages: [fromAna('3A5C1F0E7B2D4A6C8E11', { conversation: 'one' })] } });
    const calls = await harness.deliver({
      'messages.upsert': {
        type: 'notify',
        messages: [
          fromAna('3A5C1F0E7B2D4A6C8E12', { conversation: 'two' }, { pushName: 'Ana Paula' }),
          fromAna('3A5C1F0E7B2D4A6C8E13', { conversation: 'three' }, { pushName: 'Ana Paula' }),
        ],
      },
    });
    const events = eventsIn(calls);
    expect(events.map((event) => event.eventType)).toEqual(['chat_push_name', 'message', 'message']);
    expect(events[0]).toEqual({ eventType: 'chat_push_name', data: { user: identityOf(ANA), pushName: 'Ana Paula' } });
  });

  it('reads a group text with mentions, a quote, forwarding and the disappearing timer', async () => {
    const calls = await harness.deliver({
      'messages.upsert': {
        type: 'notify',
        messages: [
          fromBobInGroup('3EB0A1B2C3D4E5F60718', {
            extendedTextMessage: {
              text: '@123456789012345 @90000000000001 see above',
              contextInfo: {
                stanzaId: '3A00000000000000QUOT',
                participant: ANA.lid,
                quotedMessage: { conversation: 'the plan' },
                mentionedJid: [ANA.lid, SELF.lid],
                isForwarded: true,
                forwardingScore: 1,
                expiration: 604800,
              },
            },
          }),
        ],
      },
    });

    expect(eventsIn(calls)).toEqual([
      {
        eventType: 'message',
        data: {
          id: '3EB0A1B2C3D4E5F60718',
          time: '2025-11-22T08:27:40.000Z',
          chatId: GROUP,
          sender: senderOf(BOB),
          isGroup: true,
          isStatus: false,
          isForwarded: true,
          type: 'text',
          text: '@123456789012345 @90000000000001 see above',
          mentions: [ANA.lid, SELF.pn],
          replyTo: { id: '3A00000000000000QUOT', sender: { id: ANA.lid, lid: ANA.lid, isMe: false }, text: 'the plan' },
          ephemeralExpiration: '7d',
        },
      },
    ]);
  });

  it('names a bare LID by the phone number Baileys already stored for it, looked up once per batch', async () => {
    harness = inboundHarness({ knownPairs: { [ANA.lid]: ANA.pn } });
    const calls = await harness.deliver({
      'messages.upsert': {
        type: 'notify',
        messages: [
          fromBobInGroup('3EB0000000000000AAA1', { extendedTextMessage: { text: 'hi @ana', contextInfo: { mentionedJid: [ANA.lid] } } }),
          {
            ...fromBobInGroup('3EB0000000000000AAA2', { conversation: 'and you' }),
            key: { remoteJid: GROUP, fromMe: false, id: '3EB0000000000000AAA2', participant: ANA.lid },
          },
        ],
      },
    });

    const events = eventsIn(calls);
    expect(events.map((event) => event.eventType === 'message' && [event.data.mentions, event.data.sender])).toEqual([
      [[ANA.pn], senderOf(BOB)],
      [undefined, senderOf(ANA)],
    ]);
    // Bob's pair rides on his message; only Ana's LID needs the lookup.
    expect(harness.socket.lookedUp).toEqual([[ANA.lid]]);
  });

  it('reports a link preview as extendedText', async () => {
    const calls = await harness.deliver({
      'messages.upsert': {
        type: 'notify',
        messages: [
          fromAna('3A5C00000000000LINK1', {
            extendedTextMessage: {
              text: 'look https://example.org/post',
              matchedText: 'https://example.org/post',
              title: 'A post',
              description: 'About things',
              previewType: 0,
              jpegThumbnail: Buffer.from('thumb'),
            },
          }),
        ],
      },
    });

    expect(eventsIn(calls)).toEqual([
      {
        eventType: 'message',
        data: {
          id: '3A5C00000000000LINK1',
          ...BASE,
          type: 'text',
          text: 'look https://example.org/post',
          extendedText: {
            matchedText: 'https://example.org/post',
            title: 'A post',
            description: 'About things',
            jpegThumbnail: Buffer.from('thumb').toString('base64'),
          },
        },
      },
    ]);
  });

  describe('media', () => {
    const thumbnail = Buffer.from([0xff, 0xd8, 0xff]);
    const cases: [string, WAMessage['message'], Record<string, unknown>][] = [
      [
        'an image with caption and size',
        {
          imageMessage: {
            url: 'https://mmg.whatsapp.net/o1/v/t62.7118-24/f1/m231/up-oil-image.enc',
            mimetype: 'image/jpeg',
            caption: 'Check this out',
            fileSha256: Buffer.from('sha'),
            fileLength: long(204800),
            height: 1080,
            width: 1920,
            mediaKey: Buffer.from('key'),
            directPath: '/o1/v/t62.7118-24/f1/m231/up-oil-image.enc',
            jpegThumbnail: thumbnail,
          },
        },
        {
          mediaType: 'image',
          mimeType: 'image/jpeg',
          fileLength: 204800,
          caption: 'Check this out',
          height: 1080,
          width: 1920,
          jpegThumbnail: thumbnail.toString('base64'),
        },
      ],
      [
        'a video',
        { videoMessage: { mimetype: 'video/mp4', fileLength: long(3145728), seconds: 14, height: 720, width: 1280, caption: 'clip' } },
        { mediaType: 'video', mimeType: 'video/mp4', fileLength: 3145728, duration: 14, height: 720, width: 1280, caption: 'clip' },
      ],
      [
        'an audio file',
        { audioMessage: { mimetype: 'audio/mpeg', fileLength: long(512000), seconds: 12, ptt: false } },
        { mediaType: 'audio', mimeType: 'audio/mpeg', fileLength: 512000, duration: 12 },
      ],
      [
        'a voice note (ptt)',
        {
          audioMessage: {
            mimetype: 'audio/ogg; codecs=opus',
            fileLength: long(9216),
            seconds: 3,
            ptt: true,
            waveform: Buffer.from([1, 2]),
          },
        },
        { mediaType: 'voice', mimeType: 'audio/ogg; codecs=opus', fileLength: 9216, duration: 3 },
      ],
      [
        'a document with caption (documentWithCaptionMessage)',
        {
          documentWithCaptionMessage: {
            message: {
              documentMessage: {
                mimetype: 'application/pdf',
                title: 'report.pdf',
                fileName: 'report.pdf',
                fileLength: long(88000),
                pageCount: 3,
                caption: 'Q3 report',
              },
            },
          },
        },
        {
          mediaType: 'document',
          mimeType: 'application/pdf',
          fileLength: 88000,
          caption: 'Q3 report',
          filename: 'report.pdf',
          title: 'report.pdf',
          pageCount: 3,
        },
      ],
      [
        'a sticker',
        { stickerMessage: { mimetype: 'image/webp', fileLength: long(20480), height: 512, width: 512, isAnimated: false } },
        { mediaType: 'sticker', mimeType: 'image/webp', fileLength: 20480, height: 512, width: 512 },
      ],
    ];

    it.each(cases)('describes %s, with the message id to download it by', async (_name, message, media) => {
      const calls = await harness.deliver({ 'messages.upsert': { type: 'notify', messages: [fromAna('3A5C0000000000MEDIA1', message)] } });

      expect(eventsIn(calls)).toEqual([
        {
          eventType: 'message',
          data: { id: '3A5C0000000000MEDIA1', ...BASE, type: 'media', media: { ...media, id: '3A5C0000000000MEDIA1' } },
        },
      ]);
    });
  });

  it('reports a location, a contact card and a list of contact cards', async () => {
    const vcard = 'BEGIN:VCARD\nVERSION:3.0\nFN:Jane Doe\nTEL;type=CELL;waid=19876543210:+1 987-654-3210\nEND:VCARD';
    const calls = await harness.deliver({
      'messages.upsert': {
        type: 'notify',
        messages: [
          fromAna('3A5C000000000000LOC1', {
            locationMessage: { degreesLatitude: -23.5505, degreesLongitude: -46.6333, name: 'Praça da Sé', address: 'Sé, São Paulo' },
          }),
          fromAna('3A5C000000000000VCF1', { contactMessage: { displayName: 'Jane Doe', vcard } }),
          fromAna('3A5C000000000000VCF2', {
            contactsArrayMessage: {
              displayName: '2 contacts',
              contacts: [
                { displayName: 'Jane Doe', vcard },
                { displayName: 'John', vcard: 'BEGIN:VCARD\nFN:John\nEND:VCARD' },
              ],
            },
          }),
        ],
      },
    });

    expect(eventsIn(calls).map((event) => event.data)).toEqual([
      {
        id: '3A5C000000000000LOC1',
        ...BASE,
        type: 'location',
        location: { latitude: -23.5505, longitude: -46.6333, name: 'Praça da Sé', address: 'Sé, São Paulo' },
      },
      { id: '3A5C000000000000VCF1', ...BASE, type: 'contact', contact: vcard },
      { id: '3A5C000000000000VCF2', ...BASE, type: 'contactArray', contactArray: [vcard, 'BEGIN:VCARD\nFN:John\nEND:VCARD'] },
    ]);
  });

  it('reports reactions (an empty emoji removes one) and pins with their duration', async () => {
    const target = { remoteJid: ANA.lid, fromMe: true, id: '3EB0F00DF00DF00DF00D' };
    const calls = await harness.deliver({
      'messages.upsert': {
        type: 'notify',
        messages: [
          fromAna('3A5C0000000000REACT1', { reactionMessage: { key: target, text: '👍', senderTimestampMs: long(1763800000123) } }),
          fromAna('3A5C0000000000REACT2', { reactionMessage: { key: target, text: '', senderTimestampMs: long(1763800001123) } }),
          fromAna('3A5C00000000000PIN01', {
            pinInChatMessage: { key: target, type: 1, senderTimestampMs: long(1763800002000) },
            messageContextInfo: { messageAddOnDurationInSecs: 86400 },
          }),
          fromAna('3A5C00000000000PIN02', { pinInChatMessage: { key: target, type: 2, senderTimestampMs: long(1763800003000) } }),
        ],
      },
    });

    expect(eventsIn(calls).map((event) => event.data)).toEqual([
      { id: '3A5C0000000000REACT1', ...BASE, type: 'reaction', reaction: { messageId: target.id, emoji: '👍' } },
      { id: '3A5C0000000000REACT2', ...BASE, type: 'reaction', reaction: { messageId: target.id, emoji: '' } },
      { id: '3A5C00000000000PIN01', ...BASE, type: 'pinInChat', pin: { pinned: true, messageId: target.id, expiration: '24h' } },
      { id: '3A5C00000000000PIN02', ...BASE, type: 'pinInChat', pin: { pinned: false, messageId: target.id } },
    ]);
  });

  it('unwraps disappearing and view-once messages', async () => {
    const calls = await harness.deliver({
      'messages.upsert': {
        type: 'notify',
        messages: [
          fromAna('3A5C000000000000EPH1', {
            ephemeralMessage: { message: { extendedTextMessage: { text: 'gone in a day', contextInfo: { expiration: 86400 } } } },
          }),
          fromAna('3A5C000000000000VO01', {
            viewOnceMessageV2: { message: { imageMessage: { mimetype: 'image/jpeg', fileLength: long(1000), viewOnce: true } } },
          }),
        ],
      },
    });

    expect(eventsIn(calls).map((event) => event.data)).toEqual([
      { id: '3A5C000000000000EPH1', ...BASE, type: 'text', text: 'gone in a day', ephemeralExpiration: '24h' },
      {
        id: '3A5C000000000000VO01',
        ...BASE,
        viewOnce: true,
        type: 'media',
        media: { mediaType: 'image', mimeType: 'image/jpeg', id: '3A5C000000000000VO01', fileLength: 1000 },
      },
    ]);
  });

  it('reports a status post as a status message of its author, with a Long timestamp', async () => {
    const calls = await harness.deliver({
      'messages.upsert': {
        type: 'notify',
        messages: [
          {
            key: { remoteJid: 'status@broadcast', fromMe: false, id: '3A5C00000000STATUS01', participant: ANA.lid, participantAlt: ANA.pn },
            messageTimestamp: long(1763800000),
            pushName: 'Ana',
            broadcast: true,
            message: { extendedTextMessage: { text: 'good morning', backgroundArgb: 4281545523, font: 1 } },
          },
        ],
      },
    });

    expect(eventsIn(calls)).toEqual([
      {
        eventType: 'message',
        data: { id: '3A5C00000000STATUS01', ...BASE, chatId: 'status@broadcast', isStatus: true, type: 'text', text: 'good morning' },
      },
    ]);
  });

  it('neither reports nor stores a stub, so the message that replaces it is reported under the same id', async () => {
    const stub = await harness.deliver({
      'messages.upsert': {
        type: 'notify',
        messages: [
          {
            key: { remoteJid: ANA.lid, remoteJidAlt: ANA.pn, fromMe: false, id: '3A5C0000000000CIPHER' },
            messageTimestamp: 1763800000,
            pushName: 'Ana',
            messageStubType: 2,
            messageStubParameters: ['No session record'],
          },
        ],
      },
    });
    const retried = await harness.deliver({
      'messages.upsert': { type: 'notify', messages: [fromAna('3A5C0000000000CIPHER', { conversation: 'decrypted at last' })] },
    });

    expect(eventsIn(stub)).toEqual([]);
    expect(eventsIn(retried)).toEqual([
      { eventType: 'message', data: { id: '3A5C0000000000CIPHER', ...BASE, type: 'text', text: 'decrypted at last' } },
    ]);
  });

  it('reports a message once when it arrives as notify and again as append', async () => {
    const message = fromAna('3A5C0000000000TWICE1', { conversation: 'once' });
    const first = await harness.deliver({ 'messages.upsert': { type: 'notify', messages: [message] } });
    const again = await harness.deliver({ 'messages.upsert': { type: 'append', messages: [structuredClone(message)] } });

    expect(eventsIn(first)).toHaveLength(1);
    expect(again).toEqual([{ learned: { contacts: [{ jid: ANA.pn, lid: ANA.lid }] } }]);
    expect(harness.store.ids()).toEqual(['3A5C0000000000TWICE1']);
  });

  it('reports a message from the offline queue (append) that was never seen', async () => {
    const calls = await harness.deliver({
      'messages.upsert': { type: 'append', messages: [fromAna('3A5C00000000OFFLINE1', { conversation: 'while you were away' })] },
    });

    expect(eventsIn(calls)).toEqual([
      { eventType: 'message', data: { id: '3A5C00000000OFFLINE1', ...BASE, type: 'text', text: 'while you were away' } },
    ]);
  });

  it("stores the gateway's own echoed send without reporting it, but reports what the phone sent, as this account", async () => {
    harness.sent.add('3EB0AAAAAAAAAAAAAAAA');
    const own = (id: string): WAMessage => ({
      key: { remoteJid: ANA.lid, remoteJidAlt: SELF.pn, fromMe: true, id },
      messageTimestamp: 1763800000,
      message: { extendedTextMessage: { text: 'from me' } },
      status: 2,
    });
    const calls = await harness.deliver({
      'messages.upsert': { type: 'append', messages: [own('3EB0AAAAAAAAAAAAAAAA'), own('3AF1BBBBBBBBBBBBBBBB')] },
    });

    expect(calls).toEqual([
      {
        event: {
          eventType: 'message',
          data: { id: '3AF1BBBBBBBBBBBBBBBB', ...BASE, chatId: ANA.lid, sender: ME, type: 'text', text: 'from me' },
        },
      },
    ]);
    expect(harness.store.ids()).toEqual(['3EB0AAAAAAAAAAAAAAAA', '3AF1BBBBBBBBBBBBBBBB']);
  });

  it("reports a receipt Baileys folded into the gateway's own echoed send", async () => {
    harness.sent.add('3EB0CCCCCCCCCCCCCCCC');
    const calls = await harness.deliver({
      'messages.upsert': {
        type: 'append',
        messages: [
          {
            key: { remoteJid: ANA.pn, fromMe: true, id: '3EB0CCCCCCCCCCCCCCCC' },
            messageTimestamp: 1763800060,
            message: { conversation: 'quick' },
            status: 3,
          },
        ],
      },
    });

    expect(calls).toEqual([
      {
        event: {
          eventType: 'message_read',
          data: {
            chatId: ANA.pn,
            sender: { id: ANA.pn, phone: ANA.phone, isMe: false },
            messageSender: ME,
            isGroup: false,
            messageIds: ['3EB0CCCCCCCCCCCCCCCC'],
            time: '2025-11-22T08:27:40.000Z',
            receiptType: 'delivered',
          },
        },
      },
    ]);
  });

  it('reports receipts folded into an own message the sender had already stored, without reporting the message', async () => {
    await harness.store.save(INSTANCE_ID, [
      { id: '3EB0DDDDDDDDDDDDDDDD', chatJid: GROUP, fromMe: true, senderJid: null, sentAt: new Date(1763800000000), data: '{}' },
    ]);
    const calls = await harness.deliver({
      'messages.upsert': {
        type: 'append',
        messages: [
          {
            key: { remoteJid: GROUP, fromMe: true, id: '3EB0DDDDDDDDDDDDDDDD', participant: SELF.lid },
            messageTimestamp: 1763800000,
            message: { conversation: 'hello all' },
            status: 2,
            userReceipt: [
              { userJid: BOB.lid, receiptTimestamp: long(1763800060) },
              { userJid: ANA.lid, readTimestamp: long(1763800120) },
            ],
          },
        ],
      },
    });

    const read = (reader: object, time: string, receiptType: string) => ({
      eventType: 'message_read',
      data: { chatId: GROUP, sender: reader, messageSender: ME, isGroup: true, messageIds: ['3EB0DDDDDDDDDDDDDDDD'], time, receiptType },
    });
    expect(eventsIn(calls)).toEqual([
      read({ id: BOB.lid, lid: BOB.lid, isMe: false }, '2025-11-22T08:27:40.000Z', 'delivered'),
      read({ id: ANA.lid, lid: ANA.lid, isMe: false }, '2025-11-22T08:28:40.000Z', 'read'),
    ]);
  });

  it('learns a verified business name with the push name', async () => {
    const calls = await harness.deliver({
      'messages.upsert': {
        type: 'notify',
        messages: [fromAna('3A5C000000000000BIZ1', { conversation: 'Your order shipped' }, { verifiedBizName: 'Ana Store' })],
      },
    });

    expect(calls[1]).toEqual({ learned: { contacts: [{ jid: ANA.pn, lid: ANA.lid, pushName: 'Ana', businessName: 'Ana Store' }] } });
  });

  it('reports an edit (protocolMessage inside editedMessage) with the original id and time', async () => {
    await harness.deliver({ 'messages.upsert': { type: 'notify', messages: [fromAna('3A5C000000000ORIGINL', { conversation: 'helo' })] } });
    const calls = await harness.deliver({
      'messages.upsert': {
        type: 'notify',
        messages: [
          fromAna(
            '3A5C0000000000EDIT01',
            {
              editedMessage: {
                message: {
                  protocolMessage: {
                    key: { remoteJid: SELF.lid, fromMe: true, id: '3A5C000000000ORIGINL' },
                    type: 14,
                    editedMessage: { conversation: 'hello' },
                    timestampMs: long(1763800120456),
                  },
                },
              },
            },
            { messageTimestamp: 1763800120 },
          ),
        ],
      },
    });

    expect(eventsIn(calls)).toEqual([
      {
        eventType: 'message',
        data: {
          id: '3A5C0000000000EDIT01',
          ...BASE,
          time: '2025-11-22T08:28:40.456Z',
          type: 'text',
          text: 'hello',
          isEdit: true,
          edit: { originalMessageId: '3A5C000000000ORIGINL', originalMessageTime: '2025-11-22T08:26:40.000Z' },
        },
      },
    ]);
  });

  it('reports a delete for everyone by its author, and an admin deleting a member message', async () => {
    const calls = await harness.deliver({
      'messages.upsert': {
        type: 'notify',
        messages: [
          fromAna('3A5C00000000REVOKE1', {
            protocolMessage: { key: { remoteJid: SELF.lid, fromMe: true, id: '3A5C0000000000GONE01' }, type: 0 },
          }),
          fromBobInGroup('3EB0000000000REVOKE2', {
            protocolMessage: { key: { remoteJid: GROUP, fromMe: false, id: '3A5C0000000000GONE02', participant: ANA.lid }, type: 0 },
          }),
        ],
      },
    });

    expect(eventsIn(calls)).toEqual([
      {
        eventType: 'message_delete',
        data: {
          id: '3A5C0000000000GONE01',
          sender: senderOf(ANA),
          chatId: ANA.pn,
          time: BASE.time,
          isDeletedForAll: true,
          isDeletedForMe: false,
          isStatus: false,
        },
      },
      {
        eventType: 'message_delete',
        data: {
          id: '3A5C0000000000GONE02',
          // Ana's own message earlier in the batch told her phone number.
          sender: senderOf(ANA),
          chatId: GROUP,
          time: '2025-11-22T08:27:40.000Z',
          isDeletedForAll: true,
          isDeletedForMe: false,
          isStatus: false,
        },
      },
    ]);
  });

  it('reports a disappearing-message timer set by a member as a chat setting', async () => {
    const calls = await harness.deliver({
      'messages.upsert': {
        type: 'notify',
        messages: [fromBobInGroup('3EB00000000000EPHSET', { protocolMessage: { type: 3, ephemeralExpiration: 7776000 } })],
      },
    });

    expect(eventsIn(calls)).toEqual([
      { eventType: 'chat_setting', data: { id: GROUP, settingType: 'ephemeral', ephemeral: { expiration: '90d', sender: senderOf(BOB) } } },
    ]);
  });

  it('neither stores nor reports device traffic such as a history-sync notification', async () => {
    const calls = await harness.deliver({
      'messages.upsert': {
        type: 'notify',
        messages: [
          {
            key: { remoteJid: SELF.pn, fromMe: true, id: '3A5C00000000HISTSYNC' },
            messageTimestamp: 1763800000,
            message: { protocolMessage: { type: 5, historySyncNotification: { syncType: 3, chunkOrder: 1, progress: 40 } } },
          },
        ],
      },
    });

    expect(calls).toEqual([]);
    expect(harness.store.ids()).toEqual([]);
  });

  it('does not report content the contract has no kind for, but keeps it', async () => {
    const calls = await harness.deliver({
      'messages.upsert': {
        type: 'notify',
        messages: [
          fromAna('3A5C0000000000POLL01', {
            pollCreationMessage: { name: 'Lunch?', options: [{ optionName: 'Yes' }], selectableOptionsCount: 1 },
          }),
        ],
      },
    });

    expect(eventsIn(calls)).toEqual([]);
    expect(harness.store.ids()).toEqual(['3A5C0000000000POLL01']);
  });

  it('names the people of one batch consistently, the self included', async () => {
    const calls = await harness.deliver({
      'messages.upsert': {
        type: 'notify',
        messages: [
          {
            key: { remoteJid: GROUP, fromMe: true, id: '3AF1000000000000SELF', participant: SELF.lid, participantAlt: SELF.pn },
            messageTimestamp: 1763800000,
            message: { conversation: 'sent from the phone' },
          },
        ],
      },
    });

    expect(eventsIn(calls)).toEqual([
      {
        eventType: 'message',
        data: { id: '3AF1000000000000SELF', ...BASE, chatId: GROUP, isGroup: true, sender: ME, type: 'text', text: 'sent from the phone' },
      },
    ]);
    expect(identityOf(SELF)).toEqual({ id: ME.id, lid: ME.lid, phone: ME.phone });
  });
});
