import { Module } from '@nestjs/common';
import { SandboxChannelsController } from './sandbox-channels.controller';
import { SandboxController } from './sandbox.controller';
import { SandboxService } from './sandbox.service';

@Module({ controllers: [SandboxController, SandboxChannelsController], providers: [SandboxService] })
export class SandboxModule {}
