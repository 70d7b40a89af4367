import { MEDIA_TYPES, type MediaDescriptor, type MediaType } from '@app/contracts';
import type { SandboxMessageRecord } from '@app/database';
import type { MessageContent, MessageInput, Party } from '../events/normalise';

/** Messages that only change another message; history shows their effect, not them. */
export const NOT_IN_HISTORY = new Set(['reaction', 'pinInChat']);

/** How long a pin lasts, by the expiry a client or contact chose. */
export const PIN_SECONDS: Record<string, number> = { '24h': 86_400, '7d': 604_800, '30d': 2_592_000 };

/** What turning a stored message into an event needs to know beyond the message itself. */
export interface MessageContext {
  /** This instance's own user JID. */
  self: string;
  /** A person with the LID the simulated network knows for them. */
  party(jid: string): Party;
  /** Another stored message of the same instance (the one a reply quotes). */
  lookup(id: string): SandboxMessageRecord | undefined;
}

const MEDIA = new Set<string>(MEDIA_TYPES);

function str(value: unknown): string | undefined {
  return typeof value === 'string' ? value : undefined;
}

function num(value: unknown): number | undefined {
  return typeof value === 'number' ? value : undefined;
}

function media(type: MediaType, content: Record<string, unknown>): MediaDescriptor {
  const file = (content.media as Record<string, unknown> | undefined) ?? {};
  return {
    mediaType: type,
    mimeType: str(file.mimeType) ?? 'application/octet-stream',
    // Sent media has no network id of its own in the simulation; its digest names it.
    id: str(file.id) ?? str(file.sha256) ?? '',
    fileLength: num(file.fileLength) ?? num(file.size),
    caption: str(content.caption),
    height: num(file.height),
    width: num(file.width),
    duration: num(file.duration),
    filename: str(content.filename),
    pageCount: num(file.pageCount),
  };
}

/** The text a reply shows of the message it quotes. */
export function quotedText(message: SandboxMessageRecord): string | undefined {
  return str(message.content.text) ?? str(message.content.caption);
}

function messageContent(record: SandboxMessageRecord): MessageContent | undefined {
  const content = record.content;
  if (MEDIA.has(record.type)) return { type: 'media', media: media(record.type as MediaType, content) };
  switch (record.type) {
    case 'text':
      return { type: 'text', text: str(content.text) ?? '' };
    case 'link':
      return {
        type: 'text',
        text: str(content.text) ?? '',
        link: {
          url: str(content.url) ?? '',
          title: str(content.title),
          description: str(content.description),
          jpegThumbnail: str(content.jpegThumbnail),
        },
      };
    case 'contact': {
      const vcards = Array.isArray(content.vcards) ? (content.vcards as string[]) : [str(content.vcard) ?? ''];
      return vcards.length === 1 ? { type: 'contact', vcard: vcards[0] } : { type: 'contactArray', vcards };
    }
    case 'location':
      return {
        type: 'location',
        latitude: num(content.latitude) ?? 0,
        longitude: num(content.longitude) ?? 0,
        name: str(content.name),
        address: str(content.address),
        url: str(content.url),
      };
    case 'buttons':
    case 'list':
      return { type: record.type, text: str(content.text) ?? '' };
    case 'reaction':
      return { type: 'reaction', messageId: str(content.messageId) ?? '', emoji: str(content.emoji) ?? '' };
    case 'pinInChat':
      return {
        type: 'pinInChat',
        pinned: content.pinned !== false,
        messageId: str(content.messageId) ?? '',
        seconds: num(content.seconds),
      };
    case 'button_reply': {
      const reply = content.buttonReply as { id: string; text?: string };
      return { type: 'button_reply', id: reply.id, text: reply.text };
    }
    case 'list_reply': {
      const reply = content.listReply as { id: string; title?: string; description?: string };
      return { type: 'list_reply', id: reply.id, title: reply.title, description: reply.description };
    }
    default:
      return undefined;
  }
}

/** A stored message of the simulated network as the normaliser takes it; undefined for what is not a message. */
export function storedMessageInput(record: SandboxMessageRecord, context: MessageContext): MessageInput | undefined {
  const content = messageContent(record);
  if (!content) return undefined;
  const replyToId = str(record.content.replyTo);
  let replyTo: MessageInput['replyTo'];
  if (replyToId && (content.type === 'button_reply' || content.type === 'list_reply')) {
    // The contract's interactive replies name only the message answered.
    replyTo = { id: replyToId };
  } else if (replyToId) {
    const original = context.lookup(replyToId);
    const senderJid = original?.senderJid ?? str(record.content.replyToSenderId);
    const isMe = original ? original.direction === 'outbound' : senderJid === context.self;
    replyTo = {
      id: replyToId,
      sender: senderJid ? { ...context.party(senderJid), isMe } : undefined,
      text: original ? quotedText(original) : undefined,
    };
  }
  const mentions = Array.isArray(record.content.mentions) ? (record.content.mentions as string[]) : undefined;
  return {
    id: record.id,
    time: record.at,
    chatId: record.chatJid,
    sender: { ...context.party(record.senderJid), isMe: record.direction === 'outbound' },
    content,
    isForwarded: record.content.isForwarded === true,
    viewOnce: record.content.viewOnce === true,
    mentions,
    replyTo,
    ephemeralSeconds: num(record.content.ephemeralExpiration),
  };
}
