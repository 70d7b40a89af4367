import { Injectable, Logger } from '@nestjs/common';
import { AppError, type CommunityOperations } from '@app/contracts';
import type { Node } from './binary-nodes';
import { communityInfoOf, subGroupsOf } from './community-info';
import { UNSEEN, refused, unexpectedAnswer, type Refusals } from './network-errors';
import type { BaileysOperationHandlers } from './operation-handlers';
import { assertApplied } from './participant-results';
import { pictureOf } from './pictures';

const ADMIN: Refusals = { forbidden: 'not a community admin' };
const INFO_EDITOR: Refusals = { forbidden: 'not a community admin (community info is locked)' };

/**
 * Communities through Baileys' community calls, on the community's parent group. As with groups, the network
 * announces each change to all members' devices, so the `group` events come from the socket's own event stream.
 */
@Injectable()
export class BaileysCommunityOperations {
  private readonly logger = new Logger('BaileysCommunities');

  readonly handlers: BaileysOperationHandlers<CommunityOperations> = {
    'communities.create': async ({ socket, selfJid, selfLid }, { name, participants, approvalMode }) => {
      const created = await socket.communityCreate(name, '');
      // Baileys answers null when it could not read the new community back, though the network created it.
      if (!created) throw unexpectedAnswer('the new community');
      const people = participants.filter((jid) => jid !== selfJid && jid !== selfLid);
      // The community exists from here on: failing the operation would hide its id, so what the network refuses of
      // the rest is logged, and the answer (read back from the network) shows the members and mode it really has.
      if (people.length > 0) await this.settle('add members', created.id, socket.communityParticipantsUpdate(created.id, people, 'add'));
      await this.settle('set the approval mode', created.id, socket.communityJoinApprovalMode(created.id, approvalMode));
      return communityInfoOf(await socket.groupMetadata(created.id));
    },

    'communities.list': async ({ socket }) =>
      Object.values(await socket.groupFetchAllParticipating())
        .filter((group) => group.isCommunity)
        .map(communityInfoOf),

    'communities.info': async ({ socket }, { communityId }) => {
      const metadata = await refused(socket.groupMetadata(communityId), UNSEEN);
      if (!metadata.isCommunity) throw new AppError('not_found');
      return communityInfoOf(metadata);
    },

    'communities.leave': async ({ socket }, { communityId }) => {
      await refused(socket.communityLeave(communityId), UNSEEN);
      return {};
    },

    'communities.name': async ({ socket }, { communityId, name }) => {
      await refused(socket.communityUpdateSubject(communityId, name), INFO_EDITOR);
      return {};
    },

    'communities.description': async ({ socket }, { communityId, description }) => {
      // communityUpdateDescription first reads communityMetadata, which fails in rc14 (#2753); the group call sends
      // the same description IQ after reading the current description id with groupMetadata.
      await refused(socket.groupUpdateDescription(communityId, description === '' ? undefined : description), INFO_EDITOR);
      return {};
    },

    'communities.picture': async (context, { communityId, image }) => {
      await refused(context.socket.updateProfilePicture(communityId, Buffer.from(image, 'base64')), INFO_EDITOR);
      return { pictureId: (await pictureOf(context, communityId)).pictureId };
    },

    'communities.locked': async ({ socket }, { communityId, locked }) => {
      await refused(socket.communitySettingUpdate(communityId, locked ? 'locked' : 'unlocked'), ADMIN);
      return {};
    },

    'communities.participants': async ({ socket }, { communityId, participants, action }) => {
      assertApplied(action, await refused(socket.communityParticipantsUpdate(communityId, participants, action), ADMIN));
      return {};
    },

    'communities.inviteCode': async ({ socket }, { communityId }) => {
      const code = await refused(socket.communityInviteCode(communityId), ADMIN);
      if (!code) throw unexpectedAnswer('an invite code');
      return { code };
    },

    'communities.revokeInvite': async ({ socket }, { communityId }) => {
      const code = await refused(socket.communityRevokeInvite(communityId), ADMIN);
      if (!code) throw unexpectedAnswer('the new invite code');
      return { code };
    },

    'communities.subGroups': async ({ socket }, { communityId }) => {
      const answer = (await refused(
        socket.query({ tag: 'iq', attrs: { type: 'get', xmlns: 'w:g2', to: communityId }, content: [{ tag: 'sub_groups', attrs: {} }] }),
        UNSEEN,
      )) as Node;
      return subGroupsOf(answer);
    },

    'communities.createGroup': async ({ socket, selfJid, selfLid }, { communityId, name, participants }) => {
      const people = participants.filter((jid) => jid !== selfJid && jid !== selfLid);
      const created = await refused(socket.communityCreateGroup(name, people, communityId), ADMIN);
      if (!created) throw unexpectedAnswer('the new group');
      return { id: created.id };
    },

    'communities.linkGroup': async ({ socket }, { communityId, groupId }) => {
      await refused(socket.communityLinkGroup(groupId, communityId), ADMIN);
      return {};
    },

    'communities.unlinkGroup': async ({ socket }, { communityId, groupId }) => {
      await refused(socket.communityUnlinkGroup(groupId, communityId), ADMIN);
      return {};
    },
  };

  private async settle(step: string, communityId: string, call: Promise<unknown>): Promise<void> {
    try {
      await call;
    } catch (error) {
      this.logger.warn(`new community ${communityId}: could not ${step}: ${(error as Error).message}`);
    }
  }
}
