import { Module } from '@nestjs/common';
import { SandboxController } from './sandbox.controller';
import { SandboxProfilesController } from './sandbox-profiles.controller';
import { SandboxProfilesService } from './sandbox-profiles.service';
import { SandboxService } from './sandbox.service';

@Module({ controllers: [SandboxController, SandboxProfilesController], providers: [SandboxService, SandboxProfilesService] })
export class SandboxModule {}
