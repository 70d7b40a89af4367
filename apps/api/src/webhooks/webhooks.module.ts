import { Module } from '@nestjs/common';
import { WebhookQueue } from '@app/redis';
import { DeliveriesController } from './deliveries.controller';
import { DeliveriesService } from './deliveries.service';

@Module({ controllers: [DeliveriesController], providers: [DeliveriesService, WebhookQueue] })
export class WebhooksModule {}
