import { createValidationPipe } from '../../common/validation';
import { validationOutcome } from '../../common/validation-outcome.testing';
import { SendButtonsDto } from './send-buttons.dto';

const pipe = createValidationPipe();
const outcome = validationOutcome;

const x = (n: number): string => 'x'.repeat(n);
const emoji = (n: number): string => '😀'.repeat(n);
const TO = '14155550123@s.whatsapp.net';
const reply = (id: string, text = 'Yes'): Record<string, unknown> => ({ id, text });
const body = (overrides: Record<string, unknown> = {}): Record<string, unknown> => ({
  to: TO,
  text: 'Confirm the booking?',
  buttons: [reply('yes')],
  ...overrides,
});
const oneButton = (button: Record<string, unknown>): Record<string, unknown> => body({ buttons: [button] });

describe('SendButtonsDto', () => {
  it.each<[string, unknown, string]>([
    // body text, header, footer
    ['text of 1024 characters', body({ text: x(1024) }), 'ok'],
    ['text of 1025 characters', body({ text: x(1025) }), 'validation error: text must be at most 1024 characters'],
    ['text of 1024 emoji (2048 UTF-16 units)', body({ text: emoji(1024) }), 'ok'],
    ['text of 1025 emoji', body({ text: emoji(1025) }), 'validation error: text must be at most 1024 characters'],
    ['no text', body({ text: undefined }), 'validation error: text is required'],
    ['empty text', body({ text: '' }), 'validation error: text must not be empty'],
    ['text of spaces only', body({ text: '   ' }), 'validation error: text must not be empty'],
    ['header of 60 characters', body({ header: x(60) }), 'ok'],
    ['header of 61 characters', body({ header: x(61) }), 'validation error: header must be at most 60 characters'],
    ['empty header', body({ header: '' }), 'ok'],
    ['footer of 60 characters', body({ footer: x(60) }), 'ok'],
    ['footer of 61 characters', body({ footer: x(61) }), 'validation error: footer must be at most 60 characters'],
    ['aiLabel true', body({ aiLabel: true }), 'ok'],
    // the buttons array
    ['no buttons field', body({ buttons: undefined }), 'validation error: buttons is required'],
    ['0 buttons', body({ buttons: [] }), 'validation error: buttons must have at least 1 item'],
    ['1 button', body({ buttons: [reply('a')] }), 'ok'],
    ['3 buttons', body({ buttons: [reply('a'), reply('b'), reply('c')] }), 'ok'],
    [
      '4 buttons',
      body({ buttons: [reply('a'), reply('b'), reply('c'), reply('d')] }),
      'validation error: buttons must have at most 3 items',
    ],
    [
      '3 buttons of mixed types',
      body({
        buttons: [
          { type: 'reply', id: 'yes', text: 'Yes' },
          { type: 'url', text: 'Open', url: 'https://example.com/booking' },
          { type: 'call', text: 'Call us', phoneNumber: '+14155550123' },
        ],
      }),
      'ok',
    ],
    // button label
    ['button text of 20 characters', oneButton(reply('a', x(20))), 'ok'],
    ['button text of 20 emoji', oneButton(reply('a', emoji(20))), 'ok'],
    ['button text of 21 characters', oneButton(reply('a', x(21))), 'validation error: buttons[0].text must be at most 20 characters'],
    [
      'third button text of 21 characters',
      body({ buttons: [reply('a'), reply('b'), reply('c', x(21))] }),
      'validation error: buttons[2].text must be at most 20 characters',
    ],
    ['button without text', oneButton({ id: 'a' }), 'validation error: buttons[0].text is required'],
    ['button with empty text', oneButton(reply('a', '')), 'validation error: buttons[0].text must not be empty'],
    // type
    ['explicit reply type', oneButton({ type: 'reply', id: 'a', text: 'A' }), 'ok'],
    [
      'unknown type',
      oneButton({ type: 'link', id: 'a', text: 'A' }),
      'validation error: buttons[0].type must be one of reply, url, copy, call',
    ],
    // reply id
    ['reply id of 256 characters', oneButton(reply(x(256))), 'ok'],
    ['reply id of 257 characters', oneButton(reply(x(257))), 'validation error: buttons[0].id must be at most 256 characters'],
    ['reply button without id (type left out)', oneButton({ text: 'Yes' }), 'validation error: buttons[0].id is required on reply buttons'],
    [
      'reply button without id (type given)',
      oneButton({ type: 'reply', text: 'Yes' }),
      'validation error: buttons[0].id is required on reply buttons',
    ],
    ['reply button with empty id', oneButton(reply('')), 'validation error: buttons[0].id must not be empty'],
    ['duplicate reply ids', body({ buttons: [reply('yes'), reply('yes', 'Sure')] }), 'validation error: buttons[1].id duplicates "yes"'],
    [
      'the same id three times',
      body({ buttons: [reply('yes'), reply('yes'), reply('yes')] }),
      'validation error: buttons[1].id duplicates "yes"; buttons[2].id duplicates "yes"',
    ],
    [
      'a duplicate after another button',
      body({ buttons: [reply('no'), reply('yes'), reply('yes')] }),
      'validation error: buttons[2].id duplicates "yes"',
    ],
    ['ids differing in case', body({ buttons: [reply('yes'), reply('Yes')] }), 'ok'],
    [
      'a duplicate id with quotes in it',
      body({ buttons: [reply('say "hi"'), reply('say "hi"')] }),
      'validation error: buttons[1].id duplicates "say \\"hi\\""',
    ],
    // url buttons
    ['url button', oneButton({ type: 'url', text: 'Open', url: 'https://example.com/a?b=c' }), 'ok'],
    ['url button with http', oneButton({ type: 'url', text: 'Open', url: 'http://example.com' }), 'ok'],
    ['url button with upper-case scheme', oneButton({ type: 'url', text: 'Open', url: 'HTTPS://EXAMPLE.COM' }), 'ok'],
    ['url button without url', oneButton({ type: 'url', text: 'Open' }), 'validation error: buttons[0].url is required on url buttons'],
    [
      'url button with ftp url',
      oneButton({ type: 'url', text: 'Open', url: 'ftp://example.com' }),
      'validation error: buttons[0].url must be an http or https URL',
    ],
    [
      'url button with bare host',
      oneButton({ type: 'url', text: 'Open', url: 'example.com' }),
      'validation error: buttons[0].url must be an http or https URL',
    ],
    [
      'url button with scheme only',
      oneButton({ type: 'url', text: 'Open', url: 'https://' }),
      'validation error: buttons[0].url must be an http or https URL',
    ],
    [
      'url button with javascript url',
      oneButton({ type: 'url', text: 'Open', url: 'javascript:alert(1)' }),
      'validation error: buttons[0].url must be an http or https URL',
    ],
    [
      'url button with an id',
      oneButton({ type: 'url', text: 'Open', url: 'https://example.com', id: 'x' }),
      'validation error: buttons[0].id is only allowed on reply buttons',
    ],
    [
      'reply button with a url',
      oneButton({ id: 'a', text: 'A', url: 'https://example.com' }),
      'validation error: buttons[0].url is only allowed on url buttons',
    ],
    // copy buttons
    ['copy button', oneButton({ type: 'copy', text: 'Copy code', copyCode: 'SAVE10' }), 'ok'],
    ['copyCode of 256 characters', oneButton({ type: 'copy', text: 'Copy', copyCode: x(256) }), 'ok'],
    [
      'copyCode of 257 characters',
      oneButton({ type: 'copy', text: 'Copy', copyCode: x(257) }),
      'validation error: buttons[0].copyCode must be at most 256 characters',
    ],
    [
      'copy button without copyCode',
      oneButton({ type: 'copy', text: 'Copy' }),
      'validation error: buttons[0].copyCode is required on copy buttons',
    ],
    [
      'copy button with empty copyCode',
      oneButton({ type: 'copy', text: 'Copy', copyCode: '' }),
      'validation error: buttons[0].copyCode must not be empty',
    ],
    [
      'reply button with a copyCode',
      oneButton({ id: 'a', text: 'A', copyCode: 'X' }),
      'validation error: buttons[0].copyCode is only allowed on copy buttons',
    ],
    [
      'copy button with a phone number',
      oneButton({ type: 'copy', text: 'Copy', copyCode: 'X', phoneNumber: '+14155550123' }),
      'validation error: buttons[0].phoneNumber is only allowed on call buttons',
    ],
    // call buttons
    ['call button with +', oneButton({ type: 'call', text: 'Call', phoneNumber: '+14155550123' }), 'ok'],
    ['call button without +', oneButton({ type: 'call', text: 'Call', phoneNumber: '14155550123' }), 'ok'],
    ['phone number of 7 digits', oneButton({ type: 'call', text: 'Call', phoneNumber: '+1234567' }), 'ok'],
    ['phone number of 15 digits', oneButton({ type: 'call', text: 'Call', phoneNumber: '+123456789012345' }), 'ok'],
    ...(
      [
        ['6 digits', '+123456'],
        ['16 digits', '+1234567890123456'],
        ['a leading 0', '+0123456789'],
        ['spaces', '+1 415 555 0123'],
        ['letters', '+1415CALLNOW'],
      ] as const
    ).map(([what, phoneNumber]): [string, unknown, string] => [
      `phone number with ${what}`,
      oneButton({ type: 'call', text: 'Call', phoneNumber }),
      'validation error: buttons[0].phoneNumber must be an international number: optional +, then 7 to 15 digits, not starting with 0',
    ]),
    [
      'call button without phone number',
      oneButton({ type: 'call', text: 'Call' }),
      'validation error: buttons[0].phoneNumber is required on call buttons',
    ],
    [
      'call button with a url',
      oneButton({ type: 'call', text: 'Call', phoneNumber: '+14155550123', url: 'https://x.example' }),
      'validation error: buttons[0].url is only allowed on url buttons',
    ],
    // recipient
    ['to as a group JID', body({ to: '120363025246125486@g.us' }), 'ok'],
    ['to as a LID', body({ to: '123456789012345@lid' }), 'ok'],
    ['to as a bare number', body({ to: '+14155550123' }), 'ok'],
    ['no to', body({ to: undefined }), 'validation error: to is required'],
    [
      'to that is no JID',
      body({ to: 'bob' }),
      'validation error: to must be a chat JID (<digits>@s.whatsapp.net, <id>@g.us, <id>@lid) or an international number',
    ],
    // common send options and unknown fields are refused
    ['mentions', body({ mentions: [TO] }), 'validation error: property mentions should not exist'],
    ['replyTo', body({ replyTo: '3EB0ABCDEF' }), 'validation error: property replyTo should not exist'],
    ['isForwarded', body({ isForwarded: true }), 'validation error: property isForwarded should not exist'],
    ['ephemeralExpiration', body({ ephemeralExpiration: '7d' }), 'validation error: property ephemeralExpiration should not exist'],
    [
      'all four common options',
      body({ mentions: [TO], replyTo: 'a', isForwarded: false, ephemeralExpiration: 'off' }),
      'validation error: property mentions should not exist; property replyTo should not exist; property isForwarded should not exist; property ephemeralExpiration should not exist',
    ],
    ['an unknown field', body({ colour: 'red' }), 'validation error: property colour should not exist'],
    [
      'an unknown field on a button',
      oneButton({ id: 'a', text: 'A', colour: 'red' }),
      'validation error: property buttons[0].colour should not exist',
    ],
    // several problems at once
    [
      'two violations',
      body({ text: x(1025), buttons: [reply('a', x(21))] }),
      'validation error: text must be at most 1024 characters; buttons[0].text must be at most 20 characters',
    ],
    // wrong JSON types
    ['text as a number', body({ text: 5 }), 'invalid request body'],
    ['to as a number', body({ to: 14155550123 }), 'invalid request body'],
    ['aiLabel as a string', body({ aiLabel: 'yes' }), 'invalid request body'],
    ['buttons as a string', body({ buttons: 'many' }), 'invalid request body'],
    ['buttons as an object', body({ buttons: { id: 'a', text: 'A' } }), 'invalid request body'],
    ['a button that is a string', body({ buttons: ['Yes'] }), 'invalid request body'],
    ['a button that is null', body({ buttons: [null] }), 'invalid request body'],
    ['a button nested in an array', body({ buttons: [[reply('a')]] }), 'invalid request body'],
    ['button type as a number', oneButton({ type: 1, id: 'a', text: 'A' }), 'invalid request body'],
    ['button id as a number', oneButton({ id: 1, text: 'A' }), 'invalid request body'],
    ['a wrong type next to a rule violation', body({ text: x(1025), aiLabel: 1 }), 'invalid request body'],
    ['a JSON array as the body', [body()], 'invalid request body'],
  ])('%s', async (_name, input, expected) => {
    expect(await outcome(SendButtonsDto, input)).toBe(expected);
  });

  it('hands the service JIDs and the defaults', async () => {
    const dto = (await pipe.transform(
      body({ to: '+14155550123', buttons: [reply('yes'), { type: 'url', text: 'Open', url: 'https://example.com' }] }),
      {
        type: 'body',
        metatype: SendButtonsDto,
      },
    )) as SendButtonsDto;
    expect(dto).toBeInstanceOf(SendButtonsDto);
    expect(dto.to).toBe('14155550123@s.whatsapp.net');
    expect(dto.aiLabel).toBe(false);
    expect(dto.buttons.map((button) => button.type)).toEqual(['reply', 'url']);
    expect(JSON.parse(JSON.stringify(dto))).toEqual({
      to: '14155550123@s.whatsapp.net',
      text: 'Confirm the booking?',
      aiLabel: false,
      buttons: [
        { type: 'reply', id: 'yes', text: 'Yes' },
        { type: 'url', text: 'Open', url: 'https://example.com' },
      ],
    });
  });
});
