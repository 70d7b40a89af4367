import { jidKind, normaliseChatId, normaliseUserId, phoneNumberProblem, readPhoneNumber } from '@app/contracts';

/**
 * One rule for a value a request carries, written once and applied wherever the value arrives (a body field, each
 * element of a list, a path parameter): what the value stands for once normalised, and how a 400 words what it
 * must be (`<field> must be <expected>`).
 */
export interface InputRule {
  /** The value as services receive it, or undefined when it breaks the rule. */
  accept(value: string): string | undefined;
  expected: string;
  /** What exactly is wrong with a refused value, when the rule can tell (a number's letters, its length). */
  problem?(value: string): string | undefined;
}

const onlyIf =
  (test: (value: string) => boolean) =>
  (value: string): string | undefined =>
    test(value) ? value : undefined;

/** A user or group JID, a LID, or a bare international number (made a user JID). */
export const CHAT_ID: InputRule = {
  accept: normaliseChatId,
  expected: 'a chat JID or an international number',
  problem: phoneNumberProblem,
};

/** A person: a user JID, a LID, or a bare international number; groups are not people. */
export const USER_ID: InputRule = {
  accept: normaliseUserId,
  expected: 'a user JID or an international number',
  problem: phoneNumberProblem,
};

/** As `USER_ID`, worded for callers, who are often known only by their LID. */
export const CALLER_ID: InputRule = { ...USER_ID, expected: 'a user JID, a LID or an international number' };

/** A person with a phone number (no LID): only those can be saved in an address book. */
export const PHONE_USER_ID: InputRule = {
  accept: (value) => {
    const jid = normaliseUserId(value);
    return jid && jidKind(jid) === 'user' ? jid : undefined;
  },
  expected: 'a user JID (<digits>@s.whatsapp.net) or an international number',
  problem: phoneNumberProblem,
};

export const GROUP_ID: InputRule = {
  accept: (value) => {
    const jid = normaliseChatId(value);
    return jid && jidKind(jid) === 'group' ? jid : undefined;
  },
  expected: 'a group JID (<id>@g.us)',
};

/** An international number, as its digits. */
export const PHONE: InputRule = {
  accept: (value) => readPhoneNumber(value).digits,
  expected: 'an international number (7-15 digits, optionally with a leading +)',
  problem: phoneNumberProblem,
};

/** The number to pair this account with: as the network takes it, digits with the country code, no leading 0. */
export const PAIRING_PHONE: InputRule = {
  accept: (value) => readPhoneNumber(value).digits,
  expected: 'an international number: digits with country code, 7-15 digits',
  problem: phoneNumberProblem,
};

const GROUP_INVITE_CODE = /^[A-Za-z0-9_-]{1,64}$/;
export const GROUP_INVITE_LINK_PREFIX = 'https://chat.whatsapp.com/';

/** The code of a group invite, as an invite message carries it. */
export const GROUP_INVITE: InputRule = { accept: onlyIf((value) => GROUP_INVITE_CODE.test(value)), expected: 'an invite code' };

/** A group invite code, or the link that carries it: the code. */
export const GROUP_INVITE_OR_LINK: InputRule = {
  accept: (value) => {
    const code = value.startsWith(GROUP_INVITE_LINK_PREFIX) ? value.slice(GROUP_INVITE_LINK_PREFIX.length) : value;
    return GROUP_INVITE_CODE.test(code) ? code : undefined;
  },
  expected: 'an invite code or link',
};

/** Canonical base64: whole groups of four characters, padding only at the end. */
const BASE64 = /^(?:[A-Za-z0-9+/]{4})*(?:[A-Za-z0-9+/]{2}==|[A-Za-z0-9+/]{3}=)?$/;
/** Every JPEG file starts with the start-of-image marker followed by another marker, then the image. */
const JPEG_MAGIC = Buffer.from([0xff, 0xd8, 0xff]);

/** Base64 of a JPEG image: the network takes profile, group and community pictures only as JPEG. */
export const BASE64_JPEG: InputRule = {
  accept: onlyIf((value) => {
    if (!BASE64.test(value)) return false;
    const bytes = Buffer.from(value, 'base64');
    return bytes.length > JPEG_MAGIC.length && bytes.subarray(0, JPEG_MAGIC.length).equals(JPEG_MAGIC);
  }),
  expected: 'a base64-encoded JPEG image',
};
