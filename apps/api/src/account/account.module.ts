import { Module } from '@nestjs/common';
import { PublicUrls } from '../common/public-urls';
import { AccountController } from './account.controller';
import { CustomerAccountService } from './customer-account.service';
import { InstancesService } from './instances.service';
import { WebhookTargets } from './webhook-targets';

@Module({
  controllers: [AccountController],
  providers: [InstancesService, CustomerAccountService, WebhookTargets, PublicUrls],
  exports: [InstancesService],
})
export class AccountModule {}
