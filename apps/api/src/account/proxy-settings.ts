import { Injectable } from '@nestjs/common';
import { AppError, NETWORK_PROXY_TOPIC } from '@app/contracts';
import { InvalidationBus } from '@app/redis';
import { parseProxyUrl, proxyUrlWrite } from '@app/security';
import { PublicUrls } from '../common/public-urls';
import { MASKED_SECRET_RULE } from './masked-secret-rule';

/** Proxy URLs in settings: the masked value sent back keeps the stored one, a new one must name a public host. */
@Injectable()
export class ProxySettings {
  constructor(
    private readonly urls: PublicUrls,
    private readonly bus: InvalidationBus,
  ) {}

  /** What to store for a write of `input`: undefined keeps the stored URL, null removes it. */
  async toStored(field: string, input: string | undefined, stored: string | null): Promise<string | null | undefined> {
    if (input === undefined) return undefined;
    const write = proxyUrlWrite(input, stored);
    switch (write.kind) {
      case 'keep':
        return undefined;
      case 'invalid':
        throw AppError.validation(MASKED_SECRET_RULE(field));
      case 'clear':
        return null;
      case 'set':
        await this.urls.assertPublicHost(field, parseProxyUrl(write.value).host);
        return write.value;
    }
  }

  /** After an instance's settings (or, with a customer id, the defaults its instances follow) were saved. */
  async changed(target: { instanceId: string } | { customerId: string }): Promise<void> {
    await this.bus.publish(NETWORK_PROXY_TOPIC, 'instanceId' in target ? target.instanceId : `customer:${target.customerId}`);
  }
}
