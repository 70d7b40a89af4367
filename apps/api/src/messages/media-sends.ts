import { Injectable } from '@nestjs/common';
import { AppError, MAX_MEDIA_BYTES, type InstanceScope, type MediaSource } from '@app/contracts';
import { MediaRepository } from '@app/database';
import type { CreatedIdDto } from '../common/created-id.dto';
import { PublicUrls } from '../common/public-urls';
import type { SendAudioDto, SendDocumentDto, SendImageDto, SendStickerDto, SendVideoDto, SendVoiceDto } from './dto/send-media.dto';
import { sendOptions } from './message-payloads';
import { MessagesService } from './messages.service';

export type MediaKind = 'image' | 'video' | 'audio' | 'voice' | 'document' | 'sticker';
type MediaDto = SendImageDto | SendVideoDto | SendAudioDto | SendVoiceDto | SendDocumentDto | SendStickerDto;

/** What the network assumes when the client names no type. */
const DEFAULT_MIME: Record<MediaKind, string> = {
  image: 'image/jpeg',
  video: 'video/mp4',
  audio: 'audio/mpeg',
  voice: 'audio/ogg; codecs=opus',
  document: 'application/octet-stream',
  sticker: 'image/webp',
};

/**
 * Media sends: inline `data` is stored with the message (so an accepted send never depends on the client again);
 * a `url` is checked to be public now and fetched by the worker, through the same SSRF-safe client, when sending.
 */
@Injectable()
export class MediaSends {
  constructor(
    private readonly urls: PublicUrls,
    private readonly messages: MessagesService,
    private readonly media: MediaRepository,
  ) {}

  async send(scope: InstanceScope, kind: MediaKind, dto: MediaDto, key?: string): Promise<CreatedIdDto> {
    const mimeType = ('mimeType' in dto && dto.mimeType) || undefined;
    const source = await this.source(scope, kind, dto, mimeType);
    const fields = dto as unknown as Record<string, unknown>;
    const extras: Record<string, unknown> = {};
    for (const field of ['caption', 'filename', 'viewOnce', 'isAnimated']) {
      if (fields[field] !== undefined && fields[field] !== null && fields[field] !== '') extras[field] = fields[field];
    }
    const payload = { media: source, ...extras, ...sendOptions(dto) };
    const accepted = await this.messages.acceptDetailed(scope, { kind, chatJid: dto.to, payload, body: dto }, key);
    if (accepted.replayed && 'blobId' in source) await this.media.delete(source.blobId);
    return { id: accepted.id };
  }

  private async source(scope: InstanceScope, kind: MediaKind, dto: MediaDto, mimeType?: string): Promise<MediaSource> {
    if (dto.data) {
      const bytes = Buffer.from(dto.data, 'base64');
      if (bytes.length === 0) throw AppError.validation('data must not be empty');
      if (bytes.length > MAX_MEDIA_BYTES) throw AppError.validation(`data must be at most ${MAX_MEDIA_BYTES} bytes`);
      return this.media.store(scope.instanceId, mimeType ?? DEFAULT_MIME[kind], bytes);
    }
    const url = dto.url as string;
    await this.urls.assertPublic('url', url);
    return { url, ...(mimeType ? { mimeType } : {}) };
  }
}
