import type { Type } from '@nestjs/common';
import { validationOutcome } from '../../common/validation-outcome.testing';
import { SendAudioDto, SendDocumentDto, SendImageDto, SendStickerDto, SendVideoDto, SendVoiceDto } from './send-media.dto';

const outcome = validationOutcome;

const x = (n: number): string => 'x'.repeat(n);
const TO = '14155550123@s.whatsapp.net';
const DATA = Buffer.from('not really a jpeg').toString('base64');

/** Every media kind, with what it needs besides `to` and the source. */
const KINDS: [string, Type<unknown>, Record<string, unknown>][] = [
  ['image', SendImageDto, {}],
  ['video', SendVideoDto, {}],
  ['audio', SendAudioDto, {}],
  ['voice', SendVoiceDto, {}],
  ['document', SendDocumentDto, { filename: 'report.pdf' }],
  ['sticker', SendStickerDto, {}],
];

describe.each(KINDS)('%s', (_kind, dto, required) => {
  const byUrl = (overrides: Record<string, unknown> = {}): Record<string, unknown> => ({
    to: TO,
    url: 'https://example.com/file',
    ...required,
    ...overrides,
  });
  const byData = (overrides: Record<string, unknown> = {}): Record<string, unknown> => ({ to: TO, data: DATA, ...required, ...overrides });

  it.each<[string, unknown, string]>([
    ['by url', byUrl(), 'ok'],
    ['by data', byData(), 'ok'],
    ['with neither url nor data', { to: TO, ...required }, 'validation error: url or data is required'],
    ['with both url and data', byUrl({ data: DATA }), 'validation error: url and data cannot both be given'],
    ['with an ftp url', byUrl({ url: 'ftp://example.com/file' }), 'validation error: url must be an http or https URL'],
    ['with a relative url', byUrl({ url: '/file.jpg' }), 'validation error: url must be an http or https URL'],
    ['with a url of 2048 characters', byUrl({ url: `https://example.com/${x(2048 - 20)}` }), 'ok'],
    [
      'with a url of 2049 characters',
      byUrl({ url: `https://example.com/${x(2049 - 20)}` }),
      'validation error: url must be at most 2048 characters',
    ],
    ['with common send options', byUrl({ mentions: [TO], replyTo: '3EB0AB', isForwarded: true, ephemeralExpiration: '7d' }), 'ok'],
    ['without to', { url: 'https://example.com/file', ...required }, 'validation error: to is required'],
    ['with an unknown field', byUrl({ colour: 'red' }), 'validation error: property colour should not exist'],
    ['with url as a number', byUrl({ url: 1 }), 'invalid request body'],
    ['with data as an array', byData({ data: [1, 2] }), 'invalid request body'],
  ])('%s', async (_name, input, expected) => {
    expect(await outcome(dto, input)).toBe(expected);
  });
});

describe('base64 data', () => {
  const withData = (data: string): Record<string, unknown> => ({ to: TO, data });
  it.each<[string, string, string]>([
    ['padded with ==', 'QQ==', 'ok'],
    ['padded with =', 'QUI=', 'ok'],
    ['without padding', 'QQ', 'ok'],
    ['of 4 characters', 'QUJD', 'ok'],
    ['with + and /', '+/+/', 'ok'],
    ['empty', '', 'validation error: data must be valid base64'],
    ['of one character', 'Q', 'validation error: data must be valid base64'],
    ['with wrong padding', 'QQ=', 'validation error: data must be valid base64'],
    ['with too much padding', 'QUJD==', 'validation error: data must be valid base64'],
    ['with three =', 'Q===', 'validation error: data must be valid base64'],
    ['with a data: prefix', 'data:image/png;base64,QQ==', 'validation error: data must be valid base64'],
    ['with a line break', 'QUJD\nQUJD', 'validation error: data must be valid base64'],
    ['in the url-safe alphabet', '-_-_', 'validation error: data must be valid base64'],
    ['that is plain text', 'not base64!', 'validation error: data must be valid base64'],
  ])('%s', async (_name, data, expected) => {
    expect(await outcome(SendImageDto, withData(data))).toBe(expected);
  });
});

describe('per-kind fields', () => {
  const image = (overrides: Record<string, unknown>): Record<string, unknown> => ({
    to: TO,
    url: 'https://example.com/a.jpg',
    ...overrides,
  });
  const doc = (overrides: Record<string, unknown>): Record<string, unknown> => ({ to: TO, data: DATA, filename: 'a.pdf', ...overrides });

  it.each<[string, Type<unknown>, unknown, string]>([
    // captions: image, video, document
    ['image caption of 1024 characters', SendImageDto, image({ caption: x(1024) }), 'ok'],
    [
      'image caption of 1025 characters',
      SendImageDto,
      image({ caption: x(1025) }),
      'validation error: caption must be at most 1024 characters',
    ],
    ['image caption of 1024 emoji', SendImageDto, image({ caption: '🐈'.repeat(1024) }), 'ok'],
    ['video caption of 1024 characters', SendVideoDto, image({ caption: x(1024) }), 'ok'],
    [
      'video caption of 1025 characters',
      SendVideoDto,
      image({ caption: x(1025) }),
      'validation error: caption must be at most 1024 characters',
    ],
    ['document caption of 1024 characters', SendDocumentDto, doc({ caption: x(1024) }), 'ok'],
    [
      'document caption of 1025 characters',
      SendDocumentDto,
      doc({ caption: x(1025) }),
      'validation error: caption must be at most 1024 characters',
    ],
    ['audio caption', SendAudioDto, image({ caption: 'hi' }), 'validation error: property caption should not exist'],
    ['voice caption', SendVoiceDto, image({ caption: 'hi' }), 'validation error: property caption should not exist'],
    ['sticker caption', SendStickerDto, image({ caption: 'hi' }), 'validation error: property caption should not exist'],
    // viewOnce: image, video, audio, voice
    ['view-once image', SendImageDto, image({ viewOnce: true }), 'ok'],
    ['view-once video', SendVideoDto, image({ viewOnce: true }), 'ok'],
    ['view-once audio', SendAudioDto, image({ viewOnce: true }), 'ok'],
    ['view-once voice', SendVoiceDto, image({ viewOnce: false }), 'ok'],
    ['view-once document', SendDocumentDto, doc({ viewOnce: true }), 'validation error: property viewOnce should not exist'],
    ['view-once sticker', SendStickerDto, image({ viewOnce: true }), 'validation error: property viewOnce should not exist'],
    ['viewOnce as a string', SendImageDto, image({ viewOnce: 'yes' }), 'invalid request body'],
    // mimeType
    ['image/png on an image', SendImageDto, image({ mimeType: 'image/png' }), 'ok'],
    ['video/mp4 on an image', SendImageDto, image({ mimeType: 'video/mp4' }), 'validation error: mimeType must be an image/* MIME type'],
    ['video/mp4 on a video', SendVideoDto, image({ mimeType: 'video/mp4' }), 'ok'],
    ['image/gif on a video', SendVideoDto, image({ mimeType: 'image/gif' }), 'validation error: mimeType must be a video/* MIME type'],
    ['audio/mpeg on audio', SendAudioDto, image({ mimeType: 'audio/mpeg' }), 'ok'],
    ['video/mp4 on audio', SendAudioDto, image({ mimeType: 'video/mp4' }), 'validation error: mimeType must be an audio/* MIME type'],
    ['audio/ogg with codecs on voice', SendVoiceDto, image({ mimeType: 'audio/ogg; codecs=opus' }), 'ok'],
    ['text/plain on voice', SendVoiceDto, image({ mimeType: 'text/plain' }), 'validation error: mimeType must be an audio/* MIME type'],
    [
      'any MIME type on a document',
      SendDocumentDto,
      doc({ mimeType: 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet' }),
      'ok',
    ],
    [
      'a file extension as a document MIME type',
      SendDocumentDto,
      doc({ mimeType: 'pdf' }),
      'validation error: mimeType must be a MIME type such as application/pdf',
    ],
    [
      'an empty document MIME type',
      SendDocumentDto,
      doc({ mimeType: '' }),
      'validation error: mimeType must be a MIME type such as application/pdf',
    ],
    ['mimeType on a sticker', SendStickerDto, image({ mimeType: 'image/webp' }), 'validation error: property mimeType should not exist'],
    // document filename
    ['document without filename', SendDocumentDto, { to: TO, data: DATA }, 'validation error: filename is required'],
    ['document filename of 255 characters', SendDocumentDto, doc({ filename: x(255) }), 'ok'],
    [
      'document filename of 256 characters',
      SendDocumentDto,
      doc({ filename: x(256) }),
      'validation error: filename must be at most 255 characters',
    ],
    ['empty document filename', SendDocumentDto, doc({ filename: '' }), 'validation error: filename must not be empty'],
    ['filename on an image', SendImageDto, image({ filename: 'a.jpg' }), 'validation error: property filename should not exist'],
    // sticker
    ['animated sticker', SendStickerDto, image({ isAnimated: true }), 'ok'],
    ['isAnimated as a string', SendStickerDto, image({ isAnimated: 'yes' }), 'invalid request body'],
    ['isAnimated on an image', SendImageDto, image({ isAnimated: true }), 'validation error: property isAnimated should not exist'],
  ])('%s', async (_name, dto, input, expected) => {
    expect(await outcome(dto, input)).toBe(expected);
  });
});
