import { AppError } from '@app/contracts';
import type { WAMessage } from '../baileys-library';
import { asReceived, proto } from '../testing/rc14';
import { boom } from '../testing/kit';
import { buildOperations, fakeContext, storedMessage } from '../testing/operations';
import { REUPLOAD_TIMEOUT_MS } from './baileys-media-operations';

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
  it('downloads the file of a stored message, its binary fields revived as the Buffers Baileys decrypts with', async () => {
    const downloadMediaMessage = jest.fn().mockResolvedValue(Buffer.from('JPEG'));
    const updateMediaMessage = jest.fn();
    const messages = [storedMessage({ id: '3A1B2C', chatJid: CHAT, sentAt: new Date(1_790_000_000_000), message: imageMessage })];
    const context = fakeContext({ socket: { updateMediaMessage }, lib: { downloadMediaMessage, assertMediaContent, proto }, messages });
    await expect(buildOperations().perform(context, 'media.download', { mediaId: '3A1B2C' })).resolves.toEqual({
      mimeType: 'image/jpeg',
      data: Buffer.from('JPEG').toString('base64'),
    });
    expect(downloadMediaMessage.mock.calls).toHaveLength(1);
    const [[message, ...rest]] = downloadMediaMessage.mock.calls as [[{ key: unknown; message: typeof imageMessage }, ...unknown[]]];
    expect(message.key).toEqual({ remoteJid: CHAT, fromMe: false, id: '3A1B2C' });
    // The stored JSON comes back with its binary fields as Buffers, as Baileys needs them to decrypt.
    expect(Buffer.isBuffer(message.message.imageMessage.mediaKey)).toBe(true);
    expect(message.message.imageMessage.mediaKey).toEqual(MEDIA_KEY);
    // No re-upload context: rc14 would never use it (see "an expired file" below); the driver asks itself.
    expect(rest).toEqual(['buffer', {}]);
    expect(updateMediaMessage).not.toHaveBeenCalled();
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

  it('is not_found for a message never stored, one without a file, and a file gone that the phone cannot supply', async () => {
    const downloadMediaMessage = jest.fn().mockRejectedValue(boom('Failed to fetch stream', { statusCode: 410 }));
    const updateMediaMessage = jest.fn().mockRejectedValue(boom('Media re-upload failed by device (NOT_FOUND)', { statusCode: 404 }));
    const messages = [
      storedMessage({ id: 'TEXT', chatJid: CHAT, sentAt: new Date(), message: { conversation: 'hi' } }),
      storedMessage({ id: 'IMG', chatJid: CHAT, sentAt: new Date(), message: imageMessage }),
    ];
    const context = fakeContext({
      socket: { updateMediaMessage, refreshMediaConn: jest.fn().mockResolvedValue({}) },
      lib: { downloadMediaMessage, assertMediaContent, proto },
      messages,
    });
    for (const mediaId of ['NOPE', 'TEXT', 'IMG'])
      await expect(buildOperations().perform(context, 'media.download', { mediaId })).rejects.toEqual(new AppError('not_found'));
    expect(downloadMediaMessage).toHaveBeenCalledTimes(1);
    expect(updateMediaMessage).toHaveBeenCalledTimes(1);
  });

  /**
   * rc14 decodes a received message's content into a protobuf object; kept as JSON, its bytes are base64 strings.
   * rc14's `downloadMediaMessage` fails with a Boom error whose `output.statusCode` is the media server's 404/410
   * (its own re-upload branch looks for `error.status` and never runs); the driver then asks the sender's phone with
   * the socket's `updateMediaMessage`, which derives the request's key from `mediaKey`, and downloads the new file.
   */
  describe('an expired file of a message as rc14 keeps it', () => {
    const received = asReceived({
      key: { remoteJid: CHAT, fromMe: false, id: '3A1EXPIRED' },
      message: imageMessage,
      messageTimestamp: 1_790_000_000,
    });
    const messages = [storedMessage({ id: '3A1EXPIRED', chatJid: CHAT, sentAt: new Date(1_790_000_000_000), message: received.message })];
    const REUPLOADED = '/o1/v/t62.7118-24/f1/m231/reuploaded.enc?ccb=9-4';
    /** rc14's `downloadMediaMessage`: the media server answers 410 for the old direct path, the file at the new one. */
    const downloadMediaMessage = jest.fn((message: WAMessage) =>
      message.message?.imageMessage?.directPath === REUPLOADED
        ? Promise.resolve(Buffer.from('JPEG'))
        : Promise.reject(boom('Failed to fetch stream', { statusCode: 410 })),
    );
    /** The phone's answer as rc14's `updateMediaMessage` applies it: the message with the new direct path. */
    const reuploaded = (message: WAMessage): WAMessage => ({
      ...message,
      message: { imageMessage: { ...message.message?.imageMessage, directPath: REUPLOADED } },
    });
    const refreshMediaConn = jest.fn().mockResolvedValue({});
    beforeEach(() => {
      downloadMediaMessage.mockClear();
      refreshMediaConn.mockClear();
    });

    it('asks for the re-upload with the mediaKey bytes, not their base64 text', async () => {
      // The stored JSON really holds the key as text: what a revival without the protobuf class would hand over.
      expect(JSON.parse(messages[0].data).message.imageMessage.mediaKey).toBe(MEDIA_KEY.toString('base64'));
      const updateMediaMessage = jest.fn((message: WAMessage) => Promise.resolve(reuploaded(message)));
      const context = fakeContext({
        socket: { updateMediaMessage, refreshMediaConn },
        lib: { downloadMediaMessage, assertMediaContent, proto },
        messages,
      });
      await expect(buildOperations().perform(context, 'media.download', { mediaId: '3A1EXPIRED' })).resolves.toEqual({
        mimeType: 'image/jpeg',
        data: Buffer.from('JPEG').toString('base64'),
      });
      // Asked once, after learning the network's media host, then the re-uploaded file is downloaded.
      expect(updateMediaMessage).toHaveBeenCalledTimes(1);
      expect(refreshMediaConn.mock.calls).toEqual([[false]]);
      expect(downloadMediaMessage.mock.calls.map(([message]) => message.message?.imageMessage?.directPath)).toEqual([
        imageMessage.imageMessage.directPath,
        REUPLOADED,
      ]);
      const [[asked]] = updateMediaMessage.mock.calls;
      const mediaKey = asked.message?.imageMessage?.mediaKey;
      expect(mediaKey).toBeInstanceOf(Uint8Array);
      expect(Buffer.from(mediaKey as Uint8Array)).toEqual(MEDIA_KEY);
    });

    it('asks nothing of the phone when the media server fails otherwise', async () => {
      const failing = jest.fn().mockRejectedValue(boom('Failed to fetch stream', { statusCode: 503 }));
      const updateMediaMessage = jest.fn();
      const context = fakeContext({
        socket: { updateMediaMessage, refreshMediaConn },
        lib: { downloadMediaMessage: failing, assertMediaContent, proto },
        messages,
      });
      await expect(buildOperations().perform(context, 'media.download', { mediaId: '3A1EXPIRED' })).rejects.toBeInstanceOf(AppError);
      expect(failing).toHaveBeenCalledTimes(1);
      expect(updateMediaMessage).not.toHaveBeenCalled();
      expect(refreshMediaConn).not.toHaveBeenCalled();
    });

    it('is not_found when the phone does not answer the re-upload request in time', async () => {
      jest.useFakeTimers();
      try {
        // rc14 waits for the phone's `messages.media-update` without a limit; an offline phone never sends one.
        const updateMediaMessage = jest.fn(() => new Promise<WAMessage>(() => undefined));
        const context = fakeContext({
          socket: { updateMediaMessage, refreshMediaConn },
          lib: { downloadMediaMessage, assertMediaContent, proto },
          messages,
        });
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
