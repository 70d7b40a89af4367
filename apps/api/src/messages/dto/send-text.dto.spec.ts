import { createValidationPipe } from '../../common/validation';
import { validationOutcome } from '../../common/validation-outcome.testing';
import { SendTextDto } from './send-text.dto';

const pipe = createValidationPipe();
const outcome = validationOutcome;

const x = (n: number): string => 'x'.repeat(n);
const emoji = (n: number): string => '😀'.repeat(n);
const USER = '14155550123@s.whatsapp.net';
const body = (overrides: Record<string, unknown> = {}): Record<string, unknown> => ({ to: USER, message: 'Hello!', ...overrides });
const CHAT_RULE = 'must be a chat JID (<digits>@s.whatsapp.net, <id>@g.us, <id>@lid) or an international number';
const USER_RULE = 'must be a user JID (<digits>@s.whatsapp.net, <id>@lid) or an international number';
const MENTIONS_RULE = 'must contain only user JIDs (<digits>@s.whatsapp.net, <id>@lid) or international numbers';

describe('SendTextDto', () => {
  it.each<[string, unknown, string]>([
    // message / text alias
    ['message', body(), 'ok'],
    ['text instead of message', { to: USER, text: 'Hello!' }, 'ok'],
    ['neither message nor text', { to: USER }, 'validation error: message or text is required'],
    ['both message and text', body({ text: 'Hello!' }), 'validation error: message and text cannot both be given'],
    ['message null and text', { to: USER, message: null, text: 'Hi' }, 'ok'],
    ['message of 4096 characters', body({ message: x(4096) }), 'ok'],
    ['message of 4097 characters', body({ message: x(4097) }), 'validation error: message must be at most 4096 characters'],
    ['message of 4096 emoji', body({ message: emoji(4096) }), 'ok'],
    ['message of 4097 emoji', body({ message: emoji(4097) }), 'validation error: message must be at most 4096 characters'],
    ['text of 4096 characters', { to: USER, text: x(4096) }, 'ok'],
    ['text of 4097 characters', { to: USER, text: x(4097) }, 'validation error: text must be at most 4096 characters'],
    ['empty message', body({ message: '' }), 'validation error: message must not be empty'],
    ['message of spaces and line breaks', body({ message: ' \n ' }), 'validation error: message must not be empty'],
    ['empty text', { to: USER, text: '' }, 'validation error: text must not be empty'],
    // recipient forms
    ['to as a user JID', body({ to: USER }), 'ok'],
    ['to as a group JID', body({ to: '120363025246125486@g.us' }), 'ok'],
    ['to as an old-style group JID', body({ to: '14155550123-1612345678@g.us' }), 'ok'],
    ['to as a LID', body({ to: '123456789012345@lid' }), 'ok'],
    ['to as a bare number', body({ to: '14155550123' }), 'ok'],
    ['to as a number with +', body({ to: '+14155550123' }), 'ok'],
    ['no to', { message: 'Hi' }, 'validation error: to is required'],
    ['to as a name', body({ to: 'bob' }), `validation error: to ${CHAT_RULE}`],
    [
      'to as a number with a leading 0',
      body({ to: '04155550123' }),
      'validation error: to: a leading 0 means a national number; write the country code instead (+44 7700 900123)',
    ],
    [
      'to as a number that is too short',
      body({ to: '12345' }),
      'validation error: to: too short: 5 digits, an international number has 7 to 15',
    ],
    ['to as a number with letters', body({ to: '+1 415 CALL abc' }), "validation error: to: remove the letters 'CALabc'"],
    ['to on an unknown server', body({ to: '14155550123@example.com' }), `validation error: to ${CHAT_RULE}`],
    ['to as a number written with spaces', body({ to: '+1 415 555 0123' }), 'ok'],
    ['to as a number written with parentheses and dashes', body({ to: '+1 (415) 555-0123' }), 'ok'],
    ['to as a number with the 00 prefix and dots', body({ to: '0044.7700.900123' }), 'ok'],
    ['empty to', body({ to: '' }), `validation error: to ${CHAT_RULE}`],
    // mentions
    ['mentions of JIDs, LIDs and numbers', body({ mentions: [USER, '123456789012345@lid', '+4915112345678'] }), 'ok'],
    ['empty mentions', body({ mentions: [] }), 'ok'],
    ['1024 mentions', body({ mentions: Array.from({ length: 1024 }, (_, i) => `${14155550000 + i}`) }), 'ok'],
    [
      '1025 mentions',
      body({ mentions: Array.from({ length: 1025 }, (_, i) => `${14155550000 + i}`) }),
      'validation error: mentions must have at most 1024 items',
    ],
    ['a group among mentions', body({ mentions: [USER, '120363025246125486@g.us'] }), `validation error: mentions ${MENTIONS_RULE}`],
    ['a name among mentions', body({ mentions: ['bob'] }), `validation error: mentions ${MENTIONS_RULE}`],
    // replyTo, replyToSenderId
    ['replyTo of 128 characters', body({ replyTo: x(128) }), 'ok'],
    ['replyTo of 129 characters', body({ replyTo: x(129) }), 'validation error: replyTo must be at most 128 characters'],
    ['empty replyTo', body({ replyTo: '' }), 'validation error: replyTo must not be empty'],
    ['replyTo with replyToSenderId', body({ replyTo: '3EB0ABCDEF', replyToSenderId: USER }), 'ok'],
    ['replyToSenderId with a device part', body({ replyTo: '3EB0ABCDEF', replyToSenderId: '14155550123:12@s.whatsapp.net' }), 'ok'],
    ['replyToSenderId without replyTo', body({ replyToSenderId: USER }), 'validation error: replyToSenderId requires replyTo'],
    [
      'replyToSenderId as a group',
      body({ replyTo: 'a', replyToSenderId: '120363025246125486@g.us' }),
      `validation error: replyToSenderId ${USER_RULE}`,
    ],
    // isForwarded, ephemeralExpiration
    ['isForwarded', body({ isForwarded: true }), 'ok'],
    ...(['off', '24h', '7d', '90d'] as const).map((value): [string, unknown, string] => [
      `ephemeralExpiration ${value}`,
      body({ ephemeralExpiration: value }),
      'ok',
    ]),
    [
      'ephemeralExpiration 30d',
      body({ ephemeralExpiration: '30d' }),
      'validation error: ephemeralExpiration must be one of off, 24h, 7d, 90d',
    ],
    ['ephemeralExpiration in seconds', body({ ephemeralExpiration: 86400 }), 'invalid request body'],
    // several, unknown, wrong types
    ['two violations', body({ to: 'bob', replyTo: x(129) }), `validation error: to ${CHAT_RULE}; replyTo must be at most 128 characters`],
    ['an unknown field', body({ preview: true }), 'validation error: property preview should not exist'],
    ['message as a number', body({ message: 42 }), 'invalid request body'],
    ['mentions as a string', body({ mentions: USER }), 'invalid request body'],
    ['a number among mentions', body({ mentions: [14155550123] }), 'invalid request body'],
    ['isForwarded as a string', body({ isForwarded: 'true' }), 'invalid request body'],
    ['replyTo as a number', body({ replyTo: 1 }), 'invalid request body'],
    ['a string as the body', 'Hello!', 'invalid request body'],
    ['null as the body', null, 'invalid request body'],
  ])('%s', async (_name, input, expected) => {
    expect(await outcome(SendTextDto, input)).toBe(expected);
  });

  it('hands the service JIDs: numbers, + and device parts normalised', async () => {
    const dto = (await pipe.transform(
      body({
        to: ' +14155550123 ',
        mentions: ['+4915112345678', USER],
        replyTo: '3EB0AB',
        replyToSenderId: '4915112345678:3@s.whatsapp.net',
      }),
      { type: 'body', metatype: SendTextDto },
    )) as SendTextDto;
    expect(dto).toBeInstanceOf(SendTextDto);
    expect({ ...dto }).toEqual({
      to: '14155550123@s.whatsapp.net',
      message: 'Hello!',
      mentions: ['4915112345678@s.whatsapp.net', USER],
      replyTo: '3EB0AB',
      replyToSenderId: '4915112345678@s.whatsapp.net',
    });
  });
});
