import { Module } from '@nestjs/common';
import { WebhookQueue } from '@app/redis';
import { DeliveriesController } from './deliveries.controller';
import { DeliveriesService } from './deliveries.service';
import { DeliveryHealthController } from './delivery-health.controller';
import { DeliveryHealthService } from './delivery-health.service';

@Module({
  controllers: [DeliveryHealthController, DeliveriesController],
  providers: [DeliveriesService, DeliveryHealthService, WebhookQueue],
})
export class WebhooksModule {}
