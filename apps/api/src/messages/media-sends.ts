import { Injectable } from '@nestjs/common';
import { AppError, MAX_MEDIA_BYTES, type InstanceScope, type MediaKind, type MediaSource } from '@app/contracts';
import { MediaRepository } from '@app/database';
import type { CreatedIdDto } from '../common/created-id.dto';
import { PublicUrls } from '../common/public-urls';
import { mediaRequest, type MediaRequest } from './message-payloads';
import { MessagesService } from './messages.service';

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

  async send(scope: InstanceScope, request: MediaRequest, key?: string): Promise<CreatedIdDto> {
    const { kind, dto } = request;
    const mimeType = ('mimeType' in dto && dto.mimeType) || undefined;
    const source = await this.source(scope, kind, dto, mimeType);
    const accepted = await this.messages.acceptDetailed(scope, mediaRequest(request, source), key);
    if (accepted.replayed && 'blobId' in source) await this.media.delete(source.blobId);
    return { id: accepted.id };
  }

  private async source(scope: InstanceScope, kind: MediaKind, dto: MediaRequest['dto'], mimeType?: string): Promise<MediaSource> {
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
