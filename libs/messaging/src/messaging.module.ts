import { Module } from '@nestjs/common';
import { SandboxCommunities } from './sandbox/communities/sandbox-communities';
import { SandboxCommunityMembership } from './sandbox/sandbox-community-membership';
import { SandboxCommunityOperations } from './sandbox/operations/sandbox-community-operations';
import { SandboxChatOperations } from './sandbox/operations/sandbox-chat-operations';
import { SandboxGroupAccess } from './sandbox/groups/sandbox-group-access';
import { SandboxGroupMembership } from './sandbox/groups/sandbox-group-membership';
import { SandboxJoinRequests } from './sandbox/groups/sandbox-join-requests';
import { SandboxGroupOperations } from './sandbox/operations/sandbox-group-operations';
import { SandboxContactOperations } from './sandbox/operations/sandbox-contact-operations';
import { SandboxHistory } from './sandbox/sandbox-history';
import { SandboxProfiles } from './sandbox/sandbox-profiles';
import { SandboxNewsletterOperations } from './sandbox/operations/sandbox-newsletter-operations';
import { SandboxStatusOperations } from './sandbox/operations/sandbox-status-operations';
import { SandboxChannels } from './sandbox/sandbox-channels';
import { SandboxStatusPrivacy } from './sandbox/sandbox-status-privacy';
import { SandboxStatusMedia } from './sandbox/sandbox-status-media';
import { SandboxOperations } from './sandbox/operations/sandbox-operations';
import { SandboxHappenings } from './sandbox/sandbox-happenings';
import { SandboxNetwork } from './sandbox/sandbox-network';
import { SandboxSends } from './sandbox/sandbox-sends';
import { SandboxLinkDrops } from './sandbox/sandbox-link-drops';
import { SandboxRefusals } from './sandbox/sandbox-refusals';
import { SandboxLinks } from './sandbox/sandbox-links';
import { SandboxPeople } from './sandbox/sandbox-people';
import { SandboxPhone } from './sandbox/sandbox-phone';
import { SandboxSetup } from './sandbox/sandbox-setup';
import { SandboxInbound } from './sandbox/sandbox-inbound';
import { SandboxInboundContent } from './sandbox/sandbox-inbound-content';
import { SandboxControls } from './sandbox/controls/sandbox-controls';
import { SandboxMediaFiles } from './sandbox/sandbox-media-files';
import { SandboxDirectory } from './sandbox/sandbox-directory';
import { SandboxUserOperations } from './sandbox/operations/sandbox-user-operations';
import { SandboxCallOperations } from './sandbox/operations/sandbox-call-operations';
import { SandboxMediaOperations } from './sandbox/operations/sandbox-media-operations';
import { SandboxDriver } from './sandbox/sandbox.driver';
import { BAILEYS_OPERATION_PROVIDERS, BaileysOperations } from './baileys/operations';

@Module({
  providers: [
    SandboxNetwork,
    SandboxSends,
    SandboxRefusals,
    SandboxLinkDrops,
    SandboxLinks,
    SandboxPeople,
    SandboxPhone,
    SandboxSetup,
    SandboxInbound,
    SandboxInboundContent,
    SandboxControls,
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
  exports: [SandboxDriver, SandboxControls, BaileysOperations],
})
export class MessagingModule {}
