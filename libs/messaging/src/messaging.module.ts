import { Module } from '@nestjs/common';
import { SandboxChatOperations } from './sandbox/operations/chat-operations';
import { SandboxOperations } from './sandbox/operations/sandbox-operations';
import { SandboxHappenings } from './sandbox/sandbox-happenings';
import { SandboxNetwork } from './sandbox/sandbox-network';
import { SandboxDriver } from './sandbox/sandbox.driver';

@Module({
  providers: [SandboxNetwork, SandboxHappenings, SandboxDriver, SandboxOperations, SandboxChatOperations],
  exports: [SandboxNetwork, SandboxHappenings, SandboxDriver],
})
export class MessagingModule {}
