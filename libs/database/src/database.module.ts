import { Global, Module } from '@nestjs/common';
import { APP_CONFIG, type AppConfig } from '@app/config';
import { SecretBox } from '@app/security';
import { PrismaService } from './prisma.service';
import { CredentialRepository } from './repositories/credential.repository';
import { CustomerRepository } from './repositories/customer.repository';
import { EventLogRepository } from './repositories/event-log.repository';
import { InstanceLifecycleRepository } from './repositories/instance-lifecycle.repository';
import { InstanceRepository } from './repositories/instance.repository';
import { MediaRepository } from './repositories/media.repository';
import { MessageRepository } from './repositories/message.repository';
import { SandboxRepository } from './repositories/sandbox.repository';

const repositories = [
  CustomerRepository,
  CredentialRepository,
  InstanceRepository,
  InstanceLifecycleRepository,
  EventLogRepository,
  SandboxRepository,
  MessageRepository,
  MediaRepository,
];

@Global()
@Module({
  providers: [
    PrismaService,
    { provide: SecretBox, inject: [APP_CONFIG], useFactory: (config: AppConfig) => new SecretBox(config.encryptionKey) },
    ...repositories,
  ],
  exports: [PrismaService, SecretBox, ...repositories],
})
export class DatabaseModule {}
