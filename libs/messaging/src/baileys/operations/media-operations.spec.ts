import { AppError } from '@app/contracts';
import { buildOperations, fakeContext, storedMessage, boom } from './fake-context.testing';

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
    const context = fakeContext({ socket: { updateMediaMessage }, lib: { downloadMediaMessage, assertMediaContent }, messages });
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
    expect(ctx.reuploadRequest).toBe(updateMediaMessage);
  });

  it('answers a document with its file name', async () => {
    const downloadMediaMessage = jest.fn().mockResolvedValue(Buffer.from('%PDF'));
    const messages = [storedMessage({ id: 'DOC1', chatJid: CHAT, sentAt: new Date(), message: documentMessage })];
    const context = fakeContext({ socket: { updateMediaMessage: jest.fn() }, lib: { downloadMediaMessage, assertMediaContent }, messages });
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
    const context = fakeContext({ socket: { updateMediaMessage: jest.fn() }, lib: { downloadMediaMessage, assertMediaContent }, messages });
    for (const mediaId of ['NOPE', 'TEXT', 'IMG'])
      await expect(buildOperations().perform(context, 'media.download', { mediaId })).rejects.toEqual(new AppError('not_found'));
    expect(downloadMediaMessage).toHaveBeenCalledTimes(1);
  });
});
