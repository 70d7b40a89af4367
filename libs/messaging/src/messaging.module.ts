import { Module } from '@nestjs/common';
import { SandboxCommunities } from './sandbox/communities/sandbox-communities';
import { SandboxCommunityMembership } from './sandbox/community-membership';
import { SandboxCommunityOperations } from './sandbox/operations/community-operations';
import { SandboxChatOperations } from './sandbox/operations/chat-operations';
import { SandboxOperations } from './sandbox/operations/sandbox-operations';
import { SandboxHappenings } from './sandbox/sandbox-happenings';
import { SandboxNetwork } from './sandbox/sandbox-network';
import { SandboxDriver } from './sandbox/sandbox.driver';

@Module({
  providers: [
    SandboxNetwork,
    SandboxHappenings,
    SandboxDriver,
    SandboxOperations,
    SandboxChatOperations,
    SandboxCommunityMembership,
    SandboxCommunities,
    SandboxCommunityOperations,
  ],
  exports: [SandboxNetwork, SandboxHappenings, SandboxDriver, SandboxCommunityMembership],
})
export class MessagingModule {}
