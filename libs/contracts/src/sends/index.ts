import type { MediaSource, MessageKind } from '../messages';
import type {
  AudioPayload,
  ContactPayload,
  DocumentPayload,
  ImagePayload,
  LinkPayload,
  LocationPayload,
  StickerPayload,
  TextPayload,
  VideoPayload,
  VoicePayload,
} from './content';
import type { ButtonsPayload, ListPayload } from './interactive';
import type {
  DeleteForMePayload,
  DeletePayload,
  EditPayload,
  PinPayload,
  ReactionPayload,
  ReadPayload,
  StarPayload,
} from './message-actions';

export * from './common';
export * from './content';
export * from './interactive';
export * from './message-actions';

/**
 * What each kind of send carries, from the API's validated request to the network drivers: one kind → one payload
 * type, checked by the compiler at every producer and consumer. Stored as JSON in `messages.payload`; a field is only
 * ever added, optional, so a send accepted by an earlier version still goes out after an upgrade.
 */
export interface SendPayloads {
  text: TextPayload;
  image: ImagePayload;
  video: VideoPayload;
  audio: AudioPayload;
  voice: VoicePayload;
  document: DocumentPayload;
  sticker: StickerPayload;
  contact: ContactPayload;
  location: LocationPayload;
  link: LinkPayload;
  buttons: ButtonsPayload;
  list: ListPayload;
  edit: EditPayload;
  delete: DeletePayload;
  delete_for_me: DeleteForMePayload;
  reaction: ReactionPayload;
  read: ReadPayload;
  star: StarPayload;
  pin: PinPayload;
}

/** One send of the given kinds: its kind, the chat it goes to, and the payload of that kind. */
export type SendOf<K extends MessageKind> = { [P in K]: { kind: P; chatJid: string; payload: SendPayloads[P] } }[K];

/** Any send; `kind` tells its payload's type. */
export type Send = SendOf<MessageKind>;

/** Sends that carry a file. */
const MEDIA_KINDS = ['image', 'video', 'audio', 'voice', 'document', 'sticker'] as const satisfies readonly MessageKind[];
export type MediaKind = (typeof MEDIA_KINDS)[number];

/** Sends that change an existing message rather than add one. */
export const MESSAGE_ACTION_KINDS = [
  'edit',
  'delete',
  'delete_for_me',
  'reaction',
  'read',
  'star',
  'pin',
] as const satisfies readonly MessageKind[];
export type MessageActionKind = (typeof MESSAGE_ACTION_KINDS)[number];

const MEDIA_KIND_SET: ReadonlySet<MessageKind> = new Set<MediaKind>(MEDIA_KINDS);
const MESSAGE_ACTION_KIND_SET: ReadonlySet<MessageKind> = new Set<MessageActionKind>(MESSAGE_ACTION_KINDS);

export function isMediaSend<S extends Send>(send: S): send is Extract<S, SendOf<MediaKind>> {
  return MEDIA_KIND_SET.has(send.kind);
}

export function isMessageAction<S extends Send>(send: S): send is Extract<S, SendOf<MessageActionKind>> {
  return MESSAGE_ACTION_KIND_SET.has(send.kind);
}

/** A send as the worker hands it to a driver: with its id, and its media content resolved just before sending. */
export type OutboundMessage<K extends MessageKind = MessageKind> = SendOf<K> & {
  id: string;
  media?: { data: Buffer; mimeType: string };
};

/** Where a send's media content is, for the media kinds. */
export function mediaSourceOf(send: Send): MediaSource | undefined {
  return isMediaSend(send) ? send.payload.media : undefined;
}
