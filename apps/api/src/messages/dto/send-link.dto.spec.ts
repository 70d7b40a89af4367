import { validationOutcome } from '../../common/validation-outcome.testing';
import { SendLinkDto } from './send-link.dto';

const outcome = validationOutcome;

const x = (n: number): string => 'x'.repeat(n);
const TO = '14155550123@s.whatsapp.net';
const link = (overrides: Record<string, unknown> = {}): Record<string, unknown> => ({
  to: TO,
  text: 'Worth a read',
  url: 'https://example.com/article',
  ...overrides,
});

describe('SendLinkDto', () => {
  it.each<[string, unknown, string]>([
    ['text and url', link(), 'ok'],
    ['a full preview', link({ title: 'A post', description: 'It explains things.', jpegThumbnail: '/9j/4AAQSkZJRgABAQ==' }), 'ok'],
    ['no text', link({ text: undefined }), 'validation error: text is required'],
    ['empty text', link({ text: '' }), 'validation error: text must not be empty'],
    ['text of 4096 characters', link({ text: x(4096) }), 'ok'],
    ['text of 4097 characters', link({ text: x(4097) }), 'validation error: text must be at most 4096 characters'],
    ['no url', link({ url: undefined }), 'validation error: url is required'],
    ['a javascript url', link({ url: 'javascript:alert(1)' }), 'validation error: url must be an http or https URL'],
    ['a url without scheme', link({ url: 'example.com/article' }), 'validation error: url must be an http or https URL'],
    ['title of 256 characters', link({ title: x(256) }), 'ok'],
    ['title of 257 characters', link({ title: x(257) }), 'validation error: title must be at most 256 characters'],
    ['description of 1024 characters', link({ description: x(1024) }), 'ok'],
    ['description of 1025 characters', link({ description: x(1025) }), 'validation error: description must be at most 1024 characters'],
    [
      'a thumbnail that is not base64',
      link({ jpegThumbnail: 'http://example.com/t.jpg' }),
      'validation error: jpegThumbnail must be valid base64',
    ],
    ['common send options', link({ mentions: ['14155550124'], isForwarded: false, ephemeralExpiration: 'off' }), 'ok'],
    ['an unknown field', link({ image: 'x' }), 'validation error: property image should not exist'],
    ['url as an object', link({ url: { href: 'https://example.com' } }), 'invalid request body'],
  ])('%s', async (_name, input, expected) => {
    expect(await outcome(SendLinkDto, input)).toBe(expected);
  });
});
