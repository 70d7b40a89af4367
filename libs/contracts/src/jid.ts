import { readPhoneNumber } from './phone-number';

/** JIDs of the messaging network: users `<digits>@s.whatsapp.net`, groups `<id>@g.us`, alternative ids `<id>@lid`. */
const USER_SERVER = 's.whatsapp.net';

const USER_JID = /^[1-9]\d{5,14}@s\.whatsapp\.net$/;
const GROUP_JID = /^[0-9]{6,40}(-[0-9]{6,20})?@g\.us$/;
const LID_JID = /^[0-9]{6,40}@lid$/;

export type JidKind = 'user' | 'group' | 'lid';

export function jidKind(jid: string): JidKind | undefined {
  if (USER_JID.test(jid)) return 'user';
  if (GROUP_JID.test(jid)) return 'group';
  if (LID_JID.test(jid)) return 'lid';
  return undefined;
}

/** A JID, or an international number as people write it (see `readPhoneNumber`) turned into a user JID; else undefined. */
export function normaliseChatId(value: string): string | undefined {
  const trimmed = value.trim();
  if (!trimmed.includes('@')) {
    const { digits } = readPhoneNumber(trimmed);
    return digits ? `${digits}@${USER_SERVER}` : undefined;
  }
  return jidKind(trimmed) ? trimmed : undefined;
}

/** A user (person) JID or LID, or a bare number; groups are not users. */
export function normaliseUserId(value: string): string | undefined {
  const jid = normaliseChatId(value);
  return jid && jidKind(jid) !== 'group' ? jid : undefined;
}

export function phoneOfJid(jid: string): string | undefined {
  const match = /^(\d+)(?::\d+)?@s\.whatsapp\.net$/.exec(jid);
  return match?.[1];
}
