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
import type { SendButtonsDto } from './dto/send-buttons.dto';
import type { SendContactDto } from './dto/send-contact.dto';
import type { SendLinkDto } from './dto/send-link.dto';
import type { SendListDto } from './dto/send-list.dto';
import type { SendLocationDto } from './dto/send-location.dto';
import { EPHEMERAL_SECONDS, type EphemeralOptionDto, type SendOptionsDto } from './dto/send-options.dto';
import type { SendTextDto } from './dto/send-text.dto';

/** Leaves out what was not given, so stored payloads and the network's view carry only real fields. */
function defined(fields: Record<string, unknown>): Record<string, unknown> {
  return Object.fromEntries(Object.entries(fields).filter(([, value]) => value !== undefined && value !== null && value !== ''));
}

function ephemeral(dto: EphemeralOptionDto): Record<string, unknown> {
  return dto.ephemeralExpiration ? { ephemeralExpiration: EPHEMERAL_SECONDS[dto.ephemeralExpiration] } : {};
}

/** The common send options as the network takes them (timers in seconds). */
export function sendOptions(dto: SendOptionsDto): Record<string, unknown> {
  return {
    ...(dto.mentions?.length ? { mentions: dto.mentions } : {}),
    ...defined({ replyTo: dto.replyTo, replyToSenderId: dto.replyToSenderId }),
    ...(dto.isForwarded ? { isForwarded: true } : {}),
    ...ephemeral(dto),
  };
}

export function textRequest(dto: SendTextDto): SendRequest {
  return { kind: 'text', chatJid: dto.to, payload: { text: dto.message ?? dto.text, ...sendOptions(dto) }, body: dto };
}

export function buttonsRequest(dto: SendButtonsDto): SendRequest {
  const buttons = dto.buttons.map((button) =>
    defined({
      type: button.type ?? 'reply',
      text: button.text,
      id: button.id,
      url: button.url,
      copyCode: button.copyCode,
      phoneNumber: button.phoneNumber,
    }),
  );
  return {
    kind: 'buttons',
    chatJid: dto.to,
    payload: { ...defined({ text: dto.text, header: dto.header, footer: dto.footer }), aiLabel: dto.aiLabel ?? false, buttons },
    body: dto,
  };
}

export function listRequest(dto: SendListDto): SendRequest {
  const sections = dto.sections.map((section) => ({
    ...defined({ title: section.title }),
    rows: section.rows.map((row) => defined({ id: row.id, title: row.title, description: row.description })),
  }));
  return {
    kind: 'list',
    chatJid: dto.to,
    payload: {
      ...defined({ text: dto.text, header: dto.header, footer: dto.footer }),
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
  const payload = { targetId, ...defined({ senderId: dto.senderId, isFromMe: dto.isFromMe, timestamp: dto.timestamp }) };
  return { kind: 'delete_for_me', chatJid: dto.chatId, payload, body: { targetId, ...dto } };
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
  const payload = { targetId, senderId: dto.senderId, pinned, ...(pinned ? { pinExpiration: dto.pinExpiration ?? '7d' } : {}) };
  return { kind: 'pin', chatJid: dto.chatId, payload, body: { targetId, ...dto } };
}
