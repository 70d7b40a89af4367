import { Logger } from '@nestjs/common';
import type { AnyMessageContent, MiscMessageGenerationOptions, WAUrlInfo, proto } from '@whiskeysockets/baileys';
import {
  PermanentSendError,
  type ContactPayload,
  type LinkPayload,
  type MediaKind,
  type OutboundMessage,
  type SendOptionsPayload,
} from '@app/contracts';
import type { BaileysContext } from '../baileys-context';
import type { WAMessage } from '../baileys-library';
import { storedMessage } from './network-store';

const logger = new Logger('BaileysSender');

/** One `sendMessage` call: what to send and how. */
export interface PreparedSend {
  content: AnyMessageContent;
  options: MiscMessageGenerationOptions;
}

/** Mentions and the forwarded mark travel in the content's contextInfo; Baileys puts them there for every kind. */
interface ContextExtras {
  mentions?: string[];
  contextInfo?: proto.IContextInfo;
}

function extras(payload: SendOptionsPayload): ContextExtras {
  const mentions = payload.mentions;
  return {
    ...(mentions?.length ? { mentions } : {}),
    // A score of 1 is what a single manual forward carries; higher scores show "forwarded many times".
    ...(payload.isForwarded ? { contextInfo: { isForwarded: true, forwardingScore: 1 } } : {}),
  };
}

function bytes(message: OutboundMessage<MediaKind>): { data: Buffer; mimetype: string } {
  if (!message.media) throw new PermanentSendError(`the ${message.kind} message ${message.id} has no media content`);
  return { data: message.media.data, mimetype: message.media.mimeType };
}

function viewOnce(payload: { viewOnce?: boolean }): { viewOnce?: true } {
  return payload.viewOnce ? { viewOnce: true } : {};
}

function caption(payload: { caption?: string }): { caption?: string } {
  return payload.caption ? { caption: payload.caption } : {};
}

/** vCard 3.0 text values escape backslashes, commas, semicolons and line breaks. */
function vcardText(value: string): string {
  return value.replace(/\\/g, '\\\\').replace(/,/g, '\\,').replace(/;/g, '\\;').replace(/\r?\n/g, '\\n');
}

/** The card's formatted name (`FN`), which labels a contact message sent without a display name. */
function formattedName(vcard: string): string | undefined {
  const value = /^FN(?:;[^:\r\n]*)?:(.*)$/im.exec(vcard)?.[1]?.trim();
  return value ? value.replace(/\\n/gi, ' ').replace(/\\([\\,;])/g, '$1') : undefined;
}

function contactCard(payload: ContactPayload): { displayName?: string; vcard: string } {
  const given = payload.vcard;
  const name = payload.displayName;
  if (given) return { displayName: name || formattedName(given), vcard: given };
  if (!name) throw new PermanentSendError('a contact needs a displayName or a vcard');
  return { displayName: name, vcard: `BEGIN:VCARD\nVERSION:3.0\nFN:${vcardText(name)}\nEND:VCARD` };
}

/**
 * A link message carries its preview ready-made: letting Baileys fetch one would reach arbitrary URLs from the worker,
 * outside the gateway's SSRF-safe client. Clients show the preview for a URL that appears in the text, so it is added
 * when the text leaves it out.
 */
function linkContent(payload: LinkPayload): AnyMessageContent {
  const { url, text, jpegThumbnail, description } = payload;
  const preview: WAUrlInfo = {
    'canonical-url': url,
    'matched-text': url,
    title: payload.title ?? '',
    ...(description ? { description } : {}),
    ...(jpegThumbnail ? { jpegThumbnail: Buffer.from(jpegThumbnail, 'base64') } : {}),
  };
  return { text: text.includes(url) ? text : `${text}\n${url}`, linkPreview: preview, ...extras(payload) };
}

/** The content of a new message of one of the plain kinds (everything but buttons, lists and operations). */
export function messageContent(message: OutboundMessage): AnyMessageContent {
  switch (message.kind) {
    case 'text':
      // No preview for plain text: fetching one is the same outbound request the link kind avoids.
      return { text: message.payload.text, linkPreview: null, ...extras(message.payload) };
    case 'link':
      return linkContent(message.payload);
    case 'image': {
      const { data, mimetype } = bytes(message);
      const { payload } = message;
      return { image: data, mimetype, ...caption(payload), ...viewOnce(payload), ...extras(payload) };
    }
    case 'video': {
      const { data, mimetype } = bytes(message);
      const { payload } = message;
      return { video: data, mimetype, ...caption(payload), ...viewOnce(payload), ...extras(payload) };
    }
    case 'audio': {
      const { data, mimetype } = bytes(message);
      return { audio: data, mimetype, ...viewOnce(message.payload), ...extras(message.payload) };
    }
    case 'voice': {
      const { data, mimetype } = bytes(message);
      return { audio: data, mimetype, ptt: true, ...viewOnce(message.payload), ...extras(message.payload) };
    }
    case 'document': {
      const { data, mimetype } = bytes(message);
      const { payload } = message;
      return {
        document: data,
        mimetype,
        ...(payload.filename ? { fileName: payload.filename } : {}),
        ...caption(payload),
        ...extras(payload),
      };
    }
    case 'sticker': {
      const { data, mimetype } = bytes(message);
      return { sticker: data, mimetype, ...(message.payload.isAnimated ? { isAnimated: true } : {}), ...extras(message.payload) };
    }
    case 'contact': {
      const card = contactCard(message.payload);
      return { contacts: { ...(card.displayName ? { displayName: card.displayName } : {}), contacts: [card] }, ...extras(message.payload) };
    }
    case 'location': {
      const { latitude, longitude, name, address, url } = message.payload;
      return {
        location: {
          degreesLatitude: latitude,
          degreesLongitude: longitude,
          ...(name ? { name } : {}),
          ...(address ? { address } : {}),
          ...(url ? { url } : {}),
        },
      };
    }
    default:
      throw new PermanentSendError(`${message.kind} is not a plain message kind`);
  }
}

/**
 * The message a reply quotes, as Baileys needs it (whole, with its content). One this instance no longer keeps (the
 * store holds recent messages only) is left out: the reply still goes out, as a plain message, rather than failing.
 */
async function quoted(context: BaileysContext, message: OutboundMessage): Promise<WAMessage | undefined> {
  const replyTo = 'replyTo' in message.payload ? message.payload.replyTo : undefined;
  if (!replyTo) return undefined;
  const original = await storedMessage(context, message.chatJid, replyTo);
  if (original?.message && context.lib.getContentType(context.lib.normalizeMessageContent(original.message))) return original;
  logger.warn(`instance ${context.instanceId}: message ${message.id} quotes ${replyTo}, which is no longer kept; sent without the quote`);
  return undefined;
}

/** Our id on the network message, the quote, and the disappearing timer (Baileys leaves a timer of 0, off, out). */
export async function sendOptions(context: BaileysContext, message: OutboundMessage): Promise<MiscMessageGenerationOptions> {
  const original = await quoted(context, message);
  const expiration = 'ephemeralExpiration' in message.payload ? message.payload.ephemeralExpiration : undefined;
  return {
    messageId: message.id,
    ...(original ? { quoted: original } : {}),
    ...(expiration ? { ephemeralExpiration: expiration } : {}),
  };
}

export async function prepareMessage(context: BaileysContext, message: OutboundMessage): Promise<PreparedSend> {
  return { content: messageContent(message), options: await sendOptions(context, message) };
}
