import type { MediaDescriptor, MediaType } from '@app/contracts';
import type { proto } from '@whiskeysockets/baileys';
import { toNumber } from './timestamps';

type Message = proto.IMessage;

const MEDIA_CONTENT = ['imageMessage', 'videoMessage', 'ptvMessage', 'audioMessage', 'documentMessage', 'stickerMessage'] as const;
export type MediaContentType = (typeof MEDIA_CONTENT)[number];

export function isMediaContent(type: string): type is MediaContentType {
  return (MEDIA_CONTENT as readonly string[]).includes(type);
}

/**
 * A received file as the contract describes it. `id` is the message id: `media.download` finds the stored message by
 * it and hands that to Baileys, which needs the whole message (keys, direct path) to fetch and decrypt the file.
 */
export function mediaDescriptor(content: Message, type: MediaContentType, id: string): MediaDescriptor {
  const base = (mediaType: MediaType, file: { mimetype?: string | null; fileLength?: Parameters<typeof toNumber>[0] }) => ({
    mediaType,
    mimeType: file.mimetype || 'application/octet-stream',
    id,
    fileLength: toNumber(file.fileLength),
  });
  switch (type) {
    case 'imageMessage': {
      const image = content.imageMessage ?? {};
      return {
        ...base('image', image),
        caption: text(image.caption),
        height: positive(image.height),
        width: positive(image.width),
        jpegThumbnail: base64(image.jpegThumbnail),
      };
    }
    case 'videoMessage':
    case 'ptvMessage': {
      const video = content[type] ?? {};
      return {
        ...base('video', video),
        caption: text(video.caption),
        height: positive(video.height),
        width: positive(video.width),
        duration: positive(video.seconds),
        jpegThumbnail: base64(video.jpegThumbnail),
      };
    }
    case 'audioMessage': {
      const audio = content.audioMessage ?? {};
      return { ...base(audio.ptt ? 'voice' : 'audio', audio), duration: positive(audio.seconds) };
    }
    case 'documentMessage': {
      const document = content.documentMessage ?? {};
      return {
        ...base('document', document),
        caption: text(document.caption),
        filename: text(document.fileName),
        title: text(document.title),
        pageCount: positive(document.pageCount),
        jpegThumbnail: base64(document.jpegThumbnail),
      };
    }
    case 'stickerMessage': {
      const sticker = content.stickerMessage ?? {};
      return { ...base('sticker', sticker), height: positive(sticker.height), width: positive(sticker.width) };
    }
  }
}

export function base64(bytes: Uint8Array | null | undefined): string | undefined {
  return bytes && bytes.length > 0 ? Buffer.from(bytes).toString('base64') : undefined;
}

function text(value: string | null | undefined): string | undefined {
  return value ? value : undefined;
}

function positive(value: number | null | undefined): number | undefined {
  return value && value > 0 ? value : undefined;
}
