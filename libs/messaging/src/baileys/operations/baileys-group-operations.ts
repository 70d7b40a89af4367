import { Injectable } from '@nestjs/common';
import { AppError, type GroupOperations, type JoinRequest } from '@app/contracts';
import { membersBesidesSelf, refuseRemovingSelf } from '../../network-rules';
import type { BaileysContext } from '../baileys-context';
import { groupInfoOf } from './group-info';
import { isoFromSeconds, partyOf } from './jids';
import { UNSEEN, refused, unexpectedAnswer, type Refusals } from './network-errors';
import type { BaileysOperationHandlers } from './operation-handlers';
import { assertApplied } from './participant-results';
import { pictureOf } from './pictures';

const ADMIN: Refusals = { forbidden: 'not a group admin' };
const INFO_EDITOR: Refusals = { forbidden: 'not a group admin (group info is locked)' };
/** An invite code the network does not know or no longer honours (406 invalid, 410 revoked). */
const INVITE: Refusals = { notFound: [401, 403, 406] };

/**
 * Groups through Baileys' group calls. The network itself checks who may do what and announces every change to all
 * members' devices, this one included, so the `group` events come from the socket's own event stream.
 */
@Injectable()
export class BaileysGroupOperations {
  readonly handlers: BaileysOperationHandlers<GroupOperations> = {
    'groups.create': async ({ socket, selfJid, selfLid }, { name, participants }) => {
      // The creator is in the group by creating it, as its superadmin.
      const people = membersBesidesSelf(participants, [selfJid, selfLid]);
      return groupInfoOf(await socket.groupCreate(name, people));
    },

    'groups.list': async ({ socket }) => Object.values(await socket.groupFetchAllParticipating()).map(groupInfoOf),

    'groups.info': async ({ socket }, { groupId }) => groupInfoOf(await refused(socket.groupMetadata(groupId), UNSEEN)),

    'groups.participants': async ({ socket, selfJid, selfLid }, { groupId, participants, action }) => {
      refuseRemovingSelf(action, participants, [selfJid, selfLid]);
      assertApplied(action, await refused(socket.groupParticipantsUpdate(groupId, participants, action), ADMIN));
      return groupInfoOf(await socket.groupMetadata(groupId));
    },

    'groups.inviteCode': async ({ socket }, { groupId }) => {
      const code = await refused(socket.groupInviteCode(groupId), ADMIN);
      if (!code) throw unexpectedAnswer('an invite code');
      return { code };
    },

    'groups.revokeInvite': async ({ socket }, { groupId }) => {
      const code = await refused(socket.groupRevokeInvite(groupId), ADMIN);
      if (!code) throw unexpectedAnswer('the new invite code');
      return { code };
    },

    'groups.setName': async ({ socket }, { groupId, name }) => {
      await refused(socket.groupUpdateSubject(groupId, name), INFO_EDITOR);
      return {};
    },

    'groups.setDescription': async ({ socket }, { groupId, description }) => {
      // Baileys deletes the description when given none.
      await refused(socket.groupUpdateDescription(groupId, description === '' ? undefined : description), INFO_EDITOR);
      return {};
    },

    'groups.setPicture': async (context, { groupId, image }) => {
      await refused(context.socket.updateProfilePicture(groupId, Buffer.from(image, 'base64')), INFO_EDITOR);
      return { pictureId: (await pictureOf(context, groupId)).pictureId };
    },

    'groups.setting': async ({ socket }, { groupId, setting, enabled }) => {
      const value = setting === 'announce' ? (enabled ? 'announcement' : 'not_announcement') : enabled ? 'locked' : 'unlocked';
      await refused(socket.groupSettingUpdate(groupId, value), ADMIN);
      return {};
    },

    'groups.joinApproval': async ({ socket }, { groupId, enabled }) => {
      await refused(socket.groupJoinApprovalMode(groupId, enabled ? 'on' : 'off'), ADMIN);
      return {};
    },

    'groups.memberAddMode': async ({ socket }, { groupId, onlyAdminAdd }) => {
      await refused(socket.groupMemberAddMode(groupId, onlyAdminAdd ? 'admin_add' : 'all_member_add'), ADMIN);
      return {};
    },

    'groups.leave': async ({ socket }, { groupId }) => {
      await refused(socket.groupLeave(groupId), UNSEEN);
      return {};
    },

    'groups.join': async ({ socket }, { code }) => {
      // Asked first because a join that waits for an admin's approval answers without the group's JID.
      const invited = await refused(socket.groupGetInviteInfo(code), INVITE);
      const joined = await socket.groupAcceptInvite(code);
      if (!joined) return { groupId: invited.id };
      return { groupId: joined, group: groupInfoOf(await socket.groupMetadata(joined)) };
    },

    'groups.joinInvite': async ({ socket }, { groupId, inviterId, code, expiration }) => {
      if (expiration !== undefined && expiration * 1000 < Date.now()) throw AppError.validation('the invite has expired');
      // Baileys passes the invite message's expiry on as is; an invite whose expiry the caller does not know goes as 0.
      await socket.groupAcceptInviteV4(inviterId, { groupJid: groupId, inviteCode: code, inviteExpiration: expiration ?? 0 });
      return { group: groupInfoOf(await socket.groupMetadata(groupId)) };
    },

    'groups.inviteInfo': async ({ socket }, { code }) => groupInfoOf(await refused(socket.groupGetInviteInfo(code), INVITE)),

    'groups.requests': async (context, { groupId }) => joinRequests(context, groupId),

    'groups.updateRequests': async ({ socket }, { groupId, participants, action }) => {
      assertApplied(action, await refused(socket.groupRequestParticipantsUpdate(groupId, participants, action), ADMIN));
      return {};
    },
  };
}

/** Pending join requests: Baileys hands over the network's attributes as they are (`jid`, `request_time`, ...). */
async function joinRequests({ socket }: BaileysContext, groupId: string): Promise<JoinRequest[]> {
  const requests = await refused(socket.groupRequestParticipantsList(groupId), ADMIN);
  return requests
    .filter((request) => typeof request.jid === 'string')
    .map((request) => {
      const party = partyOf(request.jid, { phoneNumber: request.phone_number });
      return {
        jid: party.jid,
        ...(party.lid ? { lid: party.lid } : {}),
        // The network stamps every request; a missing stamp shows as the epoch rather than as a made-up time.
        requestedAt: isoFromSeconds(request.request_time) ?? new Date(0).toISOString(),
      };
    });
}
