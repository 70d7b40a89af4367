import { createValidationPipe } from '../../common/validation';
import { validationOutcome } from '../../common/validation-outcome.testing';
import { SendListDto } from './send-list.dto';

const pipe = createValidationPipe();
const outcome = validationOutcome;

const x = (n: number): string => 'x'.repeat(n);
const emoji = (n: number): string => '😀'.repeat(n);
const row = (id: string, title = 'Row', extra: Record<string, unknown> = {}): Record<string, unknown> => ({ id, title, ...extra });
/** `count` rows with ids `<prefix>1`.. so they never collide across sections. */
const rows = (count: number, prefix = 'r'): Record<string, unknown>[] => Array.from({ length: count }, (_, i) => row(`${prefix}${i + 1}`));
const section = (title: string | undefined, sectionRows: Record<string, unknown>[]): Record<string, unknown> =>
  title === undefined ? { rows: sectionRows } : { title, rows: sectionRows };
const titled = (count: number): Record<string, unknown>[] =>
  Array.from({ length: count }, (_, i) => section(`S${i + 1}`, rows(1, `s${i + 1}-`)));
const body = (overrides: Record<string, unknown> = {}): Record<string, unknown> => ({
  to: '14155550123@s.whatsapp.net',
  text: 'Pick a time slot',
  buttonText: 'See slots',
  sections: [section(undefined, [row('a', 'A')])],
  ...overrides,
});
const oneRow = (r: Record<string, unknown>): Record<string, unknown> => body({ sections: [section(undefined, [r])] });

describe('SendListDto', () => {
  it.each<[string, unknown, string]>([
    ['a single untitled section', body(), 'ok'],
    // text, header, footer, buttonText
    ['text of 1024 characters', body({ text: x(1024) }), 'ok'],
    ['text of 1025 characters', body({ text: x(1025) }), 'validation error: text must be at most 1024 characters'],
    ['text of 1025 emoji', body({ text: emoji(1025) }), 'validation error: text must be at most 1024 characters'],
    ['no text', body({ text: undefined }), 'validation error: text is required'],
    ['header of 60 characters', body({ header: x(60) }), 'ok'],
    ['header of 61 characters', body({ header: x(61) }), 'validation error: header must be at most 60 characters'],
    ['footer of 60 characters', body({ footer: x(60) }), 'ok'],
    ['footer of 61 characters', body({ footer: x(61) }), 'validation error: footer must be at most 60 characters'],
    ['buttonText of 20 characters', body({ buttonText: x(20) }), 'ok'],
    ['buttonText of 21 characters', body({ buttonText: x(21) }), 'validation error: buttonText must be at most 20 characters'],
    ['no buttonText', body({ buttonText: undefined }), 'validation error: buttonText is required'],
    ['empty buttonText', body({ buttonText: ' ' }), 'validation error: buttonText must not be empty'],
    ['aiLabel false', body({ aiLabel: false }), 'ok'],
    // sections
    ['no sections field', body({ sections: undefined }), 'validation error: sections is required'],
    ['0 sections', body({ sections: [] }), 'validation error: sections must have at least 1 item'],
    ['1 section', body({ sections: titled(1) }), 'ok'],
    ['10 sections', body({ sections: titled(10) }), 'ok'],
    [
      '11 sections',
      body({ sections: titled(11) }),
      'validation error: sections must have at most 10 items; sections must have at most 10 rows in total',
    ],
    // section titles
    ['one section with a title', body({ sections: [section('Morning', [row('a')])] }), 'ok'],
    ['one section with an empty title', body({ sections: [section('', [row('a')])] }), 'ok'],
    ['two titled sections', body({ sections: [section('Morning', [row('a')]), section('Evening', [row('b')])] }), 'ok'],
    [
      'two sections without titles',
      body({ sections: [section(undefined, [row('a')]), section(undefined, [row('b')])] }),
      'validation error: sections[0].title is required when there is more than one section; sections[1].title is required when there is more than one section',
    ],
    [
      'two sections, the second untitled',
      body({ sections: [section('Morning', [row('a')]), section(undefined, [row('b')])] }),
      'validation error: sections[1].title is required when there is more than one section',
    ],
    [
      'two sections, the second titled with spaces',
      body({ sections: [section('Morning', [row('a')]), section('  ', [row('b')])] }),
      'validation error: sections[1].title is required when there is more than one section',
    ],
    ['section title of 24 characters', body({ sections: [section(x(24), [row('a')])] }), 'ok'],
    [
      'section title of 25 characters',
      body({ sections: [section(x(25), [row('a')])] }),
      'validation error: sections[0].title must be at most 24 characters',
    ],
    // rows
    ['a section without rows field', body({ sections: [{ title: 'S' }] }), 'validation error: sections[0].rows is required'],
    ['a section with 0 rows', body({ sections: [section(undefined, [])] }), 'validation error: sections[0].rows must have at least 1 item'],
    [
      'the second section with 0 rows',
      body({ sections: [section('A', [row('a')]), section('B', [])] }),
      'validation error: sections[1].rows must have at least 1 item',
    ],
    ['10 rows in one section', body({ sections: [section(undefined, rows(10))] }), 'ok'],
    [
      '11 rows in one section',
      body({ sections: [section(undefined, rows(11))] }),
      'validation error: sections must have at most 10 rows in total',
    ],
    ['10 rows over two sections', body({ sections: [section('A', rows(5, 'a')), section('B', rows(5, 'b'))] }), 'ok'],
    [
      '11 rows over two sections',
      body({ sections: [section('A', rows(5, 'a')), section('B', rows(6, 'b'))] }),
      'validation error: sections must have at most 10 rows in total',
    ],
    ['row id of 200 characters', oneRow(row(x(200))), 'ok'],
    ['row id of 201 characters', oneRow(row(x(201))), 'validation error: sections[0].rows[0].id must be at most 200 characters'],
    ['row without id', oneRow({ title: 'A' }), 'validation error: sections[0].rows[0].id is required'],
    ['row with empty id', oneRow(row('')), 'validation error: sections[0].rows[0].id must not be empty'],
    ['row title of 24 characters', oneRow(row('a', x(24))), 'ok'],
    ['row title of 24 emoji', oneRow(row('a', emoji(24))), 'ok'],
    ['row title of 25 characters', oneRow(row('a', x(25))), 'validation error: sections[0].rows[0].title must be at most 24 characters'],
    ['row without title', oneRow({ id: 'a' }), 'validation error: sections[0].rows[0].title is required'],
    ['row description of 72 characters', oneRow(row('a', 'A', { description: x(72) })), 'ok'],
    [
      'row description of 73 characters',
      oneRow(row('a', 'A', { description: x(73) })),
      'validation error: sections[0].rows[0].description must be at most 72 characters',
    ],
    // unique row ids across the list
    [
      'duplicate row ids in one section',
      body({ sections: [section(undefined, [row('a'), row('b'), row('a')])] }),
      'validation error: sections[0].rows[2].id duplicates "a"',
    ],
    [
      'duplicate row ids across sections',
      body({ sections: [section('A', [row('slot-1'), row('slot-2')]), section('B', [row('slot-3'), row('slot-1')])] }),
      'validation error: sections[1].rows[1].id duplicates "slot-1"',
    ],
    ['the same row title twice', body({ sections: [section(undefined, [row('a', 'Same'), row('b', 'Same')])] }), 'ok'],
    // recipient
    ['to as a bare number', body({ to: '14155550123' }), 'ok'],
    [
      'to with letters',
      body({ to: 'abc@s.whatsapp.net' }),
      'validation error: to must be a chat JID (<digits>@s.whatsapp.net, <id>@g.us, <id>@lid) or an international number',
    ],
    // common send options and unknown fields are refused
    ['mentions', body({ mentions: ['14155550123@s.whatsapp.net'] }), 'validation error: property mentions should not exist'],
    ['replyTo', body({ replyTo: '3EB0ABCDEF' }), 'validation error: property replyTo should not exist'],
    ['isForwarded', body({ isForwarded: true }), 'validation error: property isForwarded should not exist'],
    ['ephemeralExpiration', body({ ephemeralExpiration: '24h' }), 'validation error: property ephemeralExpiration should not exist'],
    ['buttons (a buttons-message field)', body({ buttons: [] }), 'validation error: property buttons should not exist'],
    [
      'an unknown field on a section',
      body({ sections: [{ rows: [row('a')], colour: 'red' }] }),
      'validation error: property sections[0].colour should not exist',
    ],
    [
      'an unknown field on a row',
      oneRow(row('a', 'A', { image: 'x' })),
      'validation error: property sections[0].rows[0].image should not exist',
    ],
    // wrong JSON types
    ['sections as a string', body({ sections: 'all' }), 'invalid request body'],
    ['a section that is an array', body({ sections: [[row('a')]] }), 'invalid request body'],
    ['rows as an object', body({ sections: [{ rows: row('a') }] }), 'invalid request body'],
    ['a row that is a string', body({ sections: [{ rows: ['a'] }] }), 'invalid request body'],
    ['a row nested in an array', body({ sections: [{ rows: [[row('a')]] }] }), 'invalid request body'],
    ['a row id as a number', oneRow({ id: 1, title: 'A' }), 'invalid request body'],
    ['a section title as a number', body({ sections: [{ title: 1, rows: [row('a')] }] }), 'invalid request body'],
    ['buttonText as a boolean', body({ buttonText: true }), 'invalid request body'],
  ])('%s', async (_name, input, expected) => {
    expect(await outcome(SendListDto, input)).toBe(expected);
  });

  it('hands the service JIDs and the defaults', async () => {
    const dto = (await pipe.transform(body({ to: '+14155550123' }), { type: 'body', metatype: SendListDto })) as SendListDto;
    expect(JSON.parse(JSON.stringify(dto))).toEqual({
      to: '14155550123@s.whatsapp.net',
      text: 'Pick a time slot',
      buttonText: 'See slots',
      aiLabel: false,
      sections: [{ rows: [{ id: 'a', title: 'A' }] }],
    });
  });
});
