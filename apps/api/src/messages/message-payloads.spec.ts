import type { Type } from '@nestjs/common';
import { decodeStoredSend, storedPayloadJson, type InstanceScope } from '@app/contracts';
import type { MediaRepository } from '@app/database';
import { createValidationPipe } from '../common/validation';
import type { PublicUrls } from '../common/public-urls';
import {
  DeleteMessageDto,
  DeleteMessageForMeDto,
  EditMessageDto,
  MarkAsReadDto,
  PinMessageDto,
  SendReactionDto,
  StarMessageDto,
} from './dto/message-actions.dto';
import { SendButtonsDto } from './dto/send-buttons.dto';
import { SendContactDto } from './dto/send-contact.dto';
import { SendLinkDto } from './dto/send-link.dto';
import { SendListDto } from './dto/send-list.dto';
import { SendLocationDto } from './dto/send-location.dto';
import { SendAudioDto, SendDocumentDto, SendImageDto, SendStickerDto, SendVideoDto, SendVoiceDto } from './dto/send-media.dto';
import { SendTextDto } from './dto/send-text.dto';
import { MediaSends } from './media-sends';
import {
  buttonsRequest,
  contactRequest,
  deleteForMeRequest,
  deleteRequest,
  editRequest,
  linkRequest,
  listRequest,
  locationRequest,
  pinRequest,
  reactionRequest,
  readRequest,
  starRequest,
  textRequest,
} from './message-payloads';
import type { MessagesService, SendRequest } from './messages.service';

/**
 * The stored payload of every kind, as the gateway has always written it into `messages.payload`: a send accepted
 * before an upgrade is read by the next version's worker, so these shapes only ever grow.
 */
const pipe = createValidationPipe();
const validated = async <T>(metatype: Type<T>, body: object): Promise<T> => (await pipe.transform(body, { type: 'body', metatype })) as T;

const TO = '14155550123@s.whatsapp.net';
const OTHER = '447700900555@s.whatsapp.net';
const GROUP = '120363025246125486@g.us';
const TARGET = '3EB0AAAAAAAAAAAAAAAAAA';
/** The stored send, after checking that the worker's decoder reads it back, as stored (with `v`) and as 04332bd stored it. */
const stored = (request: SendRequest) => {
  const send = { kind: request.kind, chatJid: request.chatJid, payload: request.payload };
  expect(decodeStoredSend(send.kind, send.chatJid, JSON.parse(JSON.stringify(send.payload)))).toEqual(send);
  expect(decodeStoredSend(send.kind, send.chatJid, JSON.parse(storedPayloadJson(send.payload)))).toEqual(send);
  return send;
};

describe('stored send payloads', () => {
  it('text: the body under `text` (from `message` or `text`) and only the options given', async () => {
    expect(stored(textRequest(await validated(SendTextDto, { to: TO, message: 'Hi' })))).toEqual({
      kind: 'text',
      chatJid: TO,
      payload: { text: 'Hi' },
    });
    const dto = await validated(SendTextDto, {
      to: TO,
      text: 'Hi all',
      mentions: ['+447700900555'],
      replyTo: TARGET,
      replyToSenderId: '447700900555',
      isForwarded: true,
      ephemeralExpiration: '24h',
    });
    expect(stored(textRequest(dto))).toEqual({
      kind: 'text',
      chatJid: TO,
      payload: {
        text: 'Hi all',
        mentions: [OTHER],
        replyTo: TARGET,
        replyToSenderId: OTHER,
        isForwarded: true,
        ephemeralExpiration: 86_400,
      },
    });
    const off = await validated(SendTextDto, { to: TO, message: 'x', isForwarded: false, ephemeralExpiration: 'off', mentions: [] });
    // `off` is a timer of 0 seconds: stored, and the network takes it as no timer.
    expect(textRequest(off).payload).toEqual({ text: 'x', ephemeralExpiration: 0 });
  });

  it('buttons: every button with its type, empty header and footer left out, aiLabel always written', async () => {
    const dto = await validated(SendButtonsDto, {
      to: TO,
      text: 'Confirm?',
      header: '',
      footer: 'Thanks',
      buttons: [
        { id: 'yes', text: 'Yes' },
        { type: 'url', text: 'Details', url: 'https://example.com/b/1' },
        { type: 'copy', text: 'Code', copyCode: 'SAVE20' },
      ],
    });
    expect(stored(buttonsRequest(dto))).toEqual({
      kind: 'buttons',
      chatJid: TO,
      payload: {
        text: 'Confirm?',
        footer: 'Thanks',
        aiLabel: false,
        buttons: [
          { type: 'reply', text: 'Yes', id: 'yes' },
          { type: 'url', text: 'Details', url: 'https://example.com/b/1' },
          { type: 'copy', text: 'Code', copyCode: 'SAVE20' },
        ],
      },
    });
    const call = await validated(SendButtonsDto, {
      to: TO,
      text: 'Call?',
      header: 'Support',
      aiLabel: true,
      buttons: [{ type: 'call', text: 'Call us', phoneNumber: '+14155550123' }],
    });
    expect(buttonsRequest(call).payload).toEqual({
      text: 'Call?',
      header: 'Support',
      aiLabel: true,
      buttons: [{ type: 'call', text: 'Call us', phoneNumber: '+14155550123' }],
    });
  });

  it('list: sections with their rows, titles and descriptions only when given', async () => {
    const dto = await validated(SendListDto, {
      to: TO,
      text: 'Pick a slot',
      buttonText: 'See slots',
      footer: 'Front desk',
      sections: [
        {
          title: 'Morning',
          rows: [
            { id: 'a', title: '9:00', description: 'Early' },
            { id: 'b', title: '10:00' },
          ],
        },
        { title: 'Afternoon', rows: [{ id: 'c', title: '14:00', description: '' }] },
      ],
    });
    expect(stored(listRequest(dto))).toEqual({
      kind: 'list',
      chatJid: TO,
      payload: {
        text: 'Pick a slot',
        footer: 'Front desk',
        buttonText: 'See slots',
        aiLabel: false,
        sections: [
          {
            title: 'Morning',
            rows: [
              { id: 'a', title: '9:00', description: 'Early' },
              { id: 'b', title: '10:00' },
            ],
          },
          { title: 'Afternoon', rows: [{ id: 'c', title: '14:00' }] },
        ],
      },
    });
  });

  it('contact, location and link', async () => {
    const contact = await validated(SendContactDto, { to: TO, displayName: 'Jane', isForwarded: true });
    expect(stored(contactRequest(contact))).toEqual({ kind: 'contact', chatJid: TO, payload: { displayName: 'Jane', isForwarded: true } });
    const vcard = 'BEGIN:VCARD\nVERSION:3.0\nFN:Jane\nEND:VCARD';
    expect(contactRequest(await validated(SendContactDto, { to: TO, vcard })).payload).toEqual({ vcard });

    const location = await validated(SendLocationDto, {
      to: GROUP,
      latitude: 51.5007,
      longitude: -0.1246,
      name: 'Big Ben',
      address: '',
      ephemeralExpiration: '7d',
    });
    expect(stored(locationRequest(location))).toEqual({
      kind: 'location',
      chatJid: GROUP,
      payload: { latitude: 51.5007, longitude: -0.1246, name: 'Big Ben', ephemeralExpiration: 604_800 },
    });

    const link = await validated(SendLinkDto, {
      to: TO,
      text: 'See',
      url: 'https://example.com',
      title: 'Example',
      jpegThumbnail: '/9j/4AAQ',
      replyTo: TARGET,
    });
    expect(stored(linkRequest(link))).toEqual({
      kind: 'link',
      chatJid: TO,
      payload: { text: 'See', url: 'https://example.com', title: 'Example', jpegThumbnail: '/9j/4AAQ', replyTo: TARGET },
    });
  });

  it('operations on a message: the target id with what the network needs to act on it', async () => {
    const edit = await validated(EditMessageDto, { to: TO, text: 'Fixed', mentions: ['447700900555'], ephemeralExpiration: '24h' });
    expect(stored(editRequest(TARGET, edit))).toEqual({
      kind: 'edit',
      chatJid: TO,
      payload: { targetId: TARGET, text: 'Fixed', mentions: [OTHER] },
    });
    const revoke = await validated(DeleteMessageDto, { chatId: GROUP, senderId: OTHER });
    expect(stored(deleteRequest(TARGET, revoke))).toEqual({
      kind: 'delete',
      chatJid: GROUP,
      payload: { targetId: TARGET, senderId: OTHER },
    });
    const react = await validated(SendReactionDto, { to: TO, reaction: '' });
    expect(stored(reactionRequest(TARGET, react))).toEqual({ kind: 'reaction', chatJid: TO, payload: { targetId: TARGET, reaction: '' } });
    const reactAs = await validated(SendReactionDto, { to: GROUP, reaction: '👍', senderId: OTHER });
    expect(reactionRequest(TARGET, reactAs).payload).toEqual({ targetId: TARGET, reaction: '👍', senderId: OTHER });

    const forMe = await validated(DeleteMessageForMeDto, { chatId: TO, isFromMe: false, timestamp: '2025-05-19T00:51:44.816Z' });
    expect(stored(deleteForMeRequest(TARGET, forMe))).toEqual({
      kind: 'delete_for_me',
      chatJid: TO,
      payload: { targetId: TARGET, isFromMe: false, timestamp: '2025-05-19T00:51:44.816Z' },
    });
    const read = await validated(MarkAsReadDto, { chatId: TO, senderId: TO, receiptType: 'played' });
    expect(stored(readRequest(TARGET, read))).toEqual({
      kind: 'read',
      chatJid: TO,
      payload: { targetId: TARGET, senderId: TO, receiptType: 'played' },
    });
    const star = await validated(StarMessageDto, { chatId: TO, senderId: TO });
    expect(stored(starRequest(TARGET, star))).toEqual({
      kind: 'star',
      chatJid: TO,
      payload: { targetId: TARGET, senderId: TO, starred: true },
    });
    const pin = await validated(PinMessageDto, { chatId: TO, senderId: TO });
    expect(stored(pinRequest(TARGET, pin))).toEqual({
      kind: 'pin',
      chatJid: TO,
      payload: { targetId: TARGET, senderId: TO, pinned: true, pinExpiration: '7d' },
    });
    const unpin = await validated(PinMessageDto, { chatId: TO, senderId: TO, pinned: false });
    expect(pinRequest(TARGET, unpin).payload).toEqual({ targetId: TARGET, senderId: TO, pinned: false });
  });

  describe('media', () => {
    const scope = { instanceId: 'inst_1' } as InstanceScope;
    const blob = { blobId: 'med_1', mimeType: 'image/png', size: 3, sha256: 'abc' };
    let accepted: SendRequest[];
    const sends = () => {
      accepted = [];
      const messages = {
        acceptDetailed: (_scope: InstanceScope, request: SendRequest) => {
          accepted.push(request);
          return Promise.resolve({ id: '3EB0MEDIA', replayed: false });
        },
      } as unknown as MessagesService;
      const urls = { assertPublic: () => Promise.resolve() } as unknown as PublicUrls;
      const media = { store: () => Promise.resolve(blob) } as unknown as MediaRepository;
      return new MediaSends(urls, messages, media);
    };

    it('the media source (stored bytes or URL) with the fields of the kind that were given', async () => {
      const service = sends();
      const image = await validated(SendImageDto, {
        to: TO,
        data: 'AQID',
        mimeType: 'image/png',
        caption: 'Look',
        viewOnce: true,
        isForwarded: true,
      });
      await service.send(scope, { kind: 'image', dto: image });
      const video = await validated(SendVideoDto, { to: TO, url: 'https://example.com/v.mp4', caption: '', viewOnce: false });
      await service.send(scope, { kind: 'video', dto: video });
      const audio = await validated(SendAudioDto, { to: TO, url: 'https://example.com/a.mp3', mimeType: 'audio/mpeg', mentions: [OTHER] });
      await service.send(scope, { kind: 'audio', dto: audio });
      const voice = await validated(SendVoiceDto, { to: GROUP, url: 'https://example.com/v.ogg', ephemeralExpiration: '90d' });
      await service.send(scope, { kind: 'voice', dto: voice });
      const document = await validated(SendDocumentDto, { to: TO, url: 'https://example.com/r.pdf', filename: 'r.pdf', caption: 'Q1' });
      await service.send(scope, { kind: 'document', dto: document });
      const sticker = await validated(SendStickerDto, { to: TO, url: 'https://example.com/s.webp', isAnimated: false, replyTo: TARGET });
      await service.send(scope, { kind: 'sticker', dto: sticker });

      expect(accepted.map(stored)).toEqual([
        { kind: 'image', chatJid: TO, payload: { media: blob, caption: 'Look', viewOnce: true, isForwarded: true } },
        { kind: 'video', chatJid: TO, payload: { media: { url: 'https://example.com/v.mp4' }, viewOnce: false } },
        {
          kind: 'audio',
          chatJid: TO,
          payload: { media: { url: 'https://example.com/a.mp3', mimeType: 'audio/mpeg' }, mentions: [OTHER] },
        },
        { kind: 'voice', chatJid: GROUP, payload: { media: { url: 'https://example.com/v.ogg' }, ephemeralExpiration: 7_776_000 } },
        { kind: 'document', chatJid: TO, payload: { media: { url: 'https://example.com/r.pdf' }, filename: 'r.pdf', caption: 'Q1' } },
        { kind: 'sticker', chatJid: TO, payload: { media: { url: 'https://example.com/s.webp' }, isAnimated: false, replyTo: TARGET } },
      ]);
    });
  });
});
