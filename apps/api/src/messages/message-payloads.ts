import type { EphemeralPayload, InteractiveButton, ListSection, MediaSource, SendOptionsPayload } from '@app/contracts';
import type { SendRequest } from './messages.service';
import type {
  DeleteMessageDto,
  DeleteMessageForMeDto,
  EditMessageDto,
  MarkAsReadDto,
  PinMessageDto,
  SendReactionDto,
  StarMessageDto,
} from './dto/message-actions.dto';
import type { InteractiveButtonDto, SendButtonsDto } from './dto/send-buttons.dto';
import type { SendContactDto } from './dto/send-contact.dto';
import type { SendLinkDto } from './dto/send-link.dto';
import type { SendListDto } from './dto/send-list.dto';
import type { SendLocationDto } from './dto/send-location.dto';
import type { SendAudioDto, SendDocumentDto, SendImageDto, SendStickerDto, SendVideoDto, SendVoiceDto } from './dto/send-media.dto';
import { EPHEMERAL_SECONDS, type EphemeralOptionDto, type SendOptionsDto } from './dto/send-options.dto';
import type { SendTextDto } from './dto/send-text.dto';

/** What was not given (undefined, null or empty), left out: stored payloads and the network's view carry only real fields. */
type Given<T> = { [K in keyof T]?: Exclude<T[K], null | undefined> };

function defined<T extends object>(fields: T): Given<T> {
  return Object.fromEntries(
    Object.entries(fields).filter(([, value]) => value !== undefined && value !== null && value !== ''),
  ) as Given<T>;
}

/** A field the DTO's validators require here, which its declared type cannot say (it depends on another field). */
function validated<T>(value: T | null | undefined, field: string): T {
  if (value === undefined || value === null) throw new Error(`${field} passed validation without a value`);
  return value;
}

function ephemeral(dto: EphemeralOptionDto): EphemeralPayload {
  return dto.ephemeralExpiration ? { ephemeralExpiration: EPHEMERAL_SECONDS[dto.ephemeralExpiration] } : {};
}

/** The common send options as the network takes them (timers in seconds). */
export function sendOptions(dto: SendOptionsDto): SendOptionsPayload {
  return {
    ...(dto.mentions?.length ? { mentions: dto.mentions } : {}),
    ...defined({ replyTo: dto.replyTo, replyToSenderId: dto.replyToSenderId }),
    ...(dto.isForwarded ? { isForwarded: true } : {}),
    ...ephemeral(dto),
  };
}

export function textRequest(dto: SendTextDto): SendRequest {
  const text = validated(dto.message ?? dto.text, 'message');
  return { kind: 'text', chatJid: dto.to, payload: { text, ...sendOptions(dto) }, body: dto };
}

/** Each button with the one field of its type (the validators refuse the fields of other types). */
function button(dto: InteractiveButtonDto): InteractiveButton {
  const text = dto.text;
  switch (dto.type ?? 'reply') {
    case 'reply':
      return { type: 'reply', text, id: validated(dto.id, 'id') };
    case 'url':
      return { type: 'url', text, url: validated(dto.url, 'url') };
    case 'copy':
      return { type: 'copy', text, copyCode: validated(dto.copyCode, 'copyCode') };
    case 'call':
      return { type: 'call', text, phoneNumber: validated(dto.phoneNumber, 'phoneNumber') };
  }
}

export function buttonsRequest(dto: SendButtonsDto): SendRequest {
  return {
    kind: 'buttons',
    chatJid: dto.to,
    payload: {
      text: dto.text,
      ...defined({ header: dto.header, footer: dto.footer }),
      aiLabel: dto.aiLabel ?? false,
      buttons: dto.buttons.map(button),
    },
    body: dto,
  };
}

export function listRequest(dto: SendListDto): SendRequest {
  const sections = dto.sections.map((section): ListSection => ({
    ...defined({ title: section.title }),
    rows: section.rows.map((row) => ({ id: row.id, title: row.title, ...defined({ description: row.description }) })),
  }));
  return {
    kind: 'list',
    chatJid: dto.to,
    payload: {
      text: dto.text,
      ...defined({ header: dto.header, footer: dto.footer }),
      buttonText: dto.buttonText,
      aiLabel: dto.aiLabel ?? false,
      sections,
    },
    body: dto,
  };
}

export function contactRequest(dto: SendContactDto): SendRequest {
  return {
    kind: 'contact',
    chatJid: dto.to,
    payload: { ...defined({ displayName: dto.displayName, vcard: dto.vcard }), ...sendOptions(dto) },
    body: dto,
  };
}

export function locationRequest(dto: SendLocationDto): SendRequest {
  const place = defined({ name: dto.name, address: dto.address, url: dto.url });
  return {
    kind: 'location',
    chatJid: dto.to,
    payload: { latitude: dto.latitude, longitude: dto.longitude, ...place, ...ephemeral(dto) },
    body: dto,
  };
}

export function linkRequest(dto: SendLinkDto): SendRequest {
  const preview = defined({ title: dto.title, description: dto.description, jpegThumbnail: dto.jpegThumbnail });
  return { kind: 'link', chatJid: dto.to, payload: { text: dto.text, url: dto.url, ...preview, ...sendOptions(dto) }, body: dto };
}

/** A media send's validated request, by kind. */
export type MediaRequest =
  | { kind: 'image'; dto: SendImageDto }
  | { kind: 'video'; dto: SendVideoDto }
  | { kind: 'audio'; dto: SendAudioDto }
  | { kind: 'voice'; dto: SendVoiceDto }
  | { kind: 'document'; dto: SendDocumentDto }
  | { kind: 'sticker'; dto: SendStickerDto };

/** A media send with its content already placed: bytes stored with the message, or the URL the worker fetches. */
export function mediaRequest(request: MediaRequest, media: MediaSource): SendRequest {
  const { dto } = request;
  const common = { media, ...sendOptions(dto) };
  const send = { chatJid: dto.to, body: dto };
  switch (request.kind) {
    case 'image':
    case 'video': {
      const extras = defined({ caption: request.dto.caption, viewOnce: request.dto.viewOnce });
      return { ...send, kind: request.kind, payload: { ...common, ...extras } };
    }
    case 'audio':
    case 'voice':
      return { ...send, kind: request.kind, payload: { ...common, ...defined({ viewOnce: request.dto.viewOnce }) } };
    case 'document':
      return {
        ...send,
        kind: 'document',
        payload: { ...common, filename: request.dto.filename, ...defined({ caption: request.dto.caption }) },
      };
    case 'sticker':
      return { ...send, kind: 'sticker', payload: { ...common, ...defined({ isAnimated: request.dto.isAnimated }) } };
  }
}

export function editRequest(targetId: string, dto: EditMessageDto): SendRequest {
  return {
    kind: 'edit',
    chatJid: dto.to,
    payload: { targetId, text: dto.text, ...(dto.mentions?.length ? { mentions: dto.mentions } : {}) },
    body: { targetId, ...dto },
  };
}

export function deleteRequest(targetId: string, dto: DeleteMessageDto): SendRequest {
  return { kind: 'delete', chatJid: dto.chatId, payload: { targetId, senderId: dto.senderId }, body: { targetId, ...dto } };
}

export function reactionRequest(targetId: string, dto: SendReactionDto): SendRequest {
  return {
    kind: 'reaction',
    chatJid: dto.to,
    payload: { targetId, reaction: dto.reaction, ...defined({ senderId: dto.senderId }) },
    body: { targetId, ...dto },
  };
}

export function deleteForMeRequest(targetId: string, dto: DeleteMessageForMeDto): SendRequest {
  return {
    kind: 'delete_for_me',
    chatJid: dto.chatId,
    payload: { targetId, ...defined({ senderId: dto.senderId, isFromMe: dto.isFromMe, timestamp: dto.timestamp }) },
    body: { targetId, ...dto },
  };
}

export function readRequest(targetId: string, dto: MarkAsReadDto): SendRequest {
  return {
    kind: 'read',
    chatJid: dto.chatId,
    payload: { targetId, senderId: dto.senderId, receiptType: dto.receiptType },
    body: { targetId, ...dto },
  };
}

export function starRequest(targetId: string, dto: StarMessageDto): SendRequest {
  return {
    kind: 'star',
    chatJid: dto.chatId,
    payload: { targetId, senderId: dto.senderId, starred: dto.starred ?? true },
    body: { targetId, ...dto },
  };
}

export function pinRequest(targetId: string, dto: PinMessageDto): SendRequest {
  const pinned = dto.pinned ?? true;
  return {
    kind: 'pin',
    chatJid: dto.chatId,
    payload: { targetId, senderId: dto.senderId, pinned, ...(pinned ? { pinExpiration: dto.pinExpiration ?? '7d' } : {}) },
    body: { targetId, ...dto },
  };
}
