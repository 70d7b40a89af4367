import { Global, Module } from '@nestjs/common';
import { APP_CONFIG, type AppConfig } from '@app/config';
import { SecretBox } from '@app/security';
import { PartitionMaintenance } from './partitions/partition-maintenance';
import { PrismaService } from './prisma.service';
import { ReadReplica } from './read-replica';
import { CredentialRepository } from './repositories/credential.repository';
import { CustomerRepository } from './repositories/customer.repository';
import { DashboardSessionRepository } from './repositories/dashboard-session.repository';
import { DashboardUserRepository } from './repositories/dashboard-user.repository';
import { EventLogRepository } from './repositories/event-log.repository';
import { EventStreamRepository } from './repositories/event-stream.repository';
import { InstanceLifecycleRepository } from './repositories/instance-lifecycle.repository';
import { InstanceRepository } from './repositories/instance.repository';
import { MediaRepository } from './repositories/media.repository';
import { NetworkAuthRepository } from './repositories/network-auth.repository';
import { NetworkMessageRepository } from './repositories/network-message.repository';
import { MessageRepository } from './repositories/message.repository';
import { ChatStoreRepository } from './repositories/chat-store.repository';
import { ContactStoreRepository } from './repositories/contact-store.repository';
import { GroupStoreRepository } from './repositories/group-store.repository';
import { SandboxWorldRepository } from './repositories/sandbox-world.repository';
import { SandboxRepository } from './repositories/sandbox.repository';
import { ShardLeaseRepository } from './repositories/shard-lease.repository';
import { ShardOwnerMap } from './repositories/shard-owner-map';
import { WebhookDeliveryRepository } from './repositories/webhook-delivery.repository';
import { SinkDeliveryRepository } from './repositories/sink-delivery.repository';
import { DeliveryHealthRepository } from './repositories/delivery-health.repository';
import { BacklogRepository } from './repositories/backlog.repository';
import { ConnectionPools } from './pool-usage';

const repositories = [
  CustomerRepository,
  CredentialRepository,
  InstanceRepository,
  InstanceLifecycleRepository,
  EventLogRepository,
  EventStreamRepository,
  SandboxRepository,
  SandboxWorldRepository,
  ChatStoreRepository,
  ContactStoreRepository,
  GroupStoreRepository,
  MessageRepository,
  MediaRepository,
  WebhookDeliveryRepository,
  SinkDeliveryRepository,
  DeliveryHealthRepository,
  NetworkAuthRepository,
  NetworkMessageRepository,
  DashboardUserRepository,
  DashboardSessionRepository,
  ShardLeaseRepository,
  ShardOwnerMap,
  PartitionMaintenance,
  BacklogRepository,
  ConnectionPools,
];

@Global()
@Module({
  providers: [
    PrismaService,
    ReadReplica,
    { provide: SecretBox, inject: [APP_CONFIG], useFactory: (config: AppConfig) => new SecretBox(config.encryptionKey) },
    ...repositories,
  ],
  exports: [PrismaService, ReadReplica, SecretBox, ...repositories],
})
export class DatabaseModule {}
