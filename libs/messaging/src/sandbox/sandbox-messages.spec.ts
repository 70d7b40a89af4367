import type { SandboxMessageRecord } from '@app/database';
import { messageData } from '../events/normalise';
import { storedMessageInput, type MessageContext } from './sandbox-messages';

const SELF = '15550001111@s.whatsapp.net';
const ANN = '447700900123@s.whatsapp.net';
const AT = new Date('2025-05-19T00:51:44.816Z');

function stored(fields: Partial<SandboxMessageRecord>): SandboxMessageRecord {
  return {
    id: '3EB0AAAAAAAAAAAAAAAAAA',
    seq: 1n,
    direction: 'outbound',
    chatJid: ANN,
    senderJid: SELF,
    type: 'text',
    content: {},
    status: 'sent',
    at: AT,
    ...fields,
  };
}

const original = stored({ id: 'Q', direction: 'inbound', senderJid: ANN, content: { text: 'the question' } });
const context: MessageContext = {
  self: SELF,
  party: (jid) => (jid === ANN ? { jid, lid: '123456789012345@lid' } : { jid }),
  lookup: (id) => (id === original.id ? original : undefined),
};

const data = (record: SandboxMessageRecord) => {
  const input = storedMessageInput(record, context);
  return input && messageData(input);
};

const common = {
  id: '3EB0AAAAAAAAAAAAAAAAAA',
  time: '2025-05-19T00:51:44.816Z',
  chatId: ANN,
  sender: { id: SELF, phone: '15550001111', isMe: true },
  isGroup: false,
  isStatus: false,
};

describe('storedMessageInput', () => {
  it('describes sent media by its digest, with caption, file name and the send options', () => {
    const record = stored({
      type: 'document',
      content: {
        media: { mimeType: 'application/pdf', size: 1234, sha256: 'ab12' },
        caption: 'invoice',
        filename: 'invoice.pdf',
        isForwarded: true,
        ephemeralExpiration: 86_400,
      },
    });
    expect(data(record)).toEqual({
      ...common,
      isForwarded: true,
      type: 'media',
      media: {
        mediaType: 'document',
        mimeType: 'application/pdf',
        id: 'ab12',
        fileLength: 1234,
        caption: 'invoice',
        filename: 'invoice.pdf',
      },
      ephemeralExpiration: '24h',
    });
  });

  it('turns links into text with extendedText, and names locations, buttons and lists by their own kinds', () => {
    expect(data(stored({ type: 'link', content: { text: 'see https://e.com', url: 'https://e.com', title: 'E' } }))).toEqual({
      ...common,
      type: 'text',
      text: 'see https://e.com',
      extendedText: { matchedText: 'https://e.com', title: 'E' },
    });
    expect(data(stored({ type: 'location', content: { latitude: 51.5, longitude: -0.12, name: 'London' } }))).toEqual({
      ...common,
      type: 'location',
      location: { latitude: 51.5, longitude: -0.12, name: 'London' },
    });
    expect(data(stored({ type: 'buttons', content: { text: 'Confirm?', buttons: [] } }))).toEqual({
      ...common,
      type: 'buttons',
      text: 'Confirm?',
    });
    expect(data(stored({ type: 'contact', content: { displayName: 'Ann', vcard: 'BEGIN:VCARD' } }))).toEqual({
      ...common,
      type: 'contact',
      contact: 'BEGIN:VCARD',
    });
  });

  it('quotes a known message with its sender and text; a tap names only the message answered', () => {
    expect(data(stored({ content: { text: 'answer', replyTo: 'Q' } }))?.replyTo).toEqual({
      id: 'Q',
      sender: { id: ANN, lid: '123456789012345@lid', phone: '447700900123', isMe: false },
      text: 'the question',
    });
    expect(data(stored({ content: { text: 'answer', replyTo: 'GONE', replyToSenderId: ANN } }))?.replyTo).toEqual({
      id: 'GONE',
      sender: { id: ANN, lid: '123456789012345@lid', phone: '447700900123', isMe: false },
    });
    const tap = stored({
      direction: 'inbound',
      senderJid: ANN,
      type: 'button_reply',
      content: { replyTo: 'Q', buttonReply: { id: 'yes', text: 'Yes' } },
    });
    expect(data(tap)).toEqual({
      ...common,
      sender: { id: ANN, lid: '123456789012345@lid', phone: '447700900123', isMe: false },
      type: 'button_reply',
      text: 'Yes',
      buttonReply: { id: 'yes', text: 'Yes' },
      replyTo: { id: 'Q' },
    });
  });

  it('is undefined for what is not a message', () => {
    expect(storedMessageInput(stored({ type: 'edit' }), context)).toBeUndefined();
  });
});
