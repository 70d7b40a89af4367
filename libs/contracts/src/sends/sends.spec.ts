import { MESSAGE_KINDS } from '../messages';
import { isMediaSend, isMessageAction, mediaSourceOf, type Send } from './index';

const CHAT = '14155550123@s.whatsapp.net';

describe('sends', () => {
  it('tells the sends that act on an existing message from those that add one', () => {
    const actions = MESSAGE_KINDS.filter((kind) => isMessageAction({ kind, chatJid: CHAT, payload: {} } as Send));
    expect(actions).toEqual(['edit', 'delete', 'delete_for_me', 'reaction', 'read', 'star', 'pin']);
    const media = MESSAGE_KINDS.filter((kind) => isMediaSend({ kind, chatJid: CHAT, payload: {} } as Send));
    expect(media).toEqual(['image', 'video', 'audio', 'voice', 'document', 'sticker']);
  });

  it('finds the media source of a media send only', () => {
    const stored = { blobId: 'med_1', mimeType: 'image/png', size: 3, sha256: 'abc' };
    expect(mediaSourceOf({ kind: 'image', chatJid: CHAT, payload: { media: stored } })).toEqual(stored);
    expect(
      mediaSourceOf({ kind: 'document', chatJid: CHAT, payload: { media: { url: 'https://example.com/r.pdf' }, filename: 'r.pdf' } }),
    ).toEqual({
      url: 'https://example.com/r.pdf',
    });
    expect(mediaSourceOf({ kind: 'text', chatJid: CHAT, payload: { text: 'hi' } })).toBeUndefined();
  });
});
