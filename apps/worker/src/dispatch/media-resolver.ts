import { Inject, Injectable } from '@nestjs/common';
import { APP_CONFIG, type AppConfig } from '@app/config';
import { MAX_MEDIA_BYTES, PermanentSendError, mediaSourceOf, type OutboundMessage } from '@app/contracts';
import { MediaRepository, type StoredMessage } from '@app/database';
import { OutboundHttp, outboundPolicy } from '@app/security';

const FETCH_TIMEOUT_MS = 30_000;

/** Loads a send's media just before it goes out: stored bytes, or the customer's URL through the SSRF-safe client. */
@Injectable()
export class MediaResolver {
  private readonly outbound: OutboundHttp;

  constructor(
    @Inject(APP_CONFIG) config: AppConfig,
    private readonly media: MediaRepository,
  ) {
    this.outbound = new OutboundHttp(outboundPolicy(config));
  }

  async resolve(message: StoredMessage): Promise<OutboundMessage> {
    const source = mediaSourceOf(message);
    if (!source) return message;
    if ('blobId' in source) {
      const data = await this.media.load(source.blobId);
      if (!data) throw new PermanentSendError('the media of this message is no longer stored');
      return { ...message, media: { data, mimeType: source.mimeType } };
    }
    try {
      const fetched = await this.outbound.fetchBytes(source.url, MAX_MEDIA_BYTES, FETCH_TIMEOUT_MS);
      const mimeType = source.mimeType ?? fetched.contentType?.split(';')[0]?.trim() ?? 'application/octet-stream';
      return { ...message, media: { data: fetched.data, mimeType } };
    } catch (error) {
      throw new PermanentSendError(`media could not be fetched: ${(error as Error).message}`);
    }
  }

  /** Inline bytes are only kept until the network has them. */
  async release(message: StoredMessage): Promise<void> {
    const source = mediaSourceOf(message);
    if (source && 'blobId' in source) await this.media.delete(source.blobId);
  }
}
