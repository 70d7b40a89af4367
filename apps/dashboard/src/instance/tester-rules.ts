// The message tester's live checks: the limits of the API's send DTOs (apps/api/src/messages/dto/send-media.dto.ts,
// send-location.dto.ts, send-contact.dto.ts), worded as the API words its refusals.
import { charCount } from '@contracts/message-limits';
import type { Problems } from './message-rules';

export const TESTER_LIMITS = {
  MAX_CAPTION_CHARS: 1024,
  MAX_FILENAME_CHARS: 255,
  MAX_LOCATION_NAME_CHARS: 256,
  MAX_LOCATION_ADDRESS_CHARS: 1024,
  MAX_DISPLAY_NAME_CHARS: 256,
  MAX_VCARD_CHARS: 65_536,
  /** The gateway takes files up to 50 MB. */
  MAX_MEDIA_BYTES: 50 * 1024 * 1024,
} as const;

export const TESTER_KINDS = ['image', 'video', 'audio', 'document', 'location', 'contact', 'reaction'] as const;
export type TesterKind = (typeof TESTER_KINDS)[number];
export const MEDIA_KINDS: readonly TesterKind[] = ['image', 'video', 'audio', 'document'];

export interface PickedFile {
  name: string;
  type: string;
  size: number;
  /** Base64 without a `data:` prefix, as the API takes it. */
  data: string;
}

export interface TesterDraft {
  kind: TesterKind;
  to: string;
  source: 'url' | 'file';
  url: string;
  file: PickedFile | null;
  caption: string;
  filename: string;
  latitude: string;
  longitude: string;
  placeName: string;
  address: string;
  displayName: string;
  vcard: string;
  messageId: string;
  emoji: string;
}

const blank = (value: string) => !/\S/u.test(value);
const FAMILY: Partial<Record<TesterKind, string>> = { image: 'image', video: 'video', audio: 'audio' };

function checkChars(problems: Problems, path: string, value: string, max: number, required: boolean): void {
  if (required && blank(value)) problems[path] = 'is required';
  else if (charCount(value) > max) problems[path] = `must be at most ${max} characters (now ${charCount(value)})`;
}

function checkNumber(problems: Problems, path: string, value: string, min: number, max: number): void {
  const number = Number(value);
  if (blank(value)) problems[path] = 'is required';
  else if (!Number.isFinite(number) || number < min || number > max) problems[path] = `must be from ${min} to ${max}`;
}

/** One emoji (possibly with modifiers and joiners), or nothing to remove a reaction. */
function isOneEmoji(value: string): boolean {
  if (value === '') return true;
  const segments = [...new Intl.Segmenter(undefined, { granularity: 'grapheme' }).segment(value)];
  return segments.length === 1 && /\p{Extended_Pictographic}|\p{Regional_Indicator}/u.test(value);
}

export function checkTesterDraft(draft: TesterDraft): Problems {
  const problems: Problems = {};
  if (blank(draft.to)) problems.to = 'is required';
  else if (!/^\+?\d{7,15}$/.test(draft.to.replace(/[\s-]/g, '')) && !draft.to.includes('@'))
    problems.to = 'must be an international number or a JID';
  if (MEDIA_KINDS.includes(draft.kind)) {
    if (draft.source === 'url') {
      if (blank(draft.url)) problems.url = 'is required';
      else if (!/^https?:\/\/\S+$/i.test(draft.url.trim())) problems.url = 'must be an http(s) URL';
    } else if (!draft.file) problems.data = 'is required: choose a file';
    else if (draft.file.size > TESTER_LIMITS.MAX_MEDIA_BYTES) problems.data = 'must be at most 50 MB';
    else if (FAMILY[draft.kind] && draft.file.type && !draft.file.type.startsWith(`${FAMILY[draft.kind]}/`))
      problems.data = `must be ${draft.kind === 'video' ? 'a' : 'an'} ${FAMILY[draft.kind]}/* file (this one is ${draft.file.type})`;
    if (draft.kind !== 'audio') checkChars(problems, 'caption', draft.caption, TESTER_LIMITS.MAX_CAPTION_CHARS, false);
    if (draft.kind === 'document') checkChars(problems, 'filename', draft.filename, TESTER_LIMITS.MAX_FILENAME_CHARS, true);
  }
  if (draft.kind === 'location') {
    checkNumber(problems, 'latitude', draft.latitude, -90, 90);
    checkNumber(problems, 'longitude', draft.longitude, -180, 180);
    checkChars(problems, 'name', draft.placeName, TESTER_LIMITS.MAX_LOCATION_NAME_CHARS, false);
    checkChars(problems, 'address', draft.address, TESTER_LIMITS.MAX_LOCATION_ADDRESS_CHARS, false);
  }
  if (draft.kind === 'contact') {
    if (blank(draft.displayName) && blank(draft.vcard)) problems.displayName = 'or vcard is required';
    else checkChars(problems, 'displayName', draft.displayName, TESTER_LIMITS.MAX_DISPLAY_NAME_CHARS, false);
    if (!blank(draft.vcard)) {
      if (charCount(draft.vcard) > TESTER_LIMITS.MAX_VCARD_CHARS)
        problems.vcard = `must be at most ${TESTER_LIMITS.MAX_VCARD_CHARS} characters`;
      else if (!/^BEGIN:VCARD\r?\n[\s\S]*\r?\nEND:VCARD\s*$/i.test(draft.vcard.trimStart()))
        problems.vcard = 'must be a vCard (BEGIN:VCARD ... END:VCARD)';
    }
  }
  if (draft.kind === 'reaction') {
    if (blank(draft.messageId)) problems.messageId = 'is required: pick a message';
    if (!isOneEmoji(draft.emoji)) problems.reaction = 'must be one emoji, or empty to remove your reaction';
  }
  return problems;
}

/** The path and body the API takes for the draft (empty optional fields left out). */
export function toTesterRequest(draft: TesterDraft): { path: string; body: Record<string, unknown> } {
  const to = draft.to.includes('@') ? draft.to.trim() : draft.to.replace(/[^\d]/g, '');
  const optional = (name: string, value: string) => (value.trim() ? { [name]: value } : {});
  switch (draft.kind) {
    case 'location':
      return {
        path: '/messages/location',
        body: {
          to,
          latitude: Number(draft.latitude),
          longitude: Number(draft.longitude),
          ...optional('name', draft.placeName),
          ...optional('address', draft.address),
        },
      };
    case 'contact':
      return { path: '/messages/contact', body: { to, ...optional('displayName', draft.displayName), ...optional('vcard', draft.vcard) } };
    case 'reaction':
      return {
        path: `/messages/${encodeURIComponent(draft.messageId.trim() || '{messageId}')}/reaction`,
        body: { to, reaction: draft.emoji },
      };
    default: {
      const source =
        draft.source === 'url'
          ? { url: draft.url.trim() }
          : { data: draft.file?.data ?? '', ...(draft.file?.type ? { mimeType: draft.file.type } : {}) };
      return {
        path: `/messages/${draft.kind}`,
        body: {
          to,
          ...source,
          ...(draft.kind === 'document' ? { filename: draft.filename } : {}),
          ...(draft.kind !== 'audio' ? optional('caption', draft.caption) : {}),
        },
      };
    }
  }
}

/** The curl preview shows a large file's base64 shortened (the real request carries all of it); small files stay whole. */
export function forPreview(body: Record<string, unknown>): Record<string, unknown> {
  const data = body.data;
  if (typeof data !== 'string' || data.length <= 8192) return body;
  return { ...body, data: `${data.slice(0, 48)}…(${data.length} base64 characters)` };
}
