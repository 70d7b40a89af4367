/** JIDs of the messaging network: users `<digits>@s.whatsapp.net`, groups `<id>@g.us`, alternative ids `<id>@lid`. */
const USER_SERVER = 's.whatsapp.net';

const USER_JID = /^[1-9]\d{5,14}@s\.whatsapp\.net$/;
const GROUP_JID = /^[0-9]{6,40}(-[0-9]{6,20})?@g\.us$/;
const LID_JID = /^[0-9]{6,40}@lid$/;
const BARE_NUMBER = /^\+?[1-9]\d{5,14}$/;

export type JidKind = 'user' | 'group' | 'lid';

export function jidKind(jid: string): JidKind | undefined {
  if (USER_JID.test(jid)) return 'user';
  if (GROUP_JID.test(jid)) return 'group';
  if (LID_JID.test(jid)) return 'lid';
  return undefined;
}

/** A JID, or a bare international number turned into a user JID; undefined when neither. */
export function normaliseChatId(value: string): string | undefined {
  const trimmed = value.trim();
  if (BARE_NUMBER.test(trimmed)) return `${trimmed.replace(/^\+/, '')}@${USER_SERVER}`;
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
