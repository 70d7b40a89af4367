/** People and chats of the unit tests, with both of their JIDs. */
export const ANA = { pn: '5511988887777@s.whatsapp.net', lid: '123456789012345@lid', phone: '5511988887777' };
export const BOB = { pn: '447700900123@s.whatsapp.net', lid: '987654321098765@lid', phone: '447700900123' };
export const CAROL = { pn: '4915112345678@s.whatsapp.net', lid: '555666777888999@lid', phone: '4915112345678' };
export const SELF = { pn: '15550001111@s.whatsapp.net', lid: '90000000000001@lid', phone: '15550001111' };
export const GROUP = '120363025246125888@g.us';

type Person = typeof ANA;

/** A person as events name them: phone-number JID first, LID alongside. */
export function identityOf(person: Person): { id: string; lid: string; phone: string } {
  return { id: person.pn, lid: person.lid, phone: person.phone };
}

export function senderOf(person: Person, isMe = false): { id: string; lid: string; phone: string; isMe: boolean } {
  return { ...identityOf(person), isMe };
}

export const ME = senderOf(SELF, true);
