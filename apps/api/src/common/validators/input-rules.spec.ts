import {
  BASE64_JPEG,
  CALLER_ID,
  CHAT_ID,
  GROUP_ID,
  GROUP_INVITE,
  GROUP_INVITE_OR_LINK,
  PAIRING_PHONE,
  PHONE,
  PHONE_USER_ID,
  USER_ID,
  type InputRule,
} from './input-rules';

const USER = '447700900123@s.whatsapp.net';
const LID = '900000000123@lid';
const GROUP = '120363000000000001@g.us';
const base64 = (...bytes: number[]) => Buffer.from(bytes).toString('base64');
const JPEG = base64(0xff, 0xd8, 0xff, 0xe0, 0x00, 0x10, 0x4a, 0x46);

/** Each row: what the caller sent, and what the service receives (undefined: refused). */
const CASES: [string, InputRule, [string, string | undefined][]][] = [
  [
    'CHAT_ID',
    CHAT_ID,
    [
      ['447700900123', USER],
      [' +447700900123 ', USER],
      [GROUP, GROUP],
      [LID, LID],
      ['ann', undefined],
      ['0447700900123', undefined],
      ['447700900123@c.us', undefined],
    ],
  ],
  [
    'USER_ID',
    USER_ID,
    [
      ['+447700900123', USER],
      [USER, USER],
      [LID, LID],
      [GROUP, undefined],
      ['447700900123:12@s.whatsapp.net', undefined],
      ['', undefined],
    ],
  ],
  [
    'CALLER_ID',
    CALLER_ID,
    [
      [LID, LID],
      [GROUP, undefined],
    ],
  ],
  [
    'PHONE_USER_ID',
    PHONE_USER_ID,
    [
      ['447700900123', USER],
      [USER, USER],
      [LID, undefined],
      [GROUP, undefined],
    ],
  ],
  [
    'GROUP_ID',
    GROUP_ID,
    [
      [GROUP, GROUP],
      [' 120363000000000001-1700000000@g.us', '120363000000000001-1700000000@g.us'],
      ['447700900123', undefined],
      [USER, undefined],
      ['not-a-group', undefined],
    ],
  ],
  [
    'PHONE',
    PHONE,
    [
      ['+447700900123', '447700900123'],
      ['1234567', '1234567'],
      ['123456', undefined],
      ['1234567890123456', undefined],
      [USER, undefined],
      ['abc', undefined],
    ],
  ],
  [
    'PAIRING_PHONE',
    PAIRING_PHONE,
    [
      ['+15557654321', '15557654321'],
      ['0123456789', undefined],
      ['12ab', undefined],
      ['123456', undefined],
    ],
  ],
  [
    'GROUP_INVITE',
    GROUP_INVITE,
    [
      ['AbCd_Ef-12', 'AbCd_Ef-12'],
      ['https://chat.whatsapp.com/AbCd', undefined],
      ['bad.code', undefined],
      ['x'.repeat(65), undefined],
      ['', undefined],
    ],
  ],
  [
    'GROUP_INVITE_OR_LINK',
    GROUP_INVITE_OR_LINK,
    [
      ['AbCd_Ef-12', 'AbCd_Ef-12'],
      ['https://chat.whatsapp.com/AbCd_Ef-12', 'AbCd_Ef-12'],
      ['https://chat.whatsapp.com/', undefined],
      ['http://chat.whatsapp.com/AbCd', undefined],
      ['not a code!', undefined],
    ],
  ],
  [
    'BASE64_JPEG',
    BASE64_JPEG,
    [
      [JPEG, JPEG],
      [base64(0xff, 0xd8, 0xff), undefined],
      [Buffer.from('GIF89a....').toString('base64'), undefined],
      [JPEG.replace(/=+$/, ''), undefined],
      ['***', undefined],
      ['', undefined],
    ],
  ],
];

describe('input rules', () => {
  const rows = CASES.flatMap(([name, rule, values]) => values.map(([sent, received]) => ({ name, rule, sent, received })));

  it.each(rows)('$name: $sent -> $received', ({ rule, sent, received }) => {
    expect(rule.accept(sent)).toBe(received);
  });

  it('words each expectation as the 400 details have it', () => {
    expect(CASES.map(([name, rule]) => [name, rule.expected])).toEqual([
      ['CHAT_ID', 'a chat JID or an international number'],
      ['USER_ID', 'a user JID or an international number'],
      ['CALLER_ID', 'a user JID, a LID or an international number'],
      ['PHONE_USER_ID', 'a user JID (<digits>@s.whatsapp.net) or an international number'],
      ['GROUP_ID', 'a group JID (<id>@g.us)'],
      ['PHONE', 'an international number (7-15 digits, optionally with a leading +)'],
      ['PAIRING_PHONE', 'an international number: digits with country code, 7-15 digits'],
      ['GROUP_INVITE', 'an invite code'],
      ['GROUP_INVITE_OR_LINK', 'an invite code or link'],
      ['BASE64_JPEG', 'a base64-encoded JPEG image'],
    ]);
  });
});
