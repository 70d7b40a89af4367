// How a `message` event reads in the chat history and in the chat list, kind by kind.
import type { MessageEventData } from '../api/peer-types';

const MEDIA_LABELS: Record<string, string> = {
  image: 'Photo',
  video: 'Video',
  audio: 'Audio',
  voice: 'Voice message',
  document: 'Document',
  sticker: 'Sticker',
};

/** The display name a vCard carries (its FN line). */
export function vcardName(vcard: string): string {
  const fn = /^FN[^:]*:(.*)$/im.exec(vcard);
  return fn?.[1].trim() || 'no name given';
}

/** One short line for the chat list's "last message". */
export function messagePreview(message: MessageEventData): string {
  switch (message.type) {
    case 'media': {
      const label = MEDIA_LABELS[message.media?.mediaType ?? ''] ?? 'Media';
      const caption = message.media?.caption ?? message.text;
      return caption ? `${label}: ${caption}` : label;
    }
    case 'location':
      return `Location${message.location?.name ? `: ${message.location.name}` : ''}`;
    case 'contact':
      return `Contact: ${vcardName(message.contact ?? '')}`;
    case 'contactArray':
      return `${message.contactArray?.length ?? 0} contacts`;
    case 'reaction':
      return message.reaction?.emoji ? `Reacted ${message.reaction.emoji}` : 'Removed a reaction';
    case 'button_reply':
      return `Tapped “${message.buttonReply?.text ?? message.buttonReply?.id ?? ''}”`;
    case 'list_reply':
      return `Chose “${message.listReply?.title ?? message.listReply?.id ?? ''}”`;
    case 'pinInChat':
      return message.pin?.pinned === false ? 'Unpinned a message' : 'Pinned a message';
    default:
      return message.text ?? message.type;
  }
}

export const mediaLabel = (mediaType: string | undefined) => MEDIA_LABELS[mediaType ?? ''] ?? 'Media';
