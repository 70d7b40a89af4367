import { Module } from '@nestjs/common';
import { PublicUrls } from '../common/public-urls';
import { AccountController } from './account.controller';
import { CustomerAccountService } from './customer-account.service';
import { InstanceStatusStreams } from './instance-status-streams';
import { InstancesService } from './instances.service';
import { WebhookTestService } from './webhook-test.service';
import { WebhookTargets } from './webhook-targets';

@Module({
  controllers: [AccountController],
  providers: [InstancesService, CustomerAccountService, WebhookTargets, PublicUrls, InstanceStatusStreams, WebhookTestService],
  exports: [InstancesService],
})
export class AccountModule {}
