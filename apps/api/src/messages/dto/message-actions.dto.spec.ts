import { createValidationPipe } from '../../common/validation';
import { validationOutcome } from '../../common/validation-outcome.testing';
import {
  DeleteMessageDto,
  DeleteMessageForMeDto,
  EditMessageDto,
  MarkAsReadDto,
  PinMessageDto,
  SendReactionDto,
  StarMessageDto,
  isSingleEmoji,
} from './message-actions.dto';

const pipe = createValidationPipe();
const outcome = validationOutcome;

const x = (n: number): string => 'x'.repeat(n);
const USER = '14155550123@s.whatsapp.net';
const GROUP = '120363025246125486@g.us';
const USER_RULE = 'must be a user JID (<digits>@s.whatsapp.net, <id>@lid) or an international number';
const CHAT_RULE = 'must be a chat JID (<digits>@s.whatsapp.net, <id>@g.us, <id>@lid) or an international number';
const REACTION_RULE = 'validation error: reaction must be a single emoji, or empty to remove the reaction';
const ref = (extra: Record<string, unknown> = {}): Record<string, unknown> => ({ chatId: GROUP, senderId: USER, ...extra });

describe('EditMessageDto', () => {
  const edit = (extra: Record<string, unknown> = {}): Record<string, unknown> => ({ to: USER, text: 'Updated message', ...extra });
  it.each<[string, unknown, string]>([
    ['to and text', edit(), 'ok'],
    ['text of 4096 characters', edit({ text: x(4096) }), 'ok'],
    ['text of 4097 characters', edit({ text: x(4097) }), 'validation error: text must be at most 4096 characters'],
    ['no text', { to: USER }, 'validation error: text is required'],
    ['empty text', edit({ text: '' }), 'validation error: text must not be empty'],
    ['no to', { text: 'x' }, 'validation error: to is required'],
    ['to as a name', edit({ to: 'bob' }), `validation error: to ${CHAT_RULE}`],
    ['mentions and ephemeralExpiration', edit({ mentions: ['14155550124'], ephemeralExpiration: '24h' }), 'ok'],
    [
      'a bad mention',
      edit({ mentions: [GROUP] }),
      'validation error: mentions must contain only user JIDs (<digits>@s.whatsapp.net, <id>@lid) or international numbers',
    ],
    ['replyTo (not an edit option)', edit({ replyTo: '3EB0AB' }), 'validation error: property replyTo should not exist'],
    ['message instead of text', { to: USER, message: 'x' }, 'validation error: property message should not exist; text is required'],
    ['text as a number', edit({ text: 1 }), 'invalid request body'],
  ])('%s', async (_name, input, expected) => {
    expect(await outcome(EditMessageDto, input)).toBe(expected);
  });

  it('normalises to and mentions', async () => {
    const dto = (await pipe.transform(edit({ to: '+14155550123', mentions: ['+4915112345678'] }), {
      type: 'body',
      metatype: EditMessageDto,
    })) as EditMessageDto;
    expect({ ...dto }).toEqual({ to: USER, text: 'Updated message', mentions: ['4915112345678@s.whatsapp.net'] });
  });
});

describe('DeleteMessageDto', () => {
  it.each<[string, unknown, string]>([
    ['chatId and senderId', ref(), 'ok'],
    ['a LID sender', ref({ senderId: '123456789012345@lid' }), 'ok'],
    ['a bare-number chat and sender', ref({ chatId: '14155550123', senderId: '+14155550123' }), 'ok'],
    ['no chatId', { senderId: USER }, 'validation error: chatId is required'],
    ['no senderId', { chatId: GROUP }, 'validation error: senderId is required'],
    ['a group as sender', ref({ senderId: GROUP }), `validation error: senderId ${USER_RULE}`],
    ['a bad chatId', ref({ chatId: 'family' }), `validation error: chatId ${CHAT_RULE}`],
    ['an unknown field', ref({ forEveryone: true }), 'validation error: property forEveryone should not exist'],
    ['chatId as a number', ref({ chatId: 14155550123 }), 'invalid request body'],
  ])('%s', async (_name, input, expected) => {
    expect(await outcome(DeleteMessageDto, input)).toBe(expected);
  });

  it('normalises chatId and senderId', async () => {
    const dto = (await pipe.transform(
      { chatId: '+14155550123', senderId: '14155550124:7@s.whatsapp.net' },
      { type: 'body', metatype: DeleteMessageDto },
    )) as DeleteMessageDto;
    expect({ ...dto }).toEqual({ chatId: USER, senderId: '14155550124@s.whatsapp.net' });
  });
});

describe('DeleteMessageForMeDto', () => {
  it.each<[string, unknown, string]>([
    ['every field', ref({ isFromMe: true, timestamp: '2025-05-19T00:51:44.816Z' }), 'ok'],
    ['chatId only', { chatId: USER }, 'ok'],
    ['a timestamp with an offset', ref({ timestamp: '2025-05-19T02:51:44+02:00' }), 'ok'],
    ['no chatId', { senderId: USER }, 'validation error: chatId is required'],
    [
      'a date without time',
      ref({ timestamp: '2025-05-19' }),
      'validation error: timestamp must be an ISO 8601 date-time such as 2025-05-19T00:51:44.816Z',
    ],
    [
      'a time without zone',
      ref({ timestamp: '2025-05-19T00:51:44' }),
      'validation error: timestamp must be an ISO 8601 date-time such as 2025-05-19T00:51:44.816Z',
    ],
    [
      'a date that does not exist',
      ref({ timestamp: '2025-02-30T00:00:00Z' }),
      'validation error: timestamp must be an ISO 8601 date-time such as 2025-05-19T00:51:44.816Z',
    ],
    [
      'a unix time string',
      ref({ timestamp: '1747615904' }),
      'validation error: timestamp must be an ISO 8601 date-time such as 2025-05-19T00:51:44.816Z',
    ],
    ['a unix time number', ref({ timestamp: 1747615904 }), 'invalid request body'],
    ['isFromMe as a string', ref({ isFromMe: 'true' }), 'invalid request body'],
  ])('%s', async (_name, input, expected) => {
    expect(await outcome(DeleteMessageForMeDto, input)).toBe(expected);
  });
});

describe('SendReactionDto', () => {
  const react = (reaction: unknown, extra: Record<string, unknown> = {}): Record<string, unknown> => ({
    to: GROUP,
    senderId: USER,
    reaction,
    ...extra,
  });
  it.each<[string, unknown, string]>([
    ['an empty reaction (removes it)', react(''), 'ok'],
    ['👍', react('👍'), 'ok'],
    ['👍 with a skin tone', react('👍🏽'), 'ok'],
    ['❤️ (with variation selector)', react('\u2764\uFE0F'), 'ok'],
    ['❤ (without variation selector)', react('\u2764'), 'ok'],
    ['a ZWJ family', react('👨‍👩‍👧‍👦'), 'ok'],
    ['a flag', react('🇳🇱'), 'ok'],
    ['a keycap', react('1\uFE0F\u20E3'), 'ok'],
    ['without senderId (1:1 chat)', { to: USER, reaction: '🙏' }, 'ok'],
    ['ab', react('ab'), REACTION_RULE],
    ['a', react('a'), REACTION_RULE],
    ['1', react('1'), REACTION_RULE],
    ['two emoji', react('👍👍'), REACTION_RULE],
    ['an emoji and a letter', react('👍a'), REACTION_RULE],
    ['a space', react(' '), REACTION_RULE],
    ['an emoji with surrounding spaces', react(' 👍 '), REACTION_RULE],
    ['an emoji smothered in combining marks', react(`👍${'\u0301'.repeat(40)}`), REACTION_RULE],
    ['no reaction', { to: GROUP, senderId: USER }, 'validation error: reaction is required'],
    ['no to', { senderId: USER, reaction: '👍' }, 'validation error: to is required'],
    ['a group as sender', react('👍', { senderId: GROUP }), `validation error: senderId ${USER_RULE}`],
    ['reaction as a number', react(1), 'invalid request body'],
    ['reaction null', react(null), 'validation error: reaction is required'],
  ])('%s', async (_name, input, expected) => {
    expect(await outcome(SendReactionDto, input)).toBe(expected);
  });

  it('counts a keycap only for digits, # and *', () => {
    expect(isSingleEmoji('#\uFE0F\u20E3')).toBe(true);
    expect(isSingleEmoji('a\u20E3')).toBe(false);
  });
});

describe('MarkAsReadDto', () => {
  it.each<[string, unknown, string]>([
    ...(['delivered', 'sender', 'read', 'played'] as const).map((receiptType): [string, unknown, string] => [
      receiptType,
      ref({ receiptType }),
      'ok',
    ]),
    [
      'an unknown receipt type',
      ref({ receiptType: 'seen' }),
      'validation error: receiptType must be one of delivered, sender, read, played',
    ],
    ['no receipt type', ref(), 'validation error: receiptType is required'],
    ['no senderId', { chatId: GROUP, receiptType: 'read' }, 'validation error: senderId is required'],
    ['receiptType as a boolean', ref({ receiptType: true }), 'invalid request body'],
  ])('%s', async (_name, input, expected) => {
    expect(await outcome(MarkAsReadDto, input)).toBe(expected);
  });
});

describe('StarMessageDto', () => {
  it.each<[string, unknown, string]>([
    ['starred true', ref({ starred: true }), 'ok'],
    ['starred false', ref({ starred: false }), 'ok'],
    ['starred left out', ref(), 'ok'],
    ['no chatId', { senderId: USER }, 'validation error: chatId is required'],
    ['starred as a string', ref({ starred: 'yes' }), 'invalid request body'],
  ])('%s', async (_name, input, expected) => {
    expect(await outcome(StarMessageDto, input)).toBe(expected);
  });

  it('stars when starred is left out', async () => {
    const dto = (await pipe.transform(ref(), { type: 'body', metatype: StarMessageDto })) as StarMessageDto;
    expect(dto.starred).toBe(true);
  });
});

describe('PinMessageDto', () => {
  it.each<[string, unknown, string]>([
    ...(['24h', '7d', '30d'] as const).map((pinExpiration): [string, unknown, string] => [
      `pin for ${pinExpiration}`,
      ref({ pinned: true, pinExpiration }),
      'ok',
    ]),
    ['pin without expiration', ref({ pinned: true }), 'ok'],
    ['unpin', ref({ pinned: false }), 'ok'],
    ['pinned left out, with expiration', ref({ pinExpiration: '7d' }), 'ok'],
    ['an unknown expiration', ref({ pinExpiration: '1h' }), 'validation error: pinExpiration must be one of 24h, 7d, 30d'],
    [
      'unpin with an expiration',
      ref({ pinned: false, pinExpiration: '7d' }),
      'validation error: pinExpiration must not be set when pinned is false',
    ],
    ['no senderId', { chatId: GROUP, pinned: true }, 'validation error: senderId is required'],
    ['pinned as a number', ref({ pinned: 1 }), 'invalid request body'],
  ])('%s', async (_name, input, expected) => {
    expect(await outcome(PinMessageDto, input)).toBe(expected);
  });

  it('pins when pinned is left out', async () => {
    const dto = (await pipe.transform(ref(), { type: 'body', metatype: PinMessageDto })) as PinMessageDto;
    expect(dto.pinned).toBe(true);
  });
});
