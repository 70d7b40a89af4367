import { Boom } from '@hapi/boom';
import { PermanentSendError } from '@app/contracts';
import { BaileysSender } from './baileys-sender';
import { MemoryNetworkMessages } from '../testing/kit';
import { CONTACT, GROUP, fakeContext, fakeSocket } from '../testing/outbound';
import { classifySendError } from './send-errors';

/** How Baileys reports an `<error code=.. text=..>` answer of the server (`assertNodeErrorFree`). */
const serverError = (text: string, code: number) => new Boom(text, { data: code });

describe('classifySendError', () => {
  it.each([
    ['an invalid payload', new Boom('Invalid media type', { statusCode: 400 })],
    ['not authorised', serverError('not-authorized', 401)],
    ['not a member of the group', serverError('forbidden', 403)],
    ['an unknown group', serverError('item-not-found', 404)],
    ['a refused stanza', serverError('not-acceptable', 406)],
  ])('makes %s permanent', (_case, error) => {
    const classified = classifySendError(error);
    expect(classified).toBeInstanceOf(PermanentSendError);
    expect((classified as Error).message).toContain(error.message);
  });

  it.each([
    ['the link closing', new Boom('Connection Closed', { statusCode: 428 })],
    ['a timeout', new Boom('Timed Out', { statusCode: 408 })],
    ['the session being replaced', new Boom('Stream Errored (conflict)', { statusCode: 440 })],
    ['a failed upload', new Boom('Media upload failed on all hosts', { statusCode: 500 })],
    ['a server error stanza of the 5xx kind', serverError('internal-server-error', 500)],
    ['app-state keys not yet shared by the phone', new Boom('App state key not present!', { statusCode: 400 })],
    ['an error that is not from Baileys', new Error('socket hang up')],
  ])('leaves %s transient', (_case, error) => {
    expect(classifySendError(error)).toBe(error);
  });

  it('passes a PermanentSendError through', () => {
    const error = new PermanentSendError('no');
    expect(classifySendError(error)).toBe(error);
  });
});

describe('BaileysSender: failures', () => {
  const sender = new BaileysSender({ interactiveTextFallback: 'after' });

  it('rethrows a dropped link as it is, so the row is retried', async () => {
    const socket = fakeSocket();
    const closed = new Boom('Connection Closed', { statusCode: 428 });
    socket.sendMessage.mockRejectedValueOnce(closed);

    await expect(
      sender.send(fakeContext(socket, new MemoryNetworkMessages()), {
        id: '3EB0A',
        kind: 'text',
        chatJid: CONTACT,
        payload: { text: 'x' },
      }),
    ).rejects.toBe(closed);
  });

  it('fails for good when the server refuses a group send', async () => {
    const socket = fakeSocket();
    socket.relayMessage.mockRejectedValueOnce(serverError('forbidden', 403));
    const message = {
      id: '3EB0B',
      kind: 'buttons' as const,
      chatJid: GROUP,
      payload: { text: 'x', buttons: [{ type: 'reply' as const, text: 'A', id: 'a' }] },
    };

    await expect(sender.send(fakeContext(socket, new MemoryNetworkMessages()), message)).rejects.toEqual(
      new PermanentSendError('the network refused the send (403): forbidden'),
    );
  });

  it('retries a chat patch made before the phone shared its app-state keys', async () => {
    const socket = fakeSocket();
    const pending = new Boom('App state key not present!', { statusCode: 400 });
    socket.chatModify.mockRejectedValueOnce(pending);
    const message = {
      id: '3EB0C',
      kind: 'star' as const,
      chatJid: CONTACT,
      payload: { targetId: '3EB0D', senderId: CONTACT, starred: true },
    };

    await expect(sender.send(fakeContext(socket, new MemoryNetworkMessages()), message)).rejects.toBe(pending);
  });
});
