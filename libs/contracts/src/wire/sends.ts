import { z } from 'zod';
import { MESSAGE_KINDS, type MessageKind } from '../messages';
import { SEND_RECEIPT_TYPES, PIN_EXPIRATIONS, type SendPayloads, type Send } from '../sends';
import { checkWireVersion, decodeWire, refused } from './decode';
import { str, bool, num } from './primitives';

/**
 * A send's payload as stored in `messages.payload` (jsonb), written by the API, read by the worker that sends it.
 * Version 2 added `v` (stripped when read); the previous release wrote the same payloads without it. A field is only
 * ever added, optional, so an accepted send of an older version still goes out.
 */
export const STORED_SEND_WIRE_VERSION = 2;

type PayloadSchemas = { [K in MessageKind]: z.ZodType<SendPayloads[K]> };

const strings = z.array(str);

const ephemeral = { ephemeralExpiration: num.optional() };
const options = {
  ...ephemeral,
  mentions: strings.optional(),
  replyTo: str.optional(),
  replyToSenderId: str.optional(),
  isForwarded: z.literal(true).optional(),
};
const mediaSource = z.union([
  z.object({ blobId: str, mimeType: str, size: num, sha256: str }),
  z.object({ url: str, mimeType: str.optional() }),
]);
const media = { ...options, media: mediaSource };
const visual = z.object({ ...media, caption: str.optional(), viewOnce: bool.optional() });
const audio = z.object({ ...media, viewOnce: bool.optional() });
const interactive = { text: str, header: str.optional(), footer: str.optional(), aiLabel: bool.optional() };
const target = { targetId: str };

export const SEND_PAYLOAD_SCHEMAS: PayloadSchemas = {
  text: z.object({ ...options, text: str }),
  link: z.object({
    ...options,
    text: str,
    url: str,
    title: str.optional(),
    description: str.optional(),
    jpegThumbnail: str.optional(),
  }),
  contact: z.object({ ...options, displayName: str.optional(), vcard: str.optional() }),
  location: z.object({ ...ephemeral, latitude: num, longitude: num, name: str.optional(), address: str.optional(), url: str.optional() }),
  image: visual,
  video: visual,
  audio,
  voice: audio,
  document: z.object({ ...media, filename: str, caption: str.optional() }),
  sticker: z.object({ ...media, isAnimated: bool.optional() }),
  buttons: z.object({
    ...interactive,
    buttons: z.array(
      z.discriminatedUnion('type', [
        z.object({ type: z.literal('reply'), text: str, id: str }),
        z.object({ type: z.literal('url'), text: str, url: str }),
        z.object({ type: z.literal('copy'), text: str, copyCode: str }),
        z.object({ type: z.literal('call'), text: str, phoneNumber: str }),
      ]),
    ),
  }),
  list: z.object({
    ...interactive,
    buttonText: str,
    sections: z.array(z.object({ title: str.optional(), rows: z.array(z.object({ id: str, title: str, description: str.optional() })) })),
  }),
  edit: z.object({ ...target, text: str, mentions: strings.optional() }),
  delete: z.object({ ...target, senderId: str }),
  delete_for_me: z.object({ ...target, senderId: str.optional(), isFromMe: bool.optional(), timestamp: str.optional() }),
  reaction: z.object({ ...target, reaction: str, senderId: str.optional() }),
  read: z.object({ ...target, senderId: str.optional(), receiptType: z.enum(SEND_RECEIPT_TYPES).optional() }),
  star: z.object({ ...target, senderId: str.optional(), starred: bool.optional() }),
  pin: z.object({ ...target, senderId: str.optional(), pinned: bool.optional(), pinExpiration: z.enum(PIN_EXPIRATIONS).optional() }),
};

function isKind(kind: string): kind is MessageKind {
  return (MESSAGE_KINDS as readonly string[]).includes(kind);
}

/**
 * A stored row as the send it was accepted as: the kind must be known and the payload must decode as that kind's.
 * Throws WireDecodeError (counted) otherwise; the worker marks such a row failed with the reason.
 */
export function decodeStoredSend(kind: string, chatJid: string, payload: unknown): Send {
  checkWireVersion('stored_send', STORED_SEND_WIRE_VERSION, payload);
  if (!isKind(kind)) throw refused('stored_send', `unknown kind ${kind}`);
  const decoded = decodeWire('stored_send', SEND_PAYLOAD_SCHEMAS[kind], STORED_SEND_WIRE_VERSION, payload);
  return { kind, chatJid, payload: decoded } as Send;
}

/**
 * The JSON the API stores for a send's payload: the payload with the current version stamped on it. Spliced into the
 * serialised text rather than spread into a copy: this runs on the accept path, once per message.
 */
export function storedPayloadJson(payload: object): string {
  const json = JSON.stringify(payload);
  return json === '{}' ? `{"v":${STORED_SEND_WIRE_VERSION}}` : `{"v":${STORED_SEND_WIRE_VERSION},${json.slice(1)}`;
}
