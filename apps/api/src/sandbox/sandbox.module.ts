import { Module } from '@nestjs/common';
import { SandboxController } from './sandbox.controller';
import { SandboxService } from './sandbox.service';
import { SandboxUsersController } from './sandbox-users.controller';

@Module({ controllers: [SandboxController, SandboxUsersController], providers: [SandboxService] })
export class SandboxModule {}
