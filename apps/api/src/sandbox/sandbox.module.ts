import { Module } from '@nestjs/common';
import { SandboxGroupsController } from './sandbox-groups.controller';
import { SandboxController } from './sandbox.controller';
import { SandboxService } from './sandbox.service';
import { SandboxUsersController } from './sandbox-users.controller';

@Module({
  controllers: [SandboxController, SandboxGroupsController, SandboxUsersController],
  providers: [SandboxService],
})
export class SandboxModule {}
