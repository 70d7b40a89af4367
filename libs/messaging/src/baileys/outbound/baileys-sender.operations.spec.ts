import { PermanentSendError, type MessageKind, type OutboundMessage, type SendPayloads } from '@app/contracts';
import type { WAMessage } from '../baileys-library';
import { asReceived, signalRepositoryWith } from '../testing/rc14';
import { BaileysSender } from './baileys-sender';
import { MemoryNetworkMessages } from '../testing/kit';
import type { FakeSocket } from '../testing/socket';
import { CONTACT, CONTACT_LID, GROUP, SELF, fakeContext, fakeSocket, networkMessage } from '../testing/outbound';

const OP = '3EB0000000000000000OP1';
const OWN = '3EB0OWN000000000000001';
const RECEIVED = '3EB0RCV000000000000001';
const RECEIVED_IN_GROUP = 'A5F3C1D2E4B6978812AB';
const GONE = '3EB0GONE00000000000001';

/** Our message, as Baileys generated it when we sent it. */
const own: WAMessage = networkMessage(CONTACT, OWN, { extendedTextMessage: { text: 'Helo' } }, 1_747_615_000);

/** Messages others sent, as Baileys decoded them (with its extra key fields). */
const received: WAMessage = {
  key: { remoteJid: CONTACT, remoteJidAlt: CONTACT_LID, fromMe: false, id: RECEIVED, addressingMode: 'pn' },
  message: { conversation: 'Hi' },
  messageTimestamp: 1_747_615_100,
  pushName: 'Jane',
};
const receivedInGroup: WAMessage = {
  key: { remoteJid: GROUP, fromMe: false, id: RECEIVED_IN_GROUP, participant: CONTACT_LID, participantAlt: CONTACT, addressingMode: 'lid' },
  message: { conversation: 'Hello all' },
  messageTimestamp: 1_747_615_200,
  pushName: 'Jane',
};

const OWN_KEY = { remoteJid: CONTACT, fromMe: true, id: OWN };
const RECEIVED_KEY = { remoteJid: CONTACT, fromMe: false, id: RECEIVED };
const GROUP_KEY = { remoteJid: GROUP, fromMe: false, id: RECEIVED_IN_GROUP, participant: CONTACT_LID };

describe('BaileysSender: operations on messages', () => {
  let socket: FakeSocket;
  let store: MemoryNetworkMessages;
  const sender = new BaileysSender({ interactiveTextFallback: 'after' });
  const send = <K extends MessageKind>(kind: K, chatJid: string, payload: SendPayloads[K]) =>
    sender.send(fakeContext(socket, store), { id: OP, kind, chatJid, payload } as OutboundMessage);
  /** What Baileys answers for an operation sent with sendMessage: the protocol, reaction or pin message it made. */
  const answers = (message: WAMessage['message'], chatJid = CONTACT) =>
    socket.sendMessage.mockResolvedValueOnce(networkMessage(chatJid, OP, message ?? {}));

  beforeEach(() => {
    socket = fakeSocket();
    store = new MemoryNetworkMessages();
    store.keep(own);
    store.keep(received);
    store.keep(receivedInGroup);
  });

  const permanent = (message: string) => expect.objectContaining({ name: 'PermanentSendError', message }) as unknown;

  describe('edit', () => {
    it('sends the new text as an edit of our kept message and reports no new message', async () => {
      answers({ protocolMessage: { key: OWN_KEY, type: 14, editedMessage: { extendedTextMessage: { text: 'Hello' } } } });

      const result = await send('edit', CONTACT, { targetId: OWN, text: 'Hello', mentions: [CONTACT] });

      expect(socket.sendMessage.mock.calls).toEqual([
        [CONTACT, { text: 'Hello', linkPreview: null, edit: OWN_KEY, mentions: [CONTACT] }, { messageId: OP }],
      ]);
      expect(result).toEqual({});
      expect(store.saved().map((message) => message.key.id)).toContain(OP);
    });

    it('edits one of our messages that is no longer kept by its id', async () => {
      answers({ protocolMessage: {} });

      await send('edit', CONTACT, { targetId: GONE, text: 'Fixed' });

      expect(socket.sendMessage.mock.calls).toEqual([
        [CONTACT, { text: 'Fixed', linkPreview: null, edit: { remoteJid: CONTACT, fromMe: true, id: GONE } }, { messageId: OP }],
      ]);
    });

    it('refuses for good to edit a message someone else sent', async () => {
      await expect(send('edit', CONTACT, { targetId: RECEIVED, text: 'Mine now' })).rejects.toEqual(
        permanent(`message ${RECEIVED} was not sent by this instance; only own messages are edited`),
      );
      expect(socket.sendMessage).not.toHaveBeenCalled();
    });
  });

  describe('delete for everyone', () => {
    it('revokes our own message', async () => {
      answers({ protocolMessage: { key: OWN_KEY, type: 0 } });

      await send('delete', CONTACT, { targetId: OWN, senderId: SELF });

      expect(socket.sendMessage.mock.calls).toEqual([[CONTACT, { delete: OWN_KEY }, { messageId: OP }]]);
    });

    it("revokes someone else's group message as admin: the key names its author as participant", async () => {
      answers({ protocolMessage: { key: GROUP_KEY, type: 0 } }, GROUP);

      await send('delete', GROUP, { targetId: RECEIVED_IN_GROUP, senderId: CONTACT });

      expect(socket.sendMessage.mock.calls).toEqual([[GROUP, { delete: GROUP_KEY }, { messageId: OP }]]);
    });

    it('builds the admin revoke key from the sender when the message is no longer kept', async () => {
      answers({ protocolMessage: {} }, GROUP);

      await send('delete', GROUP, { targetId: GONE, senderId: CONTACT });

      expect(socket.sendMessage.mock.calls).toEqual([
        [GROUP, { delete: { remoteJid: GROUP, fromMe: false, id: GONE, participant: CONTACT } }, { messageId: OP }],
      ]);
    });

    it("refuses for good to delete the other person's message in a one-to-one chat", async () => {
      await expect(send('delete', CONTACT, { targetId: RECEIVED, senderId: CONTACT })).rejects.toBeInstanceOf(PermanentSendError);
      expect(socket.sendMessage).not.toHaveBeenCalled();
    });
  });

  describe('delete for me', () => {
    it('patches the chat with the kept key and send time, keeping the media files', async () => {
      const result = await send('delete_for_me', CONTACT, { targetId: RECEIVED, senderId: CONTACT });

      expect(socket.chatModify.mock.calls).toEqual([
        [{ deleteForMe: { deleteMedia: false, key: RECEIVED_KEY, timestamp: 1_747_615_100 } }, CONTACT],
      ]);
      expect(socket.sendMessage).not.toHaveBeenCalled();
      expect(result).toEqual({});
    });

    it('uses what the request says for a message no longer kept', async () => {
      await send('delete_for_me', CONTACT, { targetId: GONE, isFromMe: true, timestamp: '2025-05-19T00:51:44.816Z' });

      expect(socket.chatModify.mock.calls).toEqual([
        [{ deleteForMe: { deleteMedia: false, key: { remoteJid: CONTACT, fromMe: true, id: GONE }, timestamp: 1_747_615_904 } }, CONTACT],
      ]);
    });

    it('refuses for good when a message no longer kept has no time or no sender', async () => {
      await expect(send('delete_for_me', CONTACT, { targetId: GONE, isFromMe: false })).rejects.toEqual(
        permanent(`message ${GONE} is no longer kept; give its timestamp to delete it for me`),
      );
      await expect(send('delete_for_me', CONTACT, { targetId: GONE, timestamp: '2025-05-19T00:51:44.816Z' })).rejects.toEqual(
        permanent(`message ${GONE} of ${CONTACT} is no longer kept and the request does not say who sent it (senderId)`),
      );
      expect(socket.chatModify).not.toHaveBeenCalled();
    });
  });

  describe('reaction', () => {
    it('reacts to a group message with its full key', async () => {
      answers({ reactionMessage: { key: GROUP_KEY, text: '👍', senderTimestampMs: 1_747_615_904_000 } }, GROUP);

      const result = await send('reaction', GROUP, { targetId: RECEIVED_IN_GROUP, reaction: '👍', senderId: CONTACT });

      expect(socket.sendMessage.mock.calls).toEqual([[GROUP, { react: { text: '👍', key: GROUP_KEY } }, { messageId: OP }]]);
      expect(result).toEqual({});
      expect(store.saved().map((message) => message.key.id)).toContain(OP);
    });

    it('removes our reaction with an empty one', async () => {
      answers({ reactionMessage: { key: OWN_KEY, text: '' } });

      await send('reaction', CONTACT, { targetId: OWN, reaction: '' });

      expect(socket.sendMessage.mock.calls).toEqual([[CONTACT, { react: { text: '', key: OWN_KEY } }, { messageId: OP }]]);
    });

    it('refuses for good a group message no longer kept when the request does not name its sender', async () => {
      await expect(send('reaction', GROUP, { targetId: GONE, reaction: '👍' })).rejects.toEqual(
        permanent(`message ${GONE} of ${GROUP} is no longer kept and the request does not say who sent it (senderId)`),
      );
      expect(socket.sendMessage).not.toHaveBeenCalled();
    });
  });

  describe('read receipts', () => {
    it('marks a received message read', async () => {
      await send('read', CONTACT, { targetId: RECEIVED, senderId: CONTACT, receiptType: 'read' });

      expect(socket.readMessages.mock.calls).toEqual([[[RECEIVED_KEY]]]);
      expect(socket.sendReceipts).not.toHaveBeenCalled();
    });

    it('sends played, delivered and sender receipts with their own types', async () => {
      await send('read', GROUP, { targetId: RECEIVED_IN_GROUP, senderId: CONTACT, receiptType: 'played' });
      await send('read', CONTACT, { targetId: GONE, senderId: CONTACT, receiptType: 'delivered' });
      await send('read', CONTACT, { targetId: RECEIVED, senderId: CONTACT, receiptType: 'sender' });

      expect(socket.sendReceipts.mock.calls).toEqual([
        [[GROUP_KEY], 'played'],
        [[{ remoteJid: CONTACT, fromMe: false, id: GONE }], undefined],
        [[RECEIVED_KEY], 'sender'],
      ]);
      expect(socket.readMessages).not.toHaveBeenCalled();
    });

    it('refuses for good to mark our own message read', async () => {
      await expect(send('read', CONTACT, { targetId: OWN, senderId: SELF, receiptType: 'read' })).rejects.toBeInstanceOf(
        PermanentSendError,
      );
      expect(socket.readMessages).not.toHaveBeenCalled();
    });
  });

  describe('star', () => {
    it('stars a received message and unstars one of ours', async () => {
      await send('star', CONTACT, { targetId: RECEIVED, senderId: CONTACT, starred: true });
      await send('star', CONTACT, { targetId: GONE, senderId: SELF, starred: false });

      expect(socket.chatModify.mock.calls).toEqual([
        [{ star: { messages: [{ id: RECEIVED, fromMe: false }], star: true } }, CONTACT],
        [{ star: { messages: [{ id: GONE, fromMe: true }], star: false } }, CONTACT],
      ]);
    });
  });

  /**
   * WhatsApp indexes someone else's group message in app state by its author; rc14's `chatModificationToAppPatch`
   * writes `'0'` there, so the patch would match no message. The patch goes out with the author (no device).
   */
  describe("someone else's group message in app state", () => {
    it('stars it and deletes it for me with its author in the index', async () => {
      await send('star', GROUP, { targetId: RECEIVED_IN_GROUP, starred: true });
      await send('delete_for_me', GROUP, { targetId: RECEIVED_IN_GROUP });

      expect(socket.appPatch.mock.calls).toEqual([
        [
          {
            syncAction: { starAction: { starred: true } },
            index: ['star', GROUP, RECEIVED_IN_GROUP, '0', CONTACT_LID],
            type: 'regular_low',
            apiVersion: 2,
            operation: 0,
          },
        ],
        [
          {
            syncAction: { deleteMessageForMeAction: { deleteMedia: false, messageTimestamp: 1_747_615_200 } },
            index: ['deleteMessageForMe', GROUP, RECEIVED_IN_GROUP, '0', CONTACT_LID],
            type: 'regular_high',
            apiVersion: 3,
            operation: 0,
          },
        ],
      ]);
      expect(socket.chatModify).not.toHaveBeenCalled();
    });

    it('names the author a request gives for a message no longer kept, without its device', async () => {
      await send('star', GROUP, { targetId: GONE, senderId: '447700900555:12@s.whatsapp.net', starred: false });

      expect(socket.appPatch.mock.calls[0][0].index).toEqual(['star', GROUP, GONE, '0', '447700900555@s.whatsapp.net']);
    });
  });

  describe('pin', () => {
    it('pins for the chosen duration, 7 days when none is given, and unpins', async () => {
      answers({ pinInChatMessage: { key: GROUP_KEY, type: 1 } }, GROUP);
      answers({ pinInChatMessage: { key: OWN_KEY, type: 1 } });
      answers({ pinInChatMessage: { key: OWN_KEY, type: 2 } });

      await send('pin', GROUP, { targetId: RECEIVED_IN_GROUP, senderId: CONTACT, pinned: true, pinExpiration: '24h' });
      await send('pin', CONTACT, { targetId: OWN, senderId: SELF, pinned: true });
      await send('pin', CONTACT, { targetId: OWN, senderId: SELF, pinned: false });

      expect(socket.sendMessage.mock.calls).toEqual([
        [GROUP, { pin: GROUP_KEY, type: 1, time: 86_400 }, { messageId: OP }],
        [CONTACT, { pin: OWN_KEY, type: 1, time: 604_800 }, { messageId: OP }],
        [CONTACT, { pin: OWN_KEY, type: 2 }, { messageId: OP }],
      ]);
    });
  });

  /**
   * rc14 keys a received one-to-one message by the stanza's sender, now usually the contact's LID, with the phone
   * number only in `remoteJidAlt` (`Utils/decode-wa-message.js`); the store keeps it under that LID. The gateway's
   * events name the chat by phone number, and that is the chat id clients send back.
   */
  describe('in a LID-addressed one-to-one chat', () => {
    const FROM_LID = '3A7F00000000000000L1D1';
    const receivedByLid = asReceived({
      key: { remoteJid: CONTACT_LID, remoteJidAlt: CONTACT, fromMe: false, id: FROM_LID, addressingMode: 'lid' },
      message: { conversation: 'Hi from my LID' },
      messageTimestamp: 1_747_615_300,
      pushName: 'Jane',
    });
    /** The key as rc14 made it, which protocol messages must carry. */
    const LID_KEY = { remoteJid: CONTACT_LID, fromMe: false, id: FROM_LID };
    const sendHere = <K extends MessageKind>(kind: K, payload: SendPayloads[K], id = OP) =>
      sender.send(
        { ...fakeContext(socket, store), socket: { ...socket, ...signalRepositoryWith([{ lid: CONTACT_LID, pn: CONTACT }]) } as never },
        {
          id,
          kind,
          chatJid: CONTACT,
          payload,
        } as OutboundMessage,
      );

    beforeEach(() => store.keep(receivedByLid));

    it('reacts with the stored key although the request names the chat by phone number and not the sender', async () => {
      answers({ reactionMessage: { key: LID_KEY, text: '👍', senderTimestampMs: 1_747_615_904_000 } });
      await sendHere('reaction', { targetId: FROM_LID, reaction: '👍' });

      expect(socket.sendMessage.mock.calls).toEqual([[CONTACT, { react: { text: '👍', key: LID_KEY } }, { messageId: OP }]]);
    });

    it('marks it read and stars it with the stored key, not one rebuilt from the phone number', async () => {
      await sendHere('read', { targetId: FROM_LID, senderId: CONTACT });
      await sendHere('star', { targetId: FROM_LID, starred: true });

      expect(socket.readMessages.mock.calls).toEqual([[[LID_KEY]]]);
      expect(socket.chatModify.mock.calls).toEqual([[{ star: { messages: [{ id: FROM_LID, fromMe: false }], star: true } }, CONTACT]]);
    });

    it('quotes it in a reply', async () => {
      socket.sendMessage.mockResolvedValueOnce(networkMessage(CONTACT, '3EB0REPLY0000000000001', { conversation: 'Yes' }));
      await sendHere('text', { text: 'Yes', replyTo: FROM_LID }, '3EB0REPLY0000000000001');

      const [[, , options]] = socket.sendMessage.mock.calls;
      expect(options?.quoted?.key).toEqual(receivedByLid.key);
      expect(options?.quoted?.message).toEqual({ conversation: 'Hi from my LID' });
    });
  });
});
