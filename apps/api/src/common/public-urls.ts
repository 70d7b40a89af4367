import { Inject, Injectable } from '@nestjs/common';
import { APP_CONFIG, type AppConfig } from '@app/config';
import { AppError } from '@app/contracts';
import { OutboundHttp, OutboundHttpError, outboundPolicy } from '@app/security';

/** The SSRF check for customer-supplied URLs (media, webhooks), as a 400 that names the field. */
@Injectable()
export class PublicUrls {
  private readonly outbound: OutboundHttp;

  constructor(@Inject(APP_CONFIG) config: AppConfig) {
    this.outbound = new OutboundHttp(outboundPolicy(config));
  }

  async assertPublic(field: string, url: string, options: { allowUnresolved?: boolean } = {}): Promise<void> {
    try {
      await this.outbound.assertReachable(url, options);
    } catch (error) {
      if (error instanceof OutboundHttpError)
        throw AppError.validation(`${field} must point to a public http(s) address: ${error.message}`);
      throw error;
    }
  }

  /** 400 unless `host` is (or may resolve to) a public address: a customer's proxy must not reach into the private network. */
  async assertPublicHost(field: string, host: string): Promise<void> {
    try {
      await this.outbound.assertReachable(`http://${host.includes(':') ? `[${host}]` : host}/`, { allowUnresolved: true });
    } catch (error) {
      if (error instanceof OutboundHttpError) throw AppError.validation(`${field} must point to a public address: ${error.message}`);
      throw error;
    }
  }
}
