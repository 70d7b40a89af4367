import { Module } from '@nestjs/common';
import { SandboxCommunityMembership } from './sandbox/community-membership';
import { SandboxChatOperations } from './sandbox/operations/chat-operations';
import { SandboxContactOperations } from './sandbox/operations/contact-operations';
import { SandboxHistory } from './sandbox/sandbox-history';
import { SandboxProfiles } from './sandbox/sandbox-profiles';
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
    SandboxContactOperations,
    SandboxHistory,
    SandboxProfiles,
  ],
  exports: [SandboxNetwork, SandboxHappenings, SandboxDriver, SandboxCommunityMembership, SandboxProfiles],
})
export class MessagingModule {}
