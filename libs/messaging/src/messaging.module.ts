import { Module } from '@nestjs/common';
import { SandboxCommunityMembership } from './sandbox/community-membership';
import { SandboxChatOperations } from './sandbox/operations/chat-operations';
import { SandboxNewsletterOperations } from './sandbox/operations/newsletter-operations';
import { SandboxStatusOperations } from './sandbox/operations/status-operations';
import { SandboxChannels } from './sandbox/sandbox-channels';
import { SandboxStatusPrivacy } from './sandbox/sandbox-status-privacy';
import { SandboxStatusMedia } from './sandbox/status-media';
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
    SandboxNewsletterOperations,
    SandboxStatusOperations,
    SandboxChannels,
    SandboxStatusPrivacy,
    SandboxStatusMedia,
  ],
  exports: [SandboxNetwork, SandboxHappenings, SandboxDriver, SandboxCommunityMembership, SandboxChannels, SandboxStatusPrivacy],
})
export class MessagingModule {}
