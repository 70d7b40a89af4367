import { AppError } from '@app/contracts';
import type { WAMessage } from '../baileys-library';
import { asReceived, proto } from '../testing/rc14';
import { boom } from '../testing/kit';
import { buildOperations, fakeContext, storedMessage } from '../testing/operations';
import { REUPLOAD_TIMEOUT_MS } from './media-operations';

const CHAT = '447700900200@s.whatsapp.net';
const MEDIA_KEY = Buffer.from('0123456789abcdef0123456789abcdef');

const imageMessage = {
  imageMessage: {
    url: 'https://mmg.whatsapp.net/o1/v/t62.7118-24/f1/m231/up-oil-image.enc?ccb=9-4',
    mimetype: 'image/jpeg',
    fileSha256: Buffer.from('sha'),
    fileLength: 4,
    height: 1280,
    width: 960,
    mediaKey: MEDIA_KEY,
    fileEncSha256: Buffer.from('enc'),
    directPath: '/o1/v/t62.7118-24/f1/m231/up-oil-image.enc?ccb=9-4',
    mediaKeyTimestamp: 1_790_000_000,
  },
};

const documentMessage = {
  documentMessage: { url: 'https://mmg.whatsapp.net/d', mimetype: 'application/pdf', fileName: 'menu.pdf', mediaKey: MEDIA_KEY },
};

/** Baileys' `assertMediaContent` as it behaves: the media part of the message, or a 400 for anything else. */
function assertMediaContent(message: Record<string, unknown> | undefined) {
  const content = message?.imageMessage ?? message?.documentMessage;
  if (!content) throw boom('given message is not a media message', { statusCode: 400 });
  return content;
}

describe('Baileys media operations', () => {
  it('downloads the file of a stored message, re-requesting expired files from the sender', async () => {
    const downloadMediaMessage = jest.fn().mockResolvedValue(Buffer.from('JPEG'));
    const updateMediaMessage = jest.fn();
    const messages = [storedMessage({ id: '3A1B2C', chatJid: CHAT, sentAt: new Date(1_790_000_000_000), message: imageMessage })];
    const context = fakeContext({ socket: { updateMediaMessage }, lib: { downloadMediaMessage, assertMediaContent, proto }, messages });
    await expect(buildOperations().perform(context, 'media.download', { mediaId: '3A1B2C' })).resolves.toEqual({
      mimeType: 'image/jpeg',
      data: Buffer.from('JPEG').toString('base64'),
    });
    const [[message, type, options, ctx]] = downloadMediaMessage.mock.calls as [
      [{ key: unknown; message: typeof imageMessage }, string, unknown, { reuploadRequest: unknown }],
    ];
    expect(message.key).toEqual({ remoteJid: CHAT, fromMe: false, id: '3A1B2C' });
    // The stored JSON comes back with its binary fields as Buffers, as Baileys needs them to decrypt.
    expect(Buffer.isBuffer(message.message.imageMessage.mediaKey)).toBe(true);
    expect(message.message.imageMessage.mediaKey).toEqual(MEDIA_KEY);
    expect([type, options]).toEqual(['buffer', {}]);
    expect(ctx.reuploadRequest).toEqual(expect.any(Function));
  });

  it('answers a document with its file name', async () => {
    const downloadMediaMessage = jest.fn().mockResolvedValue(Buffer.from('%PDF'));
    const messages = [storedMessage({ id: 'DOC1', chatJid: CHAT, sentAt: new Date(), message: documentMessage })];
    const context = fakeContext({
      socket: { updateMediaMessage: jest.fn() },
      lib: { downloadMediaMessage, assertMediaContent, proto },
      messages,
    });
    await expect(buildOperations().perform(context, 'media.download', { mediaId: 'DOC1' })).resolves.toEqual({
      mimeType: 'application/pdf',
      data: Buffer.from('%PDF').toString('base64'),
      filename: 'menu.pdf',
    });
  });

  it('is not_found for a message never stored, one without a file, and a file gone from the media servers', async () => {
    const downloadMediaMessage = jest.fn().mockRejectedValue(boom('Failed to fetch stream', { statusCode: 410 }));
    const messages = [
      storedMessage({ id: 'TEXT', chatJid: CHAT, sentAt: new Date(), message: { conversation: 'hi' } }),
      storedMessage({ id: 'IMG', chatJid: CHAT, sentAt: new Date(), message: imageMessage }),
    ];
    const context = fakeContext({
      socket: { updateMediaMessage: jest.fn() },
      lib: { downloadMediaMessage, assertMediaContent, proto },
      messages,
    });
    for (const mediaId of ['NOPE', 'TEXT', 'IMG'])
      await expect(buildOperations().perform(context, 'media.download', { mediaId })).rejects.toEqual(new AppError('not_found'));
    expect(downloadMediaMessage).toHaveBeenCalledTimes(1);
  });

  /**
   * rc14 decodes a received message's content into a protobuf object; kept as JSON, its bytes are base64 strings.
   * `downloadMediaMessage` (rc14 `Utils/messages.js`) asks the sender's phone for an expired file (HTTP 404/410) with
   * `reuploadRequest(message)`, and the socket's `updateMediaMessage` derives the request's key from `mediaKey`.
   */
  describe('an expired file of a message as rc14 keeps it', () => {
    const received = asReceived({
      key: { remoteJid: CHAT, fromMe: false, id: '3A1EXPIRED' },
      message: imageMessage,
      messageTimestamp: 1_790_000_000,
    });
    const messages = [storedMessage({ id: '3A1EXPIRED', chatJid: CHAT, sentAt: new Date(1_790_000_000_000), message: received.message })];
    /** rc14's `downloadMediaMessage`: the media server answers 410, the phone is asked, then the new URL is fetched. */
    const downloadMediaMessage = jest.fn(
      async (message: WAMessage, _type: string, _options: unknown, ctx: { reuploadRequest: (m: WAMessage) => Promise<WAMessage> }) => {
        await ctx.reuploadRequest(message);
        return Buffer.from('JPEG');
      },
    );

    it('asks for the re-upload with the mediaKey bytes, not their base64 text', async () => {
      // The stored JSON really holds the key as text: what a revival without the protobuf class would hand over.
      expect(JSON.parse(messages[0].data).message.imageMessage.mediaKey).toBe(MEDIA_KEY.toString('base64'));
      const updateMediaMessage = jest.fn((message: WAMessage) => Promise.resolve(message));
      const context = fakeContext({ socket: { updateMediaMessage }, lib: { downloadMediaMessage, assertMediaContent, proto }, messages });
      await expect(buildOperations().perform(context, 'media.download', { mediaId: '3A1EXPIRED' })).resolves.toEqual({
        mimeType: 'image/jpeg',
        data: Buffer.from('JPEG').toString('base64'),
      });
      const [[asked]] = updateMediaMessage.mock.calls;
      const mediaKey = asked.message?.imageMessage?.mediaKey;
      expect(mediaKey).toBeInstanceOf(Uint8Array);
      expect(Buffer.from(mediaKey as Uint8Array)).toEqual(MEDIA_KEY);
    });

    it('is not_found when the phone does not answer the re-upload request in time', async () => {
      jest.useFakeTimers();
      try {
        // rc14 waits for the phone's `messages.media-update` without a limit; an offline phone never sends one.
        const updateMediaMessage = jest.fn(() => new Promise<WAMessage>(() => undefined));
        const context = fakeContext({ socket: { updateMediaMessage }, lib: { downloadMediaMessage, assertMediaContent, proto }, messages });
        const outcome = buildOperations()
          .perform(context, 'media.download', { mediaId: '3A1EXPIRED' })
          .then(
            () => 'downloaded',
            (error: unknown) => error,
          );
        await jest.advanceTimersByTimeAsync(REUPLOAD_TIMEOUT_MS);
        expect(await Promise.race([outcome, Promise.resolve('still waiting')])).toEqual(new AppError('not_found'));
      } finally {
        jest.useRealTimers();
      }
    });
  });
});
