import type { MediaSource } from '../messages';
import type { EphemeralPayload, SendOptionsPayload } from './common';

export interface TextPayload extends SendOptionsPayload {
  text: string;
}

/** A link with its preview ready-made (the worker never fetches one). */
export interface LinkPayload extends SendOptionsPayload {
  text: string;
  url: string;
  title?: string;
  description?: string;
  /** Base64 JPEG. */
  jpegThumbnail?: string;
}

/** A contact card: at least one of the two is there; a card without `vcard` is made from the name. */
export interface ContactPayload extends SendOptionsPayload {
  displayName?: string;
  vcard?: string;
}

export interface LocationPayload extends EphemeralPayload {
  latitude: number;
  longitude: number;
  name?: string;
  address?: string;
  url?: string;
}

/** What every media send carries: where its content is, resolved by the worker just before sending. */
export interface MediaPayload extends SendOptionsPayload {
  media: MediaSource;
}

export interface ImagePayload extends MediaPayload {
  caption?: string;
  viewOnce?: boolean;
}

export type VideoPayload = ImagePayload;

export interface AudioPayload extends MediaPayload {
  viewOnce?: boolean;
}

/** A push-to-talk voice note. */
export type VoicePayload = AudioPayload;

export interface DocumentPayload extends MediaPayload {
  /** The file name shown to the recipient. */
  filename: string;
  caption?: string;
}

export interface StickerPayload extends MediaPayload {
  isAnimated?: boolean;
}
