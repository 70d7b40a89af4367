import { Module } from '@nestjs/common';
import { SandboxHappenings } from './sandbox/sandbox-happenings';
import { SandboxNetwork } from './sandbox/sandbox-network';
import { SandboxDriver } from './sandbox/sandbox.driver';

@Module({
  providers: [SandboxNetwork, SandboxHappenings, SandboxDriver],
  exports: [SandboxNetwork, SandboxHappenings, SandboxDriver],
})
export class MessagingModule {}
