import Long from 'long';
import { PermanentSendError, type OutboundMessage } from '@app/contracts';
import { RecentIds } from '../inbound/recent-ids';
import { BaileysSender } from './baileys-sender';
import { MemoryNetworkMessages } from '../testing/kit';
import type { FakeSocket } from '../testing/socket';
import { CONTACT, GROUP, SELF, SELF_LID, fakeContext, fakeSocket, networkMessage } from '../testing/outbound';

const ME = { id: SELF, lid: SELF_LID, phone: '447700900123', isMe: true };
const TIME = '2025-05-19T00:51:44.000Z';

describe('BaileysSender: new messages', () => {
  let socket: FakeSocket;
  let store: MemoryNetworkMessages;
  const sender = new BaileysSender({ interactiveTextFallback: 'after' });
  const send = (message: OutboundMessage) => sender.send(fakeContext(socket, store), message);

  beforeEach(() => {
    socket = fakeSocket();
    store = new MemoryNetworkMessages();
  });

  it('registers the id as its own before the socket sees it, so the echo of the send is not reported again', async () => {
    const context = { ...fakeContext(socket, store), sent: new RecentIds() };
    socket.sendMessage.mockImplementationOnce(() => {
      expect(context.sent.has('3EB0BBBBBBBBBBBBBBBBBB')).toBe(true);
      return Promise.resolve(networkMessage(CONTACT, '3EB0BBBBBBBBBBBBBBBBBB', { extendedTextMessage: { text: 'hi' } }));
    });
    await sender.send(context, { id: '3EB0BBBBBBBBBBBBBBBBBB', kind: 'text', chatJid: CONTACT, payload: { text: 'hi' } });
    expect(socket.sendMessage).toHaveBeenCalledTimes(1);
  });

  describe('text', () => {
    it('sends the text under our id, without fetching a link preview, and reports the network copy', async () => {
      const sent = networkMessage(CONTACT, '3EB0AAAAAAAAAAAAAAAAAA', { extendedTextMessage: { text: 'Hello https://example.com' } });
      socket.sendMessage.mockResolvedValueOnce(sent);

      const result = await send({
        id: '3EB0AAAAAAAAAAAAAAAAAA',
        kind: 'text',
        chatJid: CONTACT,
        payload: { text: 'Hello https://example.com' },
      });

      expect(socket.sendMessage.mock.calls).toEqual([
        [CONTACT, { text: 'Hello https://example.com', linkPreview: null }, { messageId: '3EB0AAAAAAAAAAAAAAAAAA' }],
      ]);
      expect(result).toEqual({
        ownMessage: {
          eventType: 'message',
          data: {
            id: '3EB0AAAAAAAAAAAAAAAAAA',
            time: TIME,
            chatId: CONTACT,
            sender: ME,
            isGroup: false,
            isStatus: false,
            type: 'text',
            text: 'Hello https://example.com',
          },
        },
      });
      expect(store.saved()).toEqual([sent]);
    });

    it('mentions, quotes the kept message, marks it forwarded and sets the timer', async () => {
      const original = {
        key: { remoteJid: GROUP, fromMe: false, id: '3EB0QUOTED000000000000', participant: '123456789012345@lid', participantAlt: CONTACT },
        message: { conversation: 'Lunch?' },
        messageTimestamp: 1_747_615_000,
        pushName: 'Jane',
      };
      store.keep(original);
      socket.sendMessage.mockResolvedValueOnce(
        networkMessage(GROUP, '3EB0BBBBBBBBBBBBBBBBBB', {
          extendedTextMessage: {
            text: 'Yes @14155550123',
            contextInfo: {
              mentionedJid: [CONTACT],
              isForwarded: true,
              forwardingScore: 1,
              participant: '123456789012345@lid',
              stanzaId: '3EB0QUOTED000000000000',
              quotedMessage: { conversation: 'Lunch?' },
              expiration: 604_800,
            },
          },
        }),
      );

      const result = await send({
        id: '3EB0BBBBBBBBBBBBBBBBBB',
        kind: 'text',
        chatJid: GROUP,
        payload: {
          text: 'Yes @14155550123',
          mentions: [CONTACT],
          replyTo: '3EB0QUOTED000000000000',
          replyToSenderId: CONTACT,
          isForwarded: true,
          ephemeralExpiration: 604_800,
        },
      });

      expect(socket.sendMessage.mock.calls).toEqual([
        [
          GROUP,
          { text: 'Yes @14155550123', linkPreview: null, mentions: [CONTACT], contextInfo: { isForwarded: true, forwardingScore: 1 } },
          { messageId: '3EB0BBBBBBBBBBBBBBBBBB', quoted: original, ephemeralExpiration: 604_800 },
        ],
      ]);
      expect(result.ownMessage?.data).toEqual({
        id: '3EB0BBBBBBBBBBBBBBBBBB',
        time: TIME,
        chatId: GROUP,
        sender: ME,
        isGroup: true,
        isStatus: false,
        isForwarded: true,
        type: 'text',
        text: 'Yes @14155550123',
        mentions: [CONTACT],
        replyTo: {
          id: '3EB0QUOTED000000000000',
          sender: { id: '123456789012345@lid', lid: '123456789012345@lid', isMe: false },
          text: 'Lunch?',
        },
        ephemeralExpiration: '7d',
      });
    });

    it('quotes one of our own messages as ours', async () => {
      store.keep(networkMessage(CONTACT, '3EB0OWN000000000000000', { extendedTextMessage: { text: 'Earlier' } }, 1_747_615_000));
      socket.sendMessage.mockResolvedValueOnce(
        networkMessage(CONTACT, '3EB0CCCCCCCCCCCCCCCCCC', {
          extendedTextMessage: {
            text: 'And now',
            contextInfo: {
              participant: SELF,
              stanzaId: '3EB0OWN000000000000000',
              quotedMessage: { extendedTextMessage: { text: 'Earlier' } },
            },
          },
        }),
      );

      const result = await send({
        id: '3EB0CCCCCCCCCCCCCCCCCC',
        kind: 'text',
        chatJid: CONTACT,
        payload: { text: 'And now', replyTo: '3EB0OWN000000000000000' },
      });

      expect(socket.sendMessage.mock.calls[0][2]).toEqual({ messageId: '3EB0CCCCCCCCCCCCCCCCCC', quoted: store.saved()[0] });
      expect(result.ownMessage?.data.replyTo).toEqual({
        id: '3EB0OWN000000000000000',
        sender: { id: SELF, phone: '447700900123', isMe: true },
        text: 'Earlier',
      });
    });

    it('sends a reply without the quote when the quoted message is no longer kept', async () => {
      socket.sendMessage.mockResolvedValueOnce(networkMessage(CONTACT, '3EB0DDDDDDDDDDDDDDDDDD', { extendedTextMessage: { text: 'Re' } }));

      const result = await send({
        id: '3EB0DDDDDDDDDDDDDDDDDD',
        kind: 'text',
        chatJid: CONTACT,
        payload: { text: 'Re', replyTo: '3EB0GONE00000000000000' },
      });

      expect(socket.sendMessage.mock.calls).toEqual([
        [CONTACT, { text: 'Re', linkPreview: null }, { messageId: '3EB0DDDDDDDDDDDDDDDDDD' }],
      ]);
      expect(result.ownMessage?.data.replyTo).toBeUndefined();
    });

    it('refuses a chat that is not a JID, without touching the socket', async () => {
      await expect(
        send({ id: '3EB0EEEEEEEEEEEEEEEEEE', kind: 'text', chatJid: 'not-a-jid', payload: { text: 'x' } }),
      ).rejects.toBeInstanceOf(PermanentSendError);
      expect(socket.sendMessage).not.toHaveBeenCalled();
    });
  });

  describe('link', () => {
    it('sends a ready-made preview and adds the URL the text leaves out', async () => {
      const thumbnail = Buffer.from('jpeg-bytes');
      socket.sendMessage.mockResolvedValueOnce(
        networkMessage(CONTACT, '3EB0LINK00000000000000', {
          extendedTextMessage: {
            text: 'Worth a read\nhttps://example.com/article',
            matchedText: 'https://example.com/article',
            title: 'An article',
            description: 'About things',
            jpegThumbnail: thumbnail,
            previewType: 0,
          },
        }),
      );

      const result = await send({
        id: '3EB0LINK00000000000000',
        kind: 'link',
        chatJid: CONTACT,
        payload: {
          text: 'Worth a read',
          url: 'https://example.com/article',
          title: 'An article',
          description: 'About things',
          jpegThumbnail: thumbnail.toString('base64'),
        },
      });

      expect(socket.sendMessage.mock.calls).toEqual([
        [
          CONTACT,
          {
            text: 'Worth a read\nhttps://example.com/article',
            linkPreview: {
              'canonical-url': 'https://example.com/article',
              'matched-text': 'https://example.com/article',
              title: 'An article',
              description: 'About things',
              jpegThumbnail: thumbnail,
            },
          },
          { messageId: '3EB0LINK00000000000000' },
        ],
      ]);
      expect(result.ownMessage?.data).toMatchObject({
        type: 'text',
        text: 'Worth a read\nhttps://example.com/article',
        extendedText: {
          matchedText: 'https://example.com/article',
          title: 'An article',
          description: 'About things',
          jpegThumbnail: thumbnail.toString('base64'),
        },
      });
    });

    it('keeps a text that already contains the URL as it is', async () => {
      socket.sendMessage.mockResolvedValueOnce(
        networkMessage(CONTACT, '3EB0LINK00000000000001', { extendedTextMessage: { text: 'See https://example.com' } }),
      );

      await send({
        id: '3EB0LINK00000000000001',
        kind: 'link',
        chatJid: CONTACT,
        payload: { text: 'See https://example.com', url: 'https://example.com' },
      });

      expect(socket.sendMessage.mock.calls[0][1]).toEqual({
        text: 'See https://example.com',
        linkPreview: { 'canonical-url': 'https://example.com', 'matched-text': 'https://example.com', title: '' },
      });
    });
  });

  describe('media', () => {
    const bytes = Buffer.from('file-bytes');
    const stored = { blobId: 'blob_1', mimeType: 'image/png', size: 10, sha256: 'ab' };

    it('sends an image with caption and view-once from the resolved bytes', async () => {
      socket.sendMessage.mockResolvedValueOnce(
        networkMessage(CONTACT, '3EB0IMG000000000000000', {
          viewOnceMessage: {
            message: {
              imageMessage: {
                url: 'https://mmg.whatsapp.net/o1/v/t62.7118-24/f1/m231/abc.enc',
                mimetype: 'image/png',
                caption: 'Look',
                fileSha256: Buffer.alloc(32, 1),
                fileLength: Long.fromNumber(10, true),
                height: 640,
                width: 480,
                mediaKey: Buffer.alloc(32, 2),
                viewOnce: true,
              },
            },
          },
        }),
      );

      const result = await send({
        id: '3EB0IMG000000000000000',
        kind: 'image',
        chatJid: CONTACT,
        payload: { media: stored, caption: 'Look', viewOnce: true },
        media: { data: bytes, mimeType: 'image/png' },
      });

      expect(socket.sendMessage.mock.calls).toEqual([
        [CONTACT, { image: bytes, mimetype: 'image/png', caption: 'Look', viewOnce: true }, { messageId: '3EB0IMG000000000000000' }],
      ]);
      expect(result.ownMessage?.data).toEqual({
        id: '3EB0IMG000000000000000',
        time: TIME,
        chatId: CONTACT,
        sender: ME,
        isGroup: false,
        isStatus: false,
        viewOnce: true,
        type: 'media',
        media: {
          mediaType: 'image',
          mimeType: 'image/png',
          id: '3EB0IMG000000000000000',
          fileLength: 10,
          caption: 'Look',
          height: 640,
          width: 480,
        },
      });
    });

    it('sends a video with caption and mentions', async () => {
      socket.sendMessage.mockResolvedValueOnce(
        networkMessage(CONTACT, '3EB0VID000000000000000', { videoMessage: { mimetype: 'video/mp4', seconds: 12 } }),
      );

      await send({
        id: '3EB0VID000000000000000',
        kind: 'video',
        chatJid: CONTACT,
        payload: { media: stored, caption: 'Clip', mentions: [CONTACT] },
        media: { data: bytes, mimeType: 'video/mp4' },
      });

      expect(socket.sendMessage.mock.calls[0]).toEqual([
        CONTACT,
        { video: bytes, mimetype: 'video/mp4', caption: 'Clip', mentions: [CONTACT] },
        { messageId: '3EB0VID000000000000000' },
      ]);
    });

    it('sends audio as an audio file and a voice note as push-to-talk', async () => {
      socket.sendMessage
        .mockResolvedValueOnce(networkMessage(CONTACT, '3EB0AUD000000000000000', { audioMessage: { mimetype: 'audio/mpeg', seconds: 30 } }))
        .mockResolvedValueOnce(
          networkMessage(CONTACT, '3EB0PTT000000000000000', {
            audioMessage: { mimetype: 'audio/ogg; codecs=opus', seconds: 4, ptt: true },
          }),
        );

      const audio = await send({
        id: '3EB0AUD000000000000000',
        kind: 'audio',
        chatJid: CONTACT,
        payload: { media: stored },
        media: { data: bytes, mimeType: 'audio/mpeg' },
      });
      const voice = await send({
        id: '3EB0PTT000000000000000',
        kind: 'voice',
        chatJid: CONTACT,
        payload: { media: stored, viewOnce: true },
        media: { data: bytes, mimeType: 'audio/ogg; codecs=opus' },
      });

      expect(socket.sendMessage.mock.calls).toEqual([
        [CONTACT, { audio: bytes, mimetype: 'audio/mpeg' }, { messageId: '3EB0AUD000000000000000' }],
        [CONTACT, { audio: bytes, mimetype: 'audio/ogg; codecs=opus', ptt: true, viewOnce: true }, { messageId: '3EB0PTT000000000000000' }],
      ]);
      expect(audio.ownMessage?.data.media).toEqual({
        mediaType: 'audio',
        mimeType: 'audio/mpeg',
        id: '3EB0AUD000000000000000',
        duration: 30,
      });
      expect(voice.ownMessage?.data.media).toEqual({
        mediaType: 'voice',
        mimeType: 'audio/ogg; codecs=opus',
        id: '3EB0PTT000000000000000',
        duration: 4,
      });
    });

    it('sends a document under its file name, forwarded', async () => {
      socket.sendMessage.mockResolvedValueOnce(
        networkMessage(CONTACT, '3EB0DOC000000000000000', {
          documentMessage: {
            mimetype: 'application/pdf',
            fileName: 'report.pdf',
            caption: 'Q1',
            pageCount: 3,
            contextInfo: { isForwarded: true, forwardingScore: 1 },
          },
        }),
      );

      const result = await send({
        id: '3EB0DOC000000000000000',
        kind: 'document',
        chatJid: CONTACT,
        payload: { media: stored, filename: 'report.pdf', caption: 'Q1', isForwarded: true },
        media: { data: bytes, mimeType: 'application/pdf' },
      });

      expect(socket.sendMessage.mock.calls[0]).toEqual([
        CONTACT,
        {
          document: bytes,
          mimetype: 'application/pdf',
          fileName: 'report.pdf',
          caption: 'Q1',
          contextInfo: { isForwarded: true, forwardingScore: 1 },
        },
        { messageId: '3EB0DOC000000000000000' },
      ]);
      expect(result.ownMessage?.data).toMatchObject({
        isForwarded: true,
        type: 'media',
        media: { mediaType: 'document', mimeType: 'application/pdf', filename: 'report.pdf', caption: 'Q1', pageCount: 3 },
      });
    });

    it('sends an animated sticker', async () => {
      socket.sendMessage.mockResolvedValueOnce(
        networkMessage(CONTACT, '3EB0STK000000000000000', { stickerMessage: { mimetype: 'image/webp', isAnimated: true } }),
      );

      const result = await send({
        id: '3EB0STK000000000000000',
        kind: 'sticker',
        chatJid: CONTACT,
        payload: { media: stored, isAnimated: true },
        media: { data: bytes, mimeType: 'image/webp' },
      });

      expect(socket.sendMessage.mock.calls[0]).toEqual([
        CONTACT,
        { sticker: bytes, mimetype: 'image/webp', isAnimated: true },
        { messageId: '3EB0STK000000000000000' },
      ]);
      expect(result.ownMessage?.data.media).toEqual({ mediaType: 'sticker', mimeType: 'image/webp', id: '3EB0STK000000000000000' });
    });

    it('fails for good when the media content was not resolved', async () => {
      await expect(send({ id: '3EB0IMG000000000000001', kind: 'image', chatJid: CONTACT, payload: { media: stored } })).rejects.toThrow(
        new PermanentSendError('the image message 3EB0IMG000000000000001 has no media content'),
      );
      expect(socket.sendMessage).not.toHaveBeenCalled();
    });
  });

  describe('location and contact', () => {
    it('sends a location with its place details and timer', async () => {
      socket.sendMessage.mockResolvedValueOnce(
        networkMessage(CONTACT, '3EB0LOC000000000000000', {
          locationMessage: {
            degreesLatitude: 51.5007,
            degreesLongitude: -0.1246,
            name: 'Big Ben',
            address: 'London SW1A 0AA',
            contextInfo: { expiration: 86_400 },
          },
        }),
      );

      const result = await send({
        id: '3EB0LOC000000000000000',
        kind: 'location',
        chatJid: CONTACT,
        payload: { latitude: 51.5007, longitude: -0.1246, name: 'Big Ben', address: 'London SW1A 0AA', ephemeralExpiration: 86_400 },
      });

      expect(socket.sendMessage.mock.calls).toEqual([
        [
          CONTACT,
          { location: { degreesLatitude: 51.5007, degreesLongitude: -0.1246, name: 'Big Ben', address: 'London SW1A 0AA' } },
          { messageId: '3EB0LOC000000000000000', ephemeralExpiration: 86_400 },
        ],
      ]);
      expect(result.ownMessage?.data).toMatchObject({
        type: 'location',
        location: { latitude: 51.5007, longitude: -0.1246, name: 'Big Ben', address: 'London SW1A 0AA' },
        ephemeralExpiration: '24h',
      });
    });

    it('sends a given vCard as it is, labelled with its display name', async () => {
      const vcard = 'BEGIN:VCARD\nVERSION:3.0\nFN:Jane Doe\nTEL;type=CELL;waid=14155550123:+1 415 555 0123\nEND:VCARD';
      socket.sendMessage.mockResolvedValueOnce(
        networkMessage(CONTACT, '3EB0VCF000000000000000', { contactMessage: { displayName: 'Jane Doe', vcard } }),
      );

      const result = await send({ id: '3EB0VCF000000000000000', kind: 'contact', chatJid: CONTACT, payload: { vcard } });

      expect(socket.sendMessage.mock.calls[0]).toEqual([
        CONTACT,
        { contacts: { displayName: 'Jane Doe', contacts: [{ displayName: 'Jane Doe', vcard }] } },
        { messageId: '3EB0VCF000000000000000' },
      ]);
      expect(result.ownMessage?.data).toMatchObject({ type: 'contact', contact: vcard });
    });

    it('labels a given vCard with its unescaped formatted name', async () => {
      const vcard = 'BEGIN:VCARD\r\nVERSION:3.0\r\nFN;CHARSET=UTF-8:Doe\\, Jane\r\nEND:VCARD';
      socket.sendMessage.mockResolvedValueOnce(
        networkMessage(CONTACT, '3EB0VCF000000000000002', { contactMessage: { displayName: 'Doe, Jane', vcard } }),
      );

      await send({ id: '3EB0VCF000000000000002', kind: 'contact', chatJid: CONTACT, payload: { vcard } });

      expect(socket.sendMessage.mock.calls[0][1]).toEqual({
        contacts: { displayName: 'Doe, Jane', contacts: [{ displayName: 'Doe, Jane', vcard }] },
      });
    });

    it('writes the vCard for a contact given by display name only', async () => {
      socket.sendMessage.mockResolvedValueOnce(
        networkMessage(CONTACT, '3EB0VCF000000000000001', { contactMessage: { displayName: 'Doe, Jane' } }),
      );

      await send({ id: '3EB0VCF000000000000001', kind: 'contact', chatJid: CONTACT, payload: { displayName: 'Doe, Jane' } });

      const vcard = 'BEGIN:VCARD\nVERSION:3.0\nFN:Doe\\, Jane\nEND:VCARD';
      expect(socket.sendMessage.mock.calls[0][1]).toEqual({
        contacts: { displayName: 'Doe, Jane', contacts: [{ displayName: 'Doe, Jane', vcard }] },
      });
    });
  });
});
