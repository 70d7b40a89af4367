import { Body, Controller, Post, type INestApplication, type Type } from '@nestjs/common';
import { Test } from '@nestjs/testing';
import { DocumentBuilder, SwaggerModule } from '@nestjs/swagger';
import type { SchemaObject } from '@nestjs/swagger/dist/interfaces/open-api-spec.interface';
import { createValidationPipe } from '../../common/validation';
import {
  DeleteMessageDto,
  DeleteMessageForMeDto,
  EditMessageDto,
  MarkAsReadDto,
  PinMessageDto,
  SendReactionDto,
  StarMessageDto,
} from './message-actions.dto';
import { SendButtonsDto } from './send-buttons.dto';
import { SendContactDto } from './send-contact.dto';
import { SendLinkDto } from './send-link.dto';
import { SendListDto } from './send-list.dto';
import { SendLocationDto } from './send-location.dto';
import { SendAudioDto, SendDocumentDto, SendImageDto, SendStickerDto, SendVideoDto, SendVoiceDto } from './send-media.dto';
import { SendTextDto } from './send-text.dto';
import { loadOpenApiMetadata } from '../../openapi-plugin-metadata';

const USER = '14155550123@s.whatsapp.net';
const GROUP = '120363025246125486@g.us';
const B64 = Buffer.from('example file').toString('base64');

/** A realistic, valid body for every request DTO (several follow the contract family's own examples). */
const EXAMPLES: [Type<unknown>, Record<string, unknown>][] = [
  [SendTextDto, { to: USER, message: 'Hello world!' }],
  [SendTextDto, { to: GROUP, text: 'Hi @1234567890', mentions: ['1234567890@s.whatsapp.net'] }],
  [SendTextDto, { to: USER, text: 'On it!', replyTo: '01234567890123456', replyToSenderId: '1234567890:12@s.whatsapp.net' }],
  [SendImageDto, { to: USER, url: 'https://example.com/cat.jpg', mimeType: 'image/jpeg', caption: 'Cat pic' }],
  [SendImageDto, { to: GROUP, data: B64, mimeType: 'image/png', caption: 'One-time secret', viewOnce: true }],
  [SendVideoDto, { to: USER, url: 'https://example.com/clip.mp4', mimeType: 'video/mp4', caption: 'Watch this' }],
  [SendAudioDto, { to: USER, url: 'https://example.com/audio.mp3', mimeType: 'audio/mpeg' }],
  [SendVoiceDto, { to: GROUP, data: B64 }],
  [SendDocumentDto, { to: USER, url: 'https://example.com/report.pdf', filename: 'report.pdf', caption: 'Monthly report' }],
  [SendStickerDto, { to: GROUP, data: B64, isAnimated: true }],
  [SendContactDto, { to: USER, displayName: 'Jane Doe' }],
  [SendContactDto, { to: GROUP, vcard: 'BEGIN:VCARD\nVERSION:3.0\nN:Doe;Jane;;;\nFN:Jane Doe\nTEL;TYPE=CELL:+19876543210\nEND:VCARD' }],
  [
    SendLocationDto,
    {
      to: GROUP,
      latitude: 51.5034,
      longitude: -0.1276,
      name: 'Big Ben',
      address: 'Westminster, London SW1A 0AA, UK',
      url: 'https://maps.google.com/?q=Big+Ben',
    },
  ],
  [
    SendLinkDto,
    {
      to: GROUP,
      text: 'Interesting read',
      url: 'https://example.com/blog/post-1',
      title: 'A neat blog post',
      description: 'This post explains things.',
    },
  ],
  [
    SendButtonsDto,
    {
      to: USER,
      text: 'Your table for 2 at 19:30 is held. Confirm?',
      header: 'Booking',
      footer: 'Reply within 1 hour',
      aiLabel: true,
      buttons: [
        { type: 'reply', id: 'confirm', text: 'Confirm' },
        { type: 'copy', text: 'Copy code', copyCode: 'BK-2041' },
        { type: 'call', text: 'Call us', phoneNumber: '+14155550123' },
      ],
    },
  ],
  [
    SendListDto,
    {
      to: USER,
      text: 'Pick a time slot',
      buttonText: 'See slots',
      sections: [
        {
          title: 'Morning',
          rows: [
            { id: 'slot-0900', title: '9:00', description: 'With Dr. Ames' },
            { id: 'slot-1000', title: '10:00' },
          ],
        },
        { title: 'Afternoon', rows: [{ id: 'slot-1400', title: '14:00' }] },
      ],
    },
  ],
  [EditMessageDto, { to: USER, text: 'Updated message' }],
  [DeleteMessageDto, { chatId: USER, senderId: USER }],
  [DeleteMessageForMeDto, { chatId: USER, senderId: USER, isFromMe: true, timestamp: '2025-05-19T00:51:44.816Z' }],
  [SendReactionDto, { to: GROUP, senderId: '9876543210@s.whatsapp.net', reaction: '\u2764\uFE0F' }],
  [SendReactionDto, { to: USER, senderId: USER, reaction: '' }],
  [MarkAsReadDto, { chatId: USER, senderId: USER, receiptType: 'read' }],
  [StarMessageDto, { chatId: USER, senderId: USER, starred: true }],
  [PinMessageDto, { chatId: USER, senderId: USER, pinned: true, pinExpiration: '7d' }],
];

describe('valid examples', () => {
  const pipe = createValidationPipe();

  it.each(EXAMPLES.map(([dto, body]) => [dto.name, dto, body] as const))('%s accepts %j', async (_name, dto, body) => {
    await expect(pipe.transform(body, { type: 'body', metatype: dto })).resolves.toBeInstanceOf(dto);
  });
});

@Controller()
class ExampleController {
  @Post('buttons')
  buttons(@Body() _body: SendButtonsDto): void {}

  @Post('list')
  list(@Body() _body: SendListDto): void {}

  @Post('text')
  text(@Body() _body: SendTextDto): void {}

  @Post('reaction')
  reaction(@Body() _body: SendReactionDto): void {}
}

describe('OpenAPI schemas (Swagger plugin + decorators)', () => {
  let app: INestApplication;
  let schemas: Record<string, SchemaObject>;

  beforeAll(async () => {
    await loadOpenApiMetadata();
    const moduleRef = await Test.createTestingModule({ controllers: [ExampleController] }).compile();
    app = moduleRef.createNestApplication({ logger: false });
    await app.init();
    const document = SwaggerModule.createDocument(app, new DocumentBuilder().build());
    schemas = (document.components?.schemas ?? {}) as Record<string, SchemaObject>;
  });

  afterAll(async () => {
    await app.close();
  });

  const property = (schema: string, name: string): SchemaObject => schemas[schema].properties?.[name] as SchemaObject;

  it('marks the required fields of a buttons message and its buttons', () => {
    expect(schemas.SendButtonsDto.required?.slice().sort()).toEqual(['buttons', 'text', 'to']);
    expect(schemas.InteractiveButtonDto.required).toEqual(['text']);
  });

  it('carries the character limits, enums, defaults and JSDoc descriptions', () => {
    expect(property('SendButtonsDto', 'text')).toMatchObject({ type: 'string', maxLength: 1024, minLength: 1 });
    expect(property('SendButtonsDto', 'header')).toMatchObject({ type: 'string', maxLength: 60 });
    expect(property('SendButtonsDto', 'buttons')).toMatchObject({ type: 'array', minItems: 1, maxItems: 3 });
    expect(property('InteractiveButtonDto', 'type')).toMatchObject({ enum: ['reply', 'url', 'copy', 'call'], default: 'reply' });
    expect(property('InteractiveButtonDto', 'url')).toMatchObject({ format: 'uri', pattern: '^https?://' });
    expect(property('InteractiveButtonDto', 'phoneNumber')).toMatchObject({ pattern: '^\\+?[1-9]\\d{6,14}$' });
    expect(property('InteractiveButtonDto', 'id').description).toMatch(/unique within the message/);
    expect(property('ListRowDto', 'id')).toMatchObject({ maxLength: 200 });
    expect(property('SendListDto', 'sections')).toMatchObject({ minItems: 1, maxItems: 10 });
    expect(property('SendTextDto', 'ephemeralExpiration')).toMatchObject({ enum: ['off', '24h', '7d', '90d'] });
    expect(property('SendTextDto', 'to').description).toMatch(/international number/);
    expect(schemas.SendReactionDto.required?.slice().sort()).toEqual(['reaction', 'to']);
  });

  it('leaves the common send options out of buttons and lists', () => {
    for (const schema of ['SendButtonsDto', 'SendListDto']) {
      expect(Object.keys(schemas[schema].properties ?? {})).not.toEqual(expect.arrayContaining(['mentions']));
      expect(
        Object.keys(schemas[schema].properties ?? {}).filter((name) =>
          ['mentions', 'replyTo', 'isForwarded', 'ephemeralExpiration'].includes(name),
        ),
      ).toEqual([]);
    }
  });
});
