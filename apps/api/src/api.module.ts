import { Module, type DynamicModule } from '@nestjs/common';
import { ConfigModule, type AppConfig } from '@app/config';
import { DatabaseModule } from '@app/database';
import { ObservabilityModule, loggerModule } from '@app/observability';
import { RedisModule } from '@app/redis';
import { AccountModule } from './account/account.module';
import { AdminModule } from './admin/admin.module';
import { AuthModule } from './auth/auth.module';
import { CallsModule } from './calls/calls.module';
import { ChatsModule } from './chats/chats.module';
import { RouteIndex } from './http/route-index';
import { GroupsModule } from './groups/groups.module';
import { CommunitiesModule } from './communities/communities.module';
import { ContactsModule } from './contacts/contacts.module';
import { DashboardModule } from './dashboard/dashboard.module';
import { EventsModule } from './events/events.module';
import { InstanceStateModule } from './instance-state/instance-state.module';
import { InstanceModule } from './instance/instance.module';
import { LimitsModule } from './limits/limits.module';
import { MediaModule } from './media/media.module';
import { MessagesModule } from './messages/messages.module';
import { NewslettersModule } from './newsletters/newsletters.module';
import { StatusModule } from './status/status.module';
import { SandboxModule } from './sandbox/sandbox.module';
import { SessionModule } from './session/session.module';
import { UsersModule } from './users/users.module';
import { WebhooksModule } from './webhooks/webhooks.module';

@Module({})
export class ApiModule {
  static forRoot(config: AppConfig): DynamicModule {
    return {
      module: ApiModule,
      imports: [
        ConfigModule.forRoot(config),
        loggerModule(config, 'api'),
        DatabaseModule,
        RedisModule,
        ObservabilityModule,
        AuthModule,
        LimitsModule,
        InstanceStateModule,
        AccountModule,
        InstanceModule,
        SessionModule,
        WebhooksModule,
        MessagesModule,
        ChatsModule,
        GroupsModule,
        UsersModule,
        CallsModule,
        MediaModule,
        CommunitiesModule,
        ContactsModule,
        NewslettersModule,
        StatusModule,
        EventsModule,
        AdminModule,
        DashboardModule,
        // The sandbox control surface does not exist at all when the operator switches test mode off.
        ...(config.sandboxEnabled ? [SandboxModule] : []),
      ],
      providers: [RouteIndex],
    };
  }
}
