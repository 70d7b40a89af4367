import type { proto } from '@whiskeysockets/baileys';
import type { MediaType } from '@app/contracts';
import type { SentMessage } from '../../driver';
import { normalise, type MessageContent, type MessageInput, type QuotedInput } from '../../events/normalise';
import type { BaileysContext } from '../baileys-context';
import type { WAMessage } from '../baileys-library';
import { int64 } from './network-store';
import { isSelf } from './self-identity';

type Content = proto.IMessage;
type ContentType = keyof Content;

const MEDIA: Partial<Record<ContentType, MediaType>> = {
  imageMessage: 'image',
  videoMessage: 'video',
  audioMessage: 'audio',
  documentMessage: 'document',
  stickerMessage: 'sticker',
};

/** What a media message of any kind may carry; each proto type has a subset of these. */
interface MediaFields {
  mimetype?: string | null;
  fileLength?: unknown;
  caption?: string | null;
  height?: number | null;
  width?: number | null;
  seconds?: number | null;
  fileName?: string | null;
  pageCount?: number | null;
  jpegThumbnail?: Uint8Array | null;
  ptt?: boolean | null;
  viewOnce?: boolean | null;
  contextInfo?: proto.IContextInfo | null;
}

function filled(value: string | null | undefined): string | undefined {
  return value ? value : undefined;
}

function base64(value: Uint8Array | null | undefined): string | undefined {
  return value && value.length > 0 ? Buffer.from(value).toString('base64') : undefined;
}

function fieldsOf(inner: Content, type: ContentType): (MediaFields & Record<string, unknown>) | undefined {
  const value = inner[type];
  return typeof value === 'object' && value !== null ? (value as MediaFields & Record<string, unknown>) : undefined;
}

/**
 * Media sent from bytes has no download id of its own yet; the message id names it, since the stored message is what
 * a download needs.
 */
function media(id: string, type: MediaType, fields: MediaFields): MessageContent {
  return {
    type: 'media',
    media: {
      mediaType: type === 'audio' && fields.ptt ? 'voice' : type,
      mimeType: fields.mimetype ?? 'application/octet-stream',
      id,
      fileLength: int64(fields.fileLength),
      caption: filled(fields.caption),
      height: fields.height ?? undefined,
      width: fields.width ?? undefined,
      duration: fields.seconds ?? undefined,
      filename: filled(fields.fileName),
      pageCount: fields.pageCount ?? undefined,
      jpegThumbnail: base64(fields.jpegThumbnail),
    },
  };
}

function interactive(message: proto.Message.IInteractiveMessage): MessageContent {
  const first = message.nativeFlowMessage?.buttons?.[0]?.name;
  return { type: first === 'single_select' ? 'list' : 'buttons', text: message.body?.text ?? '' };
}

function messageContent(id: string, inner: Content, type: ContentType): MessageContent | undefined {
  const mediaType = MEDIA[type];
  const fields = fieldsOf(inner, type);
  if (mediaType && fields) return media(id, mediaType, fields);
  switch (type) {
    case 'conversation':
      return { type: 'text', text: inner.conversation ?? '' };
    case 'extendedTextMessage': {
      const text = inner.extendedTextMessage ?? {};
      const url = filled(text.matchedText);
      return {
        type: 'text',
        text: text.text ?? '',
        ...(url
          ? { link: { url, title: filled(text.title), description: filled(text.description), jpegThumbnail: base64(text.jpegThumbnail) } }
          : {}),
      };
    }
    case 'contactMessage':
      return { type: 'contact', vcard: inner.contactMessage?.vcard ?? '' };
    case 'contactsArrayMessage':
      return { type: 'contactArray', vcards: (inner.contactsArrayMessage?.contacts ?? []).map((contact) => contact.vcard ?? '') };
    case 'locationMessage': {
      const location = inner.locationMessage ?? {};
      return {
        type: 'location',
        latitude: location.degreesLatitude ?? 0,
        longitude: location.degreesLongitude ?? 0,
        name: filled(location.name),
        address: filled(location.address),
        url: filled(location.url),
      };
    }
    case 'interactiveMessage':
      return inner.interactiveMessage ? interactive(inner.interactiveMessage) : undefined;
    default:
      return undefined;
  }
}

/** The text a quote shows of the message it quotes. */
function quotedText(context: BaileysContext, quoted: Content | null | undefined): string | undefined {
  const inner = context.lib.normalizeMessageContent(quoted);
  const type = context.lib.getContentType(inner);
  if (!inner || !type) return undefined;
  if (type === 'conversation') return filled(inner.conversation);
  const fields = fieldsOf(inner, type);
  return filled(typeof fields?.text === 'string' ? fields.text : undefined) ?? filled(fields?.caption);
}

function replyTo(context: BaileysContext, info: proto.IContextInfo | null | undefined): QuotedInput | undefined {
  if (!info?.stanzaId) return undefined;
  const participant = info.participant ?? undefined;
  return {
    id: info.stanzaId,
    sender: participant ? { jid: participant, isMe: isSelf(context, participant) } : undefined,
    text: quotedText(context, info.quotedMessage),
  };
}

function isViewOnce(wrapped: Content, fields: MediaFields | undefined): boolean {
  return !!(wrapped.viewOnceMessage ?? wrapped.viewOnceMessageV2 ?? wrapped.viewOnceMessageV2Extension) || fields?.viewOnce === true;
}

/**
 * The `message` event for a message this instance just sent, built from the WAMessage Baileys generated for it: the
 * network's own copy, as linked devices see it.
 */
export function ownMessage(context: BaileysContext, sent: WAMessage): SentMessage['ownMessage'] {
  const { id, remoteJid } = sent.key;
  const inner = context.lib.normalizeMessageContent(sent.message);
  const type = context.lib.getContentType(inner);
  if (!id || !remoteJid || !sent.message || !inner || !type) return undefined;
  const content = messageContent(id, inner, type);
  if (!content) return undefined;
  const fields = fieldsOf(inner, type);
  const info = fields?.contextInfo;
  const time = int64(sent.messageTimestamp);
  const input: MessageInput = {
    id,
    time: time === undefined ? new Date() : new Date(time * 1000),
    chatId: remoteJid,
    sender: { jid: context.selfJid, ...(context.selfLid ? { lid: context.selfLid } : {}), isMe: true },
    content,
    isForwarded: info?.isForwarded === true,
    viewOnce: isViewOnce(sent.message, fields),
    mentions: info?.mentionedJid?.length ? info.mentionedJid : undefined,
    replyTo: replyTo(context, info),
    ephemeralSeconds: info?.expiration ? info.expiration : undefined,
  };
  return normalise.message(input);
}
