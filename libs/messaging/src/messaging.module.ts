import { Module } from '@nestjs/common';
import { SandboxCommunities } from './sandbox/communities/sandbox-communities';
import { SandboxCommunityMembership } from './sandbox/community-membership';
import { SandboxCommunityOperations } from './sandbox/operations/community-operations';
import { SandboxChatOperations } from './sandbox/operations/chat-operations';
import { SandboxGroupAccess } from './sandbox/groups/group-access';
import { SandboxGroupMembership } from './sandbox/groups/group-membership';
import { SandboxJoinRequests } from './sandbox/groups/join-requests';
import { SandboxGroupOperations } from './sandbox/operations/group-operations';
import { SandboxContactOperations } from './sandbox/operations/contact-operations';
import { SandboxHistory } from './sandbox/sandbox-history';
import { SandboxProfiles } from './sandbox/sandbox-profiles';
import { SandboxNewsletterOperations } from './sandbox/operations/newsletter-operations';
import { SandboxStatusOperations } from './sandbox/operations/status-operations';
import { SandboxChannels } from './sandbox/sandbox-channels';
import { SandboxStatusPrivacy } from './sandbox/sandbox-status-privacy';
import { SandboxStatusMedia } from './sandbox/status-media';
import { SandboxOperations } from './sandbox/operations/sandbox-operations';
import { SandboxHappenings } from './sandbox/sandbox-happenings';
import { SandboxNetwork } from './sandbox/sandbox-network';
import { SandboxMediaFiles } from './sandbox/sandbox-media';
import { SandboxDirectory } from './sandbox/sandbox-directory';
import { SandboxUserOperations } from './sandbox/operations/user-operations';
import { SandboxCallOperations } from './sandbox/operations/call-operations';
import { SandboxMediaOperations } from './sandbox/operations/media-operations';
import { SandboxDriver } from './sandbox/sandbox.driver';
import { BAILEYS_OPERATION_PROVIDERS, BaileysOperations } from './baileys/operations';

@Module({
  providers: [
    SandboxNetwork,
    SandboxHappenings,
    SandboxDriver,
    SandboxOperations,
    SandboxChatOperations,
    SandboxCommunityMembership,
    SandboxGroupOperations,
    SandboxGroupAccess,
    SandboxGroupMembership,
    SandboxJoinRequests,
    SandboxMediaFiles,
    SandboxDirectory,
    SandboxUserOperations,
    SandboxCallOperations,
    SandboxMediaOperations,
    SandboxCommunities,
    SandboxCommunityOperations,
    SandboxContactOperations,
    SandboxHistory,
    SandboxProfiles,
    SandboxNewsletterOperations,
    SandboxStatusOperations,
    SandboxChannels,
    SandboxStatusPrivacy,
    SandboxStatusMedia,
    ...BAILEYS_OPERATION_PROVIDERS,
  ],
  exports: [
    SandboxNetwork,
    SandboxHappenings,
    SandboxDriver,
    SandboxCommunityMembership,
    SandboxJoinRequests,
    SandboxDirectory,
    SandboxProfiles,
    SandboxChannels,
    SandboxStatusPrivacy,
    BaileysOperations,
  ],
})
export class MessagingModule {}
