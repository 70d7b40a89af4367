import type { proto } from '@whiskeysockets/baileys';
import type { MessageContent } from '../../events/normalise';
import type { BaileysLibrary } from '../baileys-library';
import { INTERACTIVE_REPLIES, interactiveReply, type InteractiveReply, type Offered } from './interactive-replies';
import { base64, isMediaContent, mediaDescriptor } from './media';
import type { ProtoInteger } from './timestamps';

/** What a message's (unwrapped) content means for the gateway. */
export type ContentReading =
  | { kind: 'content'; content: MessageContent; info?: proto.IContextInfo }
  | { kind: 'reply'; reply: InteractiveReply }
  | { kind: 'edit'; targetId: string; edited: proto.IMessage; editedAtMs?: ProtoInteger }
  | { kind: 'revoke'; target: proto.IMessageKey }
  | { kind: 'ephemeral'; seconds: number }
  /** `keep` false: device traffic (history sync, key shares) that is no message of any chat. */
  | { kind: 'ignored'; reason: string; keep: boolean };

export interface ReadOptions {
  /** The id media descriptors carry (the message that holds the file). */
  mediaId: string;
  /** What the message a native-flow reply answers offered, when known. */
  offered?: Offered;
}

/** Reads content already unwrapped with `normalizeMessageContent` (ephemeral, view-once and edit wrappers gone). */
export function readContent(lib: BaileysLibrary, content: proto.IMessage | null | undefined, options: ReadOptions): ContentReading {
  const type = content ? lib.getContentType(content) : undefined;
  if (!content || !type) return { kind: 'ignored', reason: 'no content', keep: false };
  if (isMediaContent(type)) return withInfo({ type: 'media', media: mediaDescriptor(content, type, options.mediaId) }, content, type);
  if ((INTERACTIVE_REPLIES as readonly string[]).includes(type)) {
    const reply = interactiveReply(content, options.offered);
    return reply ? { kind: 'reply', reply } : { kind: 'ignored', reason: `${type} without a reply id`, keep: true };
  }
  switch (type) {
    case 'conversation':
      return { kind: 'content', content: { type: 'text', text: content.conversation ?? '' } };
    case 'extendedTextMessage':
      return withInfo(extendedText(content.extendedTextMessage ?? {}), content, type);
    case 'locationMessage':
    case 'liveLocationMessage':
      return withInfo(location(content, type), content, type);
    case 'contactMessage':
      return withInfo({ type: 'contact', vcard: content.contactMessage?.vcard ?? '' }, content, type);
    case 'contactsArrayMessage': {
      const vcards = (content.contactsArrayMessage?.contacts ?? []).map((contact) => contact.vcard ?? '');
      return withInfo({ type: 'contactArray', vcards }, content, type);
    }
    case 'reactionMessage': {
      const reaction = content.reactionMessage ?? {};
      return { kind: 'content', content: { type: 'reaction', messageId: reaction.key?.id ?? '', emoji: reaction.text ?? '' } };
    }
    case 'pinInChatMessage':
      return pin(lib, content);
    case 'protocolMessage':
      return protocol(lib, content.protocolMessage ?? {});
    default:
      return { kind: 'ignored', reason: `no gateway kind for ${type}`, keep: true };
  }
}

/** The context (quote, mentions, forwarding, disappearing timer) the content carries. */
function contextInfoOf(content: proto.IMessage, type: string): proto.IContextInfo | undefined {
  const inner = (content as Record<string, unknown>)[type];
  if (typeof inner !== 'object' || inner === null || !('contextInfo' in inner)) return undefined;
  return (inner as { contextInfo?: proto.IContextInfo | null }).contextInfo ?? undefined;
}

/** The text a quote shows of the message it quotes. */
export function quotedText(lib: BaileysLibrary, quoted: proto.IMessage | null | undefined): string | undefined {
  const content = lib.normalizeMessageContent(quoted);
  if (!content) return undefined;
  const text =
    content.conversation ||
    content.extendedTextMessage?.text ||
    content.imageMessage?.caption ||
    content.videoMessage?.caption ||
    content.documentMessage?.caption;
  return text || undefined;
}

function withInfo(message: MessageContent, content: proto.IMessage, type: string): ContentReading {
  return { kind: 'content', content: message, info: contextInfoOf(content, type) };
}

/** Link previews ride on `extendedTextMessage` (`matchedText` is the link as typed). */
function extendedText(text: proto.Message.IExtendedTextMessage): MessageContent {
  const url = text.matchedText;
  if (!url) return { type: 'text', text: text.text ?? '' };
  return {
    type: 'text',
    text: text.text ?? '',
    link: {
      url,
      title: text.title || undefined,
      description: text.description || undefined,
      jpegThumbnail: base64(text.jpegThumbnail),
    },
  };
}

function location(content: proto.IMessage, type: 'locationMessage' | 'liveLocationMessage'): MessageContent {
  if (type === 'liveLocationMessage') {
    const live = content.liveLocationMessage ?? {};
    return {
      type: 'location',
      latitude: live.degreesLatitude ?? 0,
      longitude: live.degreesLongitude ?? 0,
      name: live.caption || undefined,
    };
  }
  const place = content.locationMessage ?? {};
  return {
    type: 'location',
    latitude: place.degreesLatitude ?? 0,
    longitude: place.degreesLongitude ?? 0,
    name: place.name || undefined,
    address: place.address || undefined,
    url: place.url || undefined,
  };
}

/** A pin's duration rides in `messageContextInfo.messageAddOnDurationInSecs` (as Baileys sends it). */
function pin(lib: BaileysLibrary, content: proto.IMessage): ContentReading {
  const pinMessage = content.pinInChatMessage ?? {};
  const pinned = pinMessage.type === lib.proto.Message.PinInChatMessage.Type.PIN_FOR_ALL;
  const seconds = content.messageContextInfo?.messageAddOnDurationInSecs ?? undefined;
  return {
    kind: 'content',
    content: { type: 'pinInChat', pinned, messageId: pinMessage.key?.id ?? '', seconds: pinned && seconds ? seconds : undefined },
  };
}

function protocol(lib: BaileysLibrary, message: proto.Message.IProtocolMessage): ContentReading {
  const types = lib.proto.Message.ProtocolMessage.Type;
  switch (message.type) {
    case types.REVOKE:
      return message.key?.id ? { kind: 'revoke', target: message.key } : { kind: 'ignored', reason: 'revoke without a target', keep: true };
    case types.MESSAGE_EDIT:
      return message.key?.id && message.editedMessage
        ? { kind: 'edit', targetId: message.key.id, edited: message.editedMessage, editedAtMs: message.timestampMs }
        : { kind: 'ignored', reason: 'edit without a target', keep: true };
    case types.EPHEMERAL_SETTING:
      return { kind: 'ephemeral', seconds: message.ephemeralExpiration ?? 0 };
    default:
      return { kind: 'ignored', reason: `protocol message ${String(message.type)}`, keep: false };
  }
}
