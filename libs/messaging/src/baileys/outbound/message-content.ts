import { Logger } from '@nestjs/common';
import type { AnyMessageContent, MiscMessageGenerationOptions, WAUrlInfo, proto } from '@whiskeysockets/baileys';
import { PermanentSendError, type OutboundMessage } from '@app/contracts';
import type { BaileysContext } from '../baileys-context';
import type { WAMessage } from '../baileys-library';
import { storedMessage } from './network-store';
import { flag, optionalNumber, optionalText, requiredNumber, requiredText, texts, type Payload } from './payload-fields';

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

function extras(payload: Payload): ContextExtras {
  const mentions = texts(payload, 'mentions');
  return {
    ...(mentions ? { mentions } : {}),
    // A score of 1 is what a single manual forward carries; higher scores show "forwarded many times".
    ...(flag(payload, 'isForwarded') ? { contextInfo: { isForwarded: true, forwardingScore: 1 } } : {}),
  };
}

function bytes(message: OutboundMessage): { data: Buffer; mimetype: string } {
  if (!message.media) throw new PermanentSendError(`the ${message.kind} message ${message.id} has no media content`);
  return { data: message.media.data, mimetype: message.media.mimeType };
}

function viewOnce(payload: Payload): { viewOnce?: true } {
  return flag(payload, 'viewOnce') ? { viewOnce: true } : {};
}

function caption(payload: Payload): { caption?: string } {
  const text = optionalText(payload, 'caption');
  return text ? { caption: text } : {};
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

function contactCard(payload: Payload): { displayName?: string; vcard: string } {
  const given = optionalText(payload, 'vcard');
  const name = optionalText(payload, 'displayName');
  if (given) return { displayName: name ?? formattedName(given), vcard: given };
  if (!name) throw new PermanentSendError('a contact needs a displayName or a vcard');
  return { displayName: name, vcard: `BEGIN:VCARD\nVERSION:3.0\nFN:${vcardText(name)}\nEND:VCARD` };
}

/**
 * A link message carries its preview ready-made: letting Baileys fetch one would reach arbitrary URLs from the worker,
 * outside the gateway's SSRF-safe client. Clients show the preview for a URL that appears in the text, so it is added
 * when the text leaves it out.
 */
function linkContent(payload: Payload): AnyMessageContent {
  const url = requiredText(payload, 'url');
  const text = requiredText(payload, 'text');
  const thumbnail = optionalText(payload, 'jpegThumbnail');
  const description = optionalText(payload, 'description');
  const preview: WAUrlInfo = {
    'canonical-url': url,
    'matched-text': url,
    title: optionalText(payload, 'title') ?? '',
    ...(description ? { description } : {}),
    ...(thumbnail ? { jpegThumbnail: Buffer.from(thumbnail, 'base64') } : {}),
  };
  return { text: text.includes(url) ? text : `${text}\n${url}`, linkPreview: preview, ...extras(payload) };
}

/** The content of a new message of one of the plain kinds (everything but buttons, lists and operations). */
export function messageContent(message: OutboundMessage): AnyMessageContent {
  const payload = message.payload;
  switch (message.kind) {
    case 'text':
      // No preview for plain text: fetching one is the same outbound request the link kind avoids.
      return { text: requiredText(payload, 'text'), linkPreview: null, ...extras(payload) };
    case 'link':
      return linkContent(payload);
    case 'image': {
      const { data, mimetype } = bytes(message);
      return { image: data, mimetype, ...caption(payload), ...viewOnce(payload), ...extras(payload) };
    }
    case 'video': {
      const { data, mimetype } = bytes(message);
      return { video: data, mimetype, ...caption(payload), ...viewOnce(payload), ...extras(payload) };
    }
    case 'audio': {
      const { data, mimetype } = bytes(message);
      return { audio: data, mimetype, ...viewOnce(payload), ...extras(payload) };
    }
    case 'voice': {
      const { data, mimetype } = bytes(message);
      return { audio: data, mimetype, ptt: true, ...viewOnce(payload), ...extras(payload) };
    }
    case 'document': {
      const { data, mimetype } = bytes(message);
      const fileName = optionalText(payload, 'filename');
      return { document: data, mimetype, ...(fileName ? { fileName } : {}), ...caption(payload), ...extras(payload) };
    }
    case 'sticker': {
      const { data, mimetype } = bytes(message);
      return { sticker: data, mimetype, ...(flag(payload, 'isAnimated') ? { isAnimated: true } : {}), ...extras(payload) };
    }
    case 'contact': {
      const card = contactCard(payload);
      return { contacts: { ...(card.displayName ? { displayName: card.displayName } : {}), contacts: [card] }, ...extras(payload) };
    }
    case 'location': {
      const place = { name: optionalText(payload, 'name'), address: optionalText(payload, 'address'), url: optionalText(payload, 'url') };
      return {
        location: {
          degreesLatitude: requiredNumber(payload, 'latitude'),
          degreesLongitude: requiredNumber(payload, 'longitude'),
          ...Object.fromEntries(Object.entries(place).filter(([, value]) => value !== undefined)),
        },
        ...extras(payload),
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
  const replyTo = optionalText(message.payload, 'replyTo');
  if (!replyTo) return undefined;
  const original = await storedMessage(context, message.chatJid, replyTo);
  if (original?.message && context.lib.getContentType(context.lib.normalizeMessageContent(original.message))) return original;
  logger.warn(`instance ${context.instanceId}: message ${message.id} quotes ${replyTo}, which is no longer kept; sent without the quote`);
  return undefined;
}

/** Our id on the network message, the quote, and the disappearing timer (Baileys leaves a timer of 0, off, out). */
export async function sendOptions(context: BaileysContext, message: OutboundMessage): Promise<MiscMessageGenerationOptions> {
  const original = await quoted(context, message);
  const expiration = optionalNumber(message.payload, 'ephemeralExpiration');
  return {
    messageId: message.id,
    ...(original ? { quoted: original } : {}),
    ...(expiration ? { ephemeralExpiration: expiration } : {}),
  };
}

export async function prepareMessage(context: BaileysContext, message: OutboundMessage): Promise<PreparedSend> {
  return { content: messageContent(message), options: await sendOptions(context, message) };
}
