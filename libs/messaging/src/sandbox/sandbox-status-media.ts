import { Inject, Injectable } from '@nestjs/common';
import { APP_CONFIG, type AppConfig } from '@app/config';
import { AppError, MAX_MEDIA_BYTES, type StatusMedia } from '@app/contracts';
import { OutboundHttp, outboundPolicy } from '@app/security';

const FETCH_TIMEOUT_MS = 30_000;

/** The bytes of a status post's file: inline, or downloaded from the customer's URL through the SSRF-safe client. */
@Injectable()
export class SandboxStatusMedia {
  private readonly outbound: OutboundHttp;

  constructor(@Inject(APP_CONFIG) config: AppConfig) {
    this.outbound = new OutboundHttp(outboundPolicy(config));
  }

  async load(media: StatusMedia): Promise<{ bytes: Buffer; contentType?: string }> {
    if ('data' in media) return { bytes: Buffer.from(media.data, 'base64') };
    try {
      const fetched = await this.outbound.fetchBytes(media.url, MAX_MEDIA_BYTES, FETCH_TIMEOUT_MS);
      return { bytes: fetched.data, contentType: fetched.contentType?.split(';')[0]?.trim() || undefined };
    } catch (error) {
      throw AppError.validation(`url could not be fetched: ${(error as Error).message}`);
    }
  }
}
