import type { ChatView } from '@app/database';
import { chatBody } from './chat-body';

const NOW = new Date('2026-11-22T10:00:00.000Z');

function view(overrides: Partial<ChatView> = {}): ChatView {
  return {
    jid: '447700900123@s.whatsapp.net',
    lid: null,
    isGroup: false,
    archived: false,
    pinned: false,
    muted: false,
    muteEndTime: null,
    read: true,
    ephemeralSeconds: 0,
    lastActivity: null,
    contact: null,
    ...overrides,
  };
}

describe('chatBody', () => {
  it('leaves out every optional field the gateway does not know', () => {
    expect(chatBody(view(), NOW)).toEqual({
      id: '447700900123@s.whatsapp.net',
      isGroup: false,
      isArchived: false,
      isPinned: false,
      isMuted: false,
    });
  });

  it('enriches a person chat with the contact, preferring the chat LID', () => {
    const contact = {
      jid: '447700900123@s.whatsapp.net',
      lid: '111@lid',
      pushName: 'Annie',
      fullName: 'Ann Example',
      firstName: 'Ann',
      businessName: 'Ann Ltd',
      inAddressBook: true,
    };
    expect(chatBody(view({ contact, lastActivity: new Date('2026-11-22T09:00:00.000Z') }), NOW)).toEqual({
      id: '447700900123@s.whatsapp.net',
      lid: '111@lid',
      isGroup: false,
      isArchived: false,
      isPinned: false,
      isMuted: false,
      pushName: 'Annie',
      businessName: 'Ann Ltd',
      fullName: 'Ann Example',
      lastActivity: '2026-11-22T09:00:00.000Z',
    });
    expect(chatBody(view({ contact, lid: '222@lid' }), NOW).lid).toBe('222@lid');
  });

  it('never gives a group a lid', () => {
    const body = chatBody(view({ jid: '120363000000000001@g.us', isGroup: true, lid: '333@lid' }), NOW);
    expect(body).toEqual({ id: '120363000000000001@g.us', isGroup: true, isArchived: false, isPinned: false, isMuted: false });
  });

  it('shows a mute with its end while it lasts, without one when muted until unmuted, and none once it ended', () => {
    const until = new Date('2026-11-22T11:00:00.000Z');
    expect(chatBody(view({ muted: true, muteEndTime: until }), NOW)).toMatchObject({ isMuted: true, muteEndTime: until.toISOString() });
    const forever = chatBody(view({ muted: true }), NOW);
    expect(forever.isMuted).toBe(true);
    expect(forever).not.toHaveProperty('muteEndTime');
    const ended = chatBody(view({ muted: true, muteEndTime: new Date('2026-11-22T09:59:59.000Z') }), NOW);
    expect(ended.isMuted).toBe(false);
    expect(ended).not.toHaveProperty('muteEndTime');
  });
});
