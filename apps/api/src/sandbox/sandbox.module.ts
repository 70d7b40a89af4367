import { Module } from '@nestjs/common';
import { SandboxGroupsController } from './sandbox-groups.controller';
import { SandboxController } from './sandbox.controller';
import { SandboxService } from './sandbox.service';

@Module({ controllers: [SandboxController, SandboxGroupsController], providers: [SandboxService] })
export class SandboxModule {}
