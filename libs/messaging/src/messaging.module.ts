import { Module } from '@nestjs/common';
import { SandboxCommunityMembership } from './sandbox/community-membership';
import { SandboxChatOperations } from './sandbox/operations/chat-operations';
import { SandboxOperations } from './sandbox/operations/sandbox-operations';
import { SandboxHappenings } from './sandbox/sandbox-happenings';
import { SandboxNetwork } from './sandbox/sandbox-network';
import { SandboxMediaFiles } from './sandbox/sandbox-media';
import { SandboxDirectory } from './sandbox/sandbox-directory';
import { SandboxUserOperations } from './sandbox/operations/user-operations';
import { SandboxCallOperations } from './sandbox/operations/call-operations';
import { SandboxMediaOperations } from './sandbox/operations/media-operations';
import { SandboxDriver } from './sandbox/sandbox.driver';

@Module({
  providers: [
    SandboxNetwork,
    SandboxHappenings,
    SandboxDriver,
    SandboxOperations,
    SandboxChatOperations,
    SandboxCommunityMembership,
    SandboxMediaFiles,
    SandboxDirectory,
    SandboxUserOperations,
    SandboxCallOperations,
    SandboxMediaOperations,
  ],
  exports: [SandboxNetwork, SandboxHappenings, SandboxDriver, SandboxCommunityMembership, SandboxDirectory],
})
export class MessagingModule {}
