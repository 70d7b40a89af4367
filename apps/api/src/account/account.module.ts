import { Module } from '@nestjs/common';
import { APP_CONFIG, type AppConfig } from '@app/config';
import { PublicUrls } from '../common/public-urls';
import { AccountController } from './account.controller';
import { CustomerAccountService } from './customer-account.service';
import { InstanceListCache } from './instance-list-cache';
import { InstanceStatusStreams } from './instance-status-streams';
import { InstancesService } from './instances.service';
import { WebhookTestService } from './webhook-test.service';
import { ProxySettings } from './proxy-settings';
import { WebhookTargets } from './webhook-targets';
import { EventSinkSettingsWriter } from './event-sink-settings';

@Module({
  controllers: [AccountController],
  providers: [
    InstancesService,
    CustomerAccountService,
    WebhookTargets,
    ProxySettings,
    EventSinkSettingsWriter,
    PublicUrls,
    InstanceStatusStreams,
    WebhookTestService,
    {
      provide: InstanceListCache,
      inject: [APP_CONFIG],
      useFactory: (config: AppConfig) => new InstanceListCache(config.instanceListCacheMb * 1024 * 1024),
    },
  ],
  exports: [InstancesService],
})
export class AccountModule {}
