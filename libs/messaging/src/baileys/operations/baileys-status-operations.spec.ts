import { AppError } from '@app/contracts';
import { SELF, buildOperations, fakeContext, iqError, storedMessage } from '../testing/operations';

const STATUS = 'status@broadcast';
const ALICE = '447700900200@s.whatsapp.net';
const BOB = '447700900300@s.whatsapp.net';
const CAROL = '447700900400@s.whatsapp.net';

/** The network's answer to the `status` privacy IQ. */
function privacyAnswer(...lists: { type: string; default?: boolean; users?: string[] }[]) {
  return {
    tag: 'iq',
    attrs: { type: 'result' },
    content: [
      {
        tag: 'privacy',
        attrs: {},
        content: lists.map((list) => ({
          tag: 'list',
          attrs: { type: list.type, ...(list.default ? { default: 'true' } : {}) },
          content: (list.users ?? []).map((jid) => ({ tag: 'user', attrs: { jid } })),
        })),
      },
    ],
  };
}

const PRIVACY_QUERY = {
  tag: 'iq',
  attrs: { type: 'get', xmlns: 'status', to: 's.whatsapp.net' },
  content: [{ tag: 'privacy', attrs: {} }],
};

const addressBook = () =>
  Promise.resolve([
    { jid: ALICE, inAddressBook: true },
    { jid: BOB, inAddressBook: true },
    { jid: CAROL, inAddressBook: false },
  ]);

describe('Baileys status operations', () => {
  it('reads the status privacy lists, the one in force first', async () => {
    const query = jest
      .fn()
      .mockResolvedValue(privacyAnswer({ type: 'whitelist', users: [ALICE] }, { type: 'blacklist', default: true, users: [BOB] }));
    await expect(buildOperations().perform(fakeContext({ socket: { query } }), 'status.privacy', {})).resolves.toEqual({
      settings: [
        { type: 'blacklist', list: [BOB], isDefault: true },
        { type: 'whitelist', list: [ALICE], isDefault: false },
      ],
    });
    expect(query).toHaveBeenCalledWith(PRIVACY_QUERY);
  });

  it('answers all contacts for an account that never chose', async () => {
    const query = jest.fn().mockRejectedValue(iqError(404, 'item-not-found'));
    await expect(buildOperations().perform(fakeContext({ socket: { query } }), 'status.privacy', {})).resolves.toEqual({
      settings: [{ type: 'contacts', list: [], isDefault: true }],
    });
  });

  it('posts text to the address book, with our id, and answers the audience', async () => {
    const query = jest.fn().mockResolvedValue(privacyAnswer({ type: 'contacts', default: true }));
    const sendMessage = jest.fn().mockResolvedValue({ key: { remoteJid: STATUS, fromMe: true, id: '3EB0A1' } });
    const operations = buildOperations({ contacts: { list: addressBook } });
    await expect(
      operations.perform(fakeContext({ socket: { query, sendMessage } }), 'status.post', {
        id: '3EB0A1',
        post: { kind: 'text', text: 'Fresh loaves' },
      }),
    ).resolves.toEqual({ audience: [ALICE, BOB] });
    expect(sendMessage).toHaveBeenCalledWith(STATUS, { text: 'Fresh loaves' }, { messageId: '3EB0A1', statusJidList: [ALICE, BOB, SELF] });
  });

  it('posts an image to the contacts not blacklisted, loading the file through the safe client', async () => {
    const query = jest.fn().mockResolvedValue(privacyAnswer({ type: 'blacklist', default: true, users: [BOB] }));
    const sendMessage = jest.fn().mockResolvedValue({});
    const loadMedia = jest.fn().mockResolvedValue({ bytes: Buffer.from('JPEG'), contentType: 'image/png' });
    const operations = buildOperations({ contacts: { list: addressBook }, loadMedia });
    const media = { url: 'https://cdn.example/loaf.png' };
    await expect(
      operations.perform(fakeContext({ socket: { query, sendMessage } }), 'status.post', {
        id: '3EB0A2',
        post: { kind: 'image', media, caption: 'Loaf' },
      }),
    ).resolves.toEqual({ audience: [ALICE] });
    expect(loadMedia).toHaveBeenCalledWith(media);
    expect(sendMessage).toHaveBeenCalledWith(
      STATUS,
      { image: Buffer.from('JPEG'), mimetype: 'image/png', caption: 'Loaf' },
      { messageId: '3EB0A2', statusJidList: [ALICE, SELF] },
    );
  });

  it('posts a video to a whitelist, with the type the client named', async () => {
    const query = jest.fn().mockResolvedValue(privacyAnswer({ type: 'whitelist', default: true, users: [CAROL, ALICE] }));
    const sendMessage = jest.fn().mockResolvedValue({});
    const loadMedia = jest.fn().mockResolvedValue({ bytes: Buffer.from('MP4') });
    const operations = buildOperations({ contacts: { list: addressBook }, loadMedia });
    await expect(
      operations.perform(fakeContext({ socket: { query, sendMessage } }), 'status.post', {
        id: '3EB0A3',
        post: { kind: 'video', media: { data: Buffer.from('MP4').toString('base64') }, mimeType: 'video/mp4' },
      }),
    ).resolves.toEqual({ audience: [ALICE, CAROL] });
    expect(sendMessage).toHaveBeenCalledWith(
      STATUS,
      { video: Buffer.from('MP4'), mimetype: 'video/mp4' },
      { messageId: '3EB0A3', statusJidList: [ALICE, CAROL, SELF] },
    );
  });

  it('revokes an own post for its audience', async () => {
    const query = jest.fn().mockResolvedValue(privacyAnswer({ type: 'contacts', default: true }));
    const sendMessage = jest.fn().mockResolvedValue({});
    const messages = [storedMessage({ id: '3EB0A1', chatJid: STATUS, fromMe: true, sentAt: new Date() })];
    const operations = buildOperations({ contacts: { list: addressBook } });
    await expect(
      operations.perform(fakeContext({ socket: { query, sendMessage }, messages }), 'status.delete', { id: '3EB0A1' }),
    ).resolves.toEqual({});
    expect(sendMessage).toHaveBeenCalledWith(
      STATUS,
      { delete: { remoteJid: STATUS, fromMe: true, id: '3EB0A1' } },
      { statusJidList: [ALICE, BOB, SELF] },
    );
  });

  it("refuses unknown posts and others' posts", async () => {
    const sendMessage = jest.fn();
    const messages = [storedMessage({ id: 'THEIRS', chatJid: STATUS, fromMe: false, senderJid: ALICE, sentAt: new Date() })];
    const context = fakeContext({ socket: { sendMessage }, messages });
    await expect(buildOperations().perform(context, 'status.delete', { id: 'NOPE' })).rejects.toEqual(new AppError('not_found'));
    await expect(buildOperations().perform(context, 'status.delete', { id: 'THEIRS' })).rejects.toEqual(
      AppError.forbidden('only your own status posts can be deleted'),
    );
    expect(sendMessage).not.toHaveBeenCalled();
  });
});
