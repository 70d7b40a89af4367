import { Module } from '@nestjs/common';
import { SandboxGroupsController } from './sandbox-groups.controller';
import { SandboxChannelsController } from './sandbox-channels.controller';
import { SandboxController } from './sandbox.controller';
import { SandboxProfilesController } from './sandbox-profiles.controller';
import { SandboxProfilesService } from './sandbox-profiles.service';
import { SandboxService } from './sandbox.service';
import { SandboxUsersController } from './sandbox-users.controller';

@Module({
  controllers: [SandboxController, SandboxGroupsController, SandboxUsersController, SandboxProfilesController, SandboxChannelsController],
  providers: [SandboxService, SandboxProfilesService],
})
export class SandboxModule {}
