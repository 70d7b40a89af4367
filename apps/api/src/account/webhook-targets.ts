import { Injectable } from '@nestjs/common';
import { EVENT_ROUTING_TOPIC } from '@app/contracts';
import { WebhookDeliveryRepository } from '@app/database';
import { InvalidationBus } from '@app/redis';
import { PublicUrls } from '../common/public-urls';

/** Webhook URLs in settings: refused unless public (SSRF), and every change reaches the workers at once. */
@Injectable()
export class WebhookTargets {
  constructor(
    private readonly urls: PublicUrls,
    private readonly deliveries: WebhookDeliveryRepository,
    private readonly bus: InvalidationBus,
  ) {}

  /** 400 for a URL on a private, loopback, link-local or metadata address, or a name resolving to one. */
  async assertAllowed(field: string, url: string | undefined): Promise<void> {
    // A name that does not resolve from here may resolve where it matters; every delivery checks the address again.
    if (url) await this.urls.assertPublic(field, url, { allowUnresolved: true });
  }

  /** After an instance's settings (or, with a customer id, all its instances' defaults) were saved. */
  async changed(target: { instanceId: string } | { customerId: string }): Promise<void> {
    await this.deliveries.forgetGoneUrls(target);
    await this.bus.publish(EVENT_ROUTING_TOPIC, 'instanceId' in target ? target.instanceId : '*');
  }
}
