import { randomFillSync } from 'node:crypto';

/** What the gateway asks the network to do for one accepted message row. */
export const MESSAGE_KINDS = [
  'text',
  'image',
  'video',
  'audio',
  'voice',
  'document',
  'sticker',
  'contact',
  'location',
  'link',
  'buttons',
  'list',
  'edit',
  'delete',
  'delete_for_me',
  'reaction',
  'read',
  'star',
  'pin',
] as const;

export type MessageKind = (typeof MESSAGE_KINDS)[number];

/** How a stored media send refers to its content: bytes kept with the message, or a URL fetched at send time. */
export type MediaSource = { blobId: string; mimeType: string; size: number; sha256: string } | { url: string; mimeType?: string };

/** Largest media a send may carry (inline or fetched). */
export const MAX_MEDIA_BYTES = 50 * 1024 * 1024;

/** Raised by drivers for a send the network refused for good; anything else is retried. */
export class PermanentSendError extends Error {
  /** `code`: the network's own refusal code when it gave one (an error ack's 463, 479, ...). */
  constructor(
    message: string,
    readonly code?: number,
  ) {
    super(message);
    this.name = 'PermanentSendError';
  }
}

/** Error-ack codes the network refuses a message stanza with, as the real network's driver and the sandbox report them. */
export const REFUSAL_CODES = [421, 463, 479] as const;
export type RefusalCode = (typeof REFUSAL_CODES)[number];

/**
 * Why the network refused a message with an error ack, in words (the codes Baileys rc14 names in `SERVER_ERROR_CODES`
 * and `NACK_REASONS`, lib/Utils/decode-wa-message.js, and its `handleBadAck` comments).
 */
const REFUSALS: Record<number, string> = {
  463: 'the account is restricted from reaching out: the network refuses messages to chats without a privacy token (new chats)',
  479: 'the network rejected the message stanza as invalid (SMAX invalid: often a stale device session or addressing)',
  421: 'the network refused the message for now (rate limited)',
};

/** The network answered a message with an error ack: it was not delivered, and sending it again is no cure. */
export function refusedByNetwork(code: number): PermanentSendError {
  return new PermanentSendError(`refused by the network (${code}): ${REFUSALS[code] ?? 'the network refused the message'}`, code);
}

const ID_RANDOM_BYTES = 9;
/** Random bytes for 512 ids, drawn from the CSPRNG in one call: one call per id cost more than the rest of the id. */
const idRandomness = Buffer.alloc(ID_RANDOM_BYTES * 512);
let idRandomnessUsed = idRandomness.length;
const UPPER_HEX = Array.from({ length: 256 }, (_, byte) => byte.toString(16).toUpperCase().padStart(2, '0'));

/**
 * Message ids in the network's own format (`3EB0` + 18 upper-case hex digits), generated when a send is accepted. Each
 * id takes bytes of the pool no other id took.
 */
export function newMessageId(): string {
  if (idRandomnessUsed + ID_RANDOM_BYTES > idRandomness.length) {
    randomFillSync(idRandomness);
    idRandomnessUsed = 0;
  }
  let id = '3EB0';
  for (let index = idRandomnessUsed; index < idRandomnessUsed + ID_RANDOM_BYTES; index += 1) id += UPPER_HEX[idRandomness[index]];
  idRandomnessUsed += ID_RANDOM_BYTES;
  return id;
}
