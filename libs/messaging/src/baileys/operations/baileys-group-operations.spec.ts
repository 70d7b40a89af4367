import type { GroupMetadata } from '@whiskeysockets/baileys';
import { AppError } from '@app/contracts';
import { boom } from '../testing/kit';
import { SELF, SELF_LID, buildOperations, fakeContext, iqError } from '../testing/operations';

const GROUP = '120363025246125486@g.us';
const ALICE = '447700900200@s.whatsapp.net';
const ALICE_LID = '200000000000002@lid';
const BOB = '447700900300@s.whatsapp.net';
const BOB_LID = '300000000000003@lid';

/** What Baileys' `extractGroupMetadata` makes of a LID-addressed group's `<group>` node. */
function lidGroup(overrides: Partial<GroupMetadata> = {}): GroupMetadata {
  return {
    id: GROUP,
    notify: undefined,
    addressingMode: 'lid' as GroupMetadata['addressingMode'],
    subject: 'Bakers',
    subjectOwner: SELF_LID,
    subjectOwnerPn: SELF,
    subjectTime: 1_790_000_000,
    size: 3,
    creation: 1_790_000_000,
    owner: SELF_LID,
    ownerPn: SELF,
    owner_country_code: '44',
    desc: 'Bread talk',
    descId: 'DESC1',
    descOwner: SELF_LID,
    descTime: 1_790_000_100,
    linkedParent: undefined,
    restrict: true,
    announce: false,
    isCommunity: false,
    isCommunityAnnounce: false,
    joinApprovalMode: true,
    memberAddMode: false,
    participants: [
      { id: SELF_LID, phoneNumber: SELF, lid: undefined, admin: 'superadmin' },
      { id: ALICE_LID, phoneNumber: ALICE, lid: undefined, admin: 'admin' },
      { id: BOB_LID, phoneNumber: undefined, lid: undefined, admin: null },
    ],
    ephemeralDuration: 604_800,
    ...overrides,
  };
}

const lidGroupInfo = {
  jid: GROUP,
  name: 'Bakers',
  description: 'Bread talk',
  ownerJid: SELF,
  createdAt: '2026-09-21T14:13:20.000Z',
  locked: true,
  announce: false,
  joinApproval: true,
  memberAddMode: 'admin_add',
  ephemeralSeconds: 604_800,
  isCommunity: false,
  isAnnouncement: false,
  participants: [
    { jid: SELF, lid: SELF_LID, role: 'superadmin' },
    { jid: ALICE, lid: ALICE_LID, role: 'admin' },
    { jid: BOB_LID, role: 'member' },
  ],
};

describe('Baileys group operations', () => {
  const operations = buildOperations();

  describe('reading groups', () => {
    it('maps GroupMetadata: people by phone number with their LID, roles, settings and times', async () => {
      const groupMetadata = jest.fn().mockResolvedValue(lidGroup());
      await expect(operations.perform(fakeContext({ socket: { groupMetadata } }), 'groups.info', { groupId: GROUP })).resolves.toEqual(
        lidGroupInfo,
      );
      expect(groupMetadata).toHaveBeenCalledWith(GROUP);
    });

    it('maps a phone-number-addressed community sub-group', async () => {
      const metadata = lidGroup({
        addressingMode: 'pn' as GroupMetadata['addressingMode'],
        owner: SELF,
        ownerPn: undefined,
        desc: undefined,
        restrict: false,
        joinApprovalMode: false,
        memberAddMode: true,
        linkedParent: '120363000000000001@g.us',
        ephemeralDuration: undefined,
        participants: [
          { id: SELF, lid: SELF_LID, admin: 'superadmin' },
          { id: ALICE, lid: undefined, admin: null },
        ],
      });
      const groupMetadata = jest.fn().mockResolvedValue(metadata);
      await expect(operations.perform(fakeContext({ socket: { groupMetadata } }), 'groups.info', { groupId: GROUP })).resolves.toEqual({
        jid: GROUP,
        name: 'Bakers',
        ownerJid: SELF,
        createdAt: '2026-09-21T14:13:20.000Z',
        locked: false,
        announce: false,
        joinApproval: false,
        memberAddMode: 'all_member_add',
        ephemeralSeconds: 0,
        isCommunity: false,
        parentJid: '120363000000000001@g.us',
        isAnnouncement: false,
        participants: [
          { jid: SELF, lid: SELF_LID, role: 'superadmin' },
          { jid: ALICE, role: 'member' },
        ],
      });
    });

    it('answers a non-member as if the group did not exist', async () => {
      for (const refusal of [iqError(401, 'not-authorized'), iqError(403, 'forbidden'), iqError(404, 'item-not-found')]) {
        const groupMetadata = jest.fn().mockRejectedValue(refusal);
        await expect(operations.perform(fakeContext({ socket: { groupMetadata } }), 'groups.info', { groupId: GROUP })).rejects.toEqual(
          new AppError('not_found'),
        );
      }
    });

    it('lists every group the account is in', async () => {
      const community = lidGroup({ id: '120363000000000001@g.us', subject: 'Town', isCommunity: true, participants: [] });
      const groupFetchAllParticipating = jest.fn().mockResolvedValue({ [GROUP]: lidGroup(), [community.id]: community });
      const groups = await operations.perform(fakeContext({ socket: { groupFetchAllParticipating } }), 'groups.list', {});
      expect(groups.map((group) => [group.jid, group.isCommunity])).toEqual([
        [GROUP, false],
        ['120363000000000001@g.us', true],
      ]);
      expect(groups[0]).toEqual(lidGroupInfo);
    });
  });

  describe('groups.create', () => {
    it('creates the group with everyone but this account and answers its metadata', async () => {
      const groupCreate = jest.fn().mockResolvedValue(lidGroup());
      const context = fakeContext({ socket: { groupCreate } });
      await expect(operations.perform(context, 'groups.create', { name: 'Bakers', participants: [SELF, ALICE, BOB] })).resolves.toEqual(
        lidGroupInfo,
      );
      expect(groupCreate).toHaveBeenCalledWith('Bakers', [ALICE, BOB]);
    });

    it('needs someone besides this account', async () => {
      const groupCreate = jest.fn();
      await expect(
        operations.perform(fakeContext({ socket: { groupCreate } }), 'groups.create', { name: 'Solo', participants: [SELF] }),
      ).rejects.toEqual(AppError.validation('participants must name at least one person besides this account'));
      expect(groupCreate).not.toHaveBeenCalled();
    });
  });

  describe('groups.participants', () => {
    it('changes the members and answers the group as it is afterwards', async () => {
      const groupParticipantsUpdate = jest
        .fn()
        .mockResolvedValue([
          { status: '200', jid: ALICE_LID, content: { tag: 'participant', attrs: { jid: ALICE_LID, phone_number: ALICE } } },
        ]);
      const groupMetadata = jest.fn().mockResolvedValue(lidGroup());
      const context = fakeContext({ socket: { groupParticipantsUpdate, groupMetadata } });
      await expect(
        operations.perform(context, 'groups.participants', { groupId: GROUP, participants: [ALICE], action: 'promote' }),
      ).resolves.toEqual(lidGroupInfo);
      expect(groupParticipantsUpdate).toHaveBeenCalledWith(GROUP, [ALICE], 'promote');
      expect(groupMetadata).toHaveBeenCalledWith(GROUP);
    });

    it('reports a non-admin as forbidden', async () => {
      const groupParticipantsUpdate = jest.fn().mockRejectedValue(iqError(403, 'forbidden'));
      await expect(
        operations.perform(fakeContext({ socket: { groupParticipantsUpdate } }), 'groups.participants', {
          groupId: GROUP,
          participants: [BOB],
          action: 'remove',
        }),
      ).rejects.toEqual(AppError.forbidden('not a group admin'));
    });

    it('names each person the network refused, with why', async () => {
      const groupParticipantsUpdate = jest.fn().mockResolvedValue([
        { status: '200', jid: ALICE, content: { tag: 'participant', attrs: { jid: ALICE } } },
        { status: '409', jid: BOB, content: { tag: 'participant', attrs: { jid: BOB, error: '409' } } },
        { status: '408', jid: '447700900400@s.whatsapp.net', content: { tag: 'participant', attrs: { error: '408' } } },
      ]);
      const groupMetadata = jest.fn();
      await expect(
        operations.perform(fakeContext({ socket: { groupParticipantsUpdate, groupMetadata } }), 'groups.participants', {
          groupId: GROUP,
          participants: [ALICE, BOB, '447700900400@s.whatsapp.net'],
          action: 'add',
        }),
      ).rejects.toEqual(
        AppError.validation(
          `participants not changed: ${BOB} (already in the group), 447700900400@s.whatsapp.net (left the group recently and cannot be added back yet); the others were changed`,
        ),
      );
      expect(groupMetadata).not.toHaveBeenCalled();
    });

    it('reports people whose privacy forbids being added as forbidden', async () => {
      const groupParticipantsUpdate = jest.fn().mockResolvedValue([
        {
          status: '403',
          jid: BOB,
          content: {
            tag: 'participant',
            attrs: { jid: BOB, error: '403' },
            content: [{ tag: 'add_request', attrs: { code: 'AbCd', expiration: '1790604800' } }],
          },
        },
      ]);
      await expect(
        operations.perform(fakeContext({ socket: { groupParticipantsUpdate } }), 'groups.participants', {
          groupId: GROUP,
          participants: [BOB],
          action: 'add',
        }),
      ).rejects.toEqual(
        AppError.forbidden(
          `participants not changed: ${BOB} (their privacy settings do not allow being added; send them an invite instead)`,
        ),
      );
    });

    it('points to leave for removing oneself', async () => {
      const groupParticipantsUpdate = jest.fn();
      await expect(
        operations.perform(fakeContext({ socket: { groupParticipantsUpdate } }), 'groups.participants', {
          groupId: GROUP,
          participants: [SELF],
          action: 'remove',
        }),
      ).rejects.toEqual(AppError.validation('participants: use leave to leave the group yourself'));
      expect(groupParticipantsUpdate).not.toHaveBeenCalled();
    });
  });

  describe('invites', () => {
    it('reads and renews the invite code', async () => {
      const groupInviteCode = jest.fn().mockResolvedValue('GxAbCdEfGhIjKl');
      const groupRevokeInvite = jest.fn().mockResolvedValue('HyZyXwVuTsRqPo');
      const context = fakeContext({ socket: { groupInviteCode, groupRevokeInvite } });
      await expect(operations.perform(context, 'groups.inviteCode', { groupId: GROUP })).resolves.toEqual({ code: 'GxAbCdEfGhIjKl' });
      await expect(operations.perform(context, 'groups.revokeInvite', { groupId: GROUP })).resolves.toEqual({ code: 'HyZyXwVuTsRqPo' });
      expect(groupInviteCode).toHaveBeenCalledWith(GROUP);
      expect(groupRevokeInvite).toHaveBeenCalledWith(GROUP);
    });

    it('reports a non-admin asking for the code as forbidden', async () => {
      const groupInviteCode = jest.fn().mockRejectedValue(iqError(401, 'not-authorized'));
      await expect(
        operations.perform(fakeContext({ socket: { groupInviteCode } }), 'groups.inviteCode', { groupId: GROUP }),
      ).rejects.toEqual(AppError.forbidden('not a group admin'));
    });

    it('joins by code and answers the group', async () => {
      const groupGetInviteInfo = jest.fn().mockResolvedValue(lidGroup({ participants: [] }));
      const groupAcceptInvite = jest.fn().mockResolvedValue(GROUP);
      const groupMetadata = jest.fn().mockResolvedValue(lidGroup());
      const context = fakeContext({ socket: { groupGetInviteInfo, groupAcceptInvite, groupMetadata } });
      await expect(operations.perform(context, 'groups.join', { code: 'GxAbCdEfGhIjKl' })).resolves.toEqual({
        groupId: GROUP,
        group: lidGroupInfo,
      });
      expect(groupGetInviteInfo).toHaveBeenCalledWith('GxAbCdEfGhIjKl');
      expect(groupAcceptInvite).toHaveBeenCalledWith('GxAbCdEfGhIjKl');
    });

    it('answers only the group id while the join waits for approval', async () => {
      const groupGetInviteInfo = jest.fn().mockResolvedValue(lidGroup({ participants: [] }));
      const groupAcceptInvite = jest.fn().mockResolvedValue(undefined);
      const groupMetadata = jest.fn();
      const context = fakeContext({ socket: { groupGetInviteInfo, groupAcceptInvite, groupMetadata } });
      await expect(operations.perform(context, 'groups.join', { code: 'GxAbCdEfGhIjKl' })).resolves.toEqual({ groupId: GROUP });
      expect(groupMetadata).not.toHaveBeenCalled();
    });

    it.each([
      ['an unknown', iqError(404, 'item-not-found')],
      ['an invalid', iqError(406, 'not-acceptable')],
      ['a revoked', iqError(410, 'gone')],
    ])('is not_found for %s code', async (_case, refusal) => {
      const groupGetInviteInfo = jest.fn().mockRejectedValue(refusal);
      const groupAcceptInvite = jest.fn();
      const context = fakeContext({ socket: { groupGetInviteInfo, groupAcceptInvite } });
      await expect(operations.perform(context, 'groups.join', { code: 'nope' })).rejects.toEqual(new AppError('not_found'));
      await expect(operations.perform(context, 'groups.inviteInfo', { code: 'nope' })).rejects.toEqual(new AppError('not_found'));
      expect(groupAcceptInvite).not.toHaveBeenCalled();
    });

    it('reports joining a group already joined as a validation error', async () => {
      const groupGetInviteInfo = jest.fn().mockResolvedValue(lidGroup());
      const groupAcceptInvite = jest.fn().mockRejectedValue(iqError(409, 'conflict'));
      await expect(
        operations.perform(fakeContext({ socket: { groupGetInviteInfo, groupAcceptInvite } }), 'groups.join', { code: 'GxAbCdEfGhIjKl' }),
      ).rejects.toEqual(AppError.validation('the network refused the request (conflict)'));
    });

    it('accepts an invite message with its inviter, code and expiry', async () => {
      const groupAcceptInviteV4 = jest.fn().mockResolvedValue(GROUP);
      const groupMetadata = jest.fn().mockResolvedValue(lidGroup());
      const expiration = Math.floor(Date.now() / 1000) + 3600;
      await expect(
        operations.perform(fakeContext({ socket: { groupAcceptInviteV4, groupMetadata } }), 'groups.joinInvite', {
          groupId: GROUP,
          inviterId: ALICE,
          code: 'AbCd',
          expiration,
        }),
      ).resolves.toEqual({ group: lidGroupInfo });
      expect(groupAcceptInviteV4).toHaveBeenCalledWith(ALICE, { groupJid: GROUP, inviteCode: 'AbCd', inviteExpiration: expiration });
    });

    it('refuses an expired invite message without asking the network', async () => {
      const groupAcceptInviteV4 = jest.fn();
      await expect(
        operations.perform(fakeContext({ socket: { groupAcceptInviteV4 } }), 'groups.joinInvite', {
          groupId: GROUP,
          inviterId: ALICE,
          code: 'AbCd',
          expiration: 1_700_000_000,
        }),
      ).rejects.toEqual(AppError.validation('the invite has expired'));
      expect(groupAcceptInviteV4).not.toHaveBeenCalled();
    });

    it('describes the group behind a code', async () => {
      const groupGetInviteInfo = jest.fn().mockResolvedValue(lidGroup());
      await expect(
        operations.perform(fakeContext({ socket: { groupGetInviteInfo } }), 'groups.inviteInfo', { code: 'GxAbCdEfGhIjKl' }),
      ).resolves.toEqual(lidGroupInfo);
    });
  });

  describe('settings', () => {
    it('sends each setting as its Baileys call', async () => {
      const socket = {
        groupUpdateSubject: jest.fn().mockResolvedValue(undefined),
        groupUpdateDescription: jest.fn().mockResolvedValue(undefined),
        groupSettingUpdate: jest.fn().mockResolvedValue(undefined),
        groupJoinApprovalMode: jest.fn().mockResolvedValue(undefined),
        groupMemberAddMode: jest.fn().mockResolvedValue(undefined),
        groupLeave: jest.fn().mockResolvedValue(undefined),
      };
      const context = fakeContext({ socket });
      await operations.perform(context, 'groups.setName', { groupId: GROUP, name: 'Bread' });
      await operations.perform(context, 'groups.setDescription', { groupId: GROUP, description: 'Sourdough only' });
      await operations.perform(context, 'groups.setDescription', { groupId: GROUP, description: '' });
      await operations.perform(context, 'groups.setting', { groupId: GROUP, setting: 'announce', enabled: true });
      await operations.perform(context, 'groups.setting', { groupId: GROUP, setting: 'announce', enabled: false });
      await operations.perform(context, 'groups.setting', { groupId: GROUP, setting: 'locked', enabled: true });
      await operations.perform(context, 'groups.setting', { groupId: GROUP, setting: 'locked', enabled: false });
      await operations.perform(context, 'groups.joinApproval', { groupId: GROUP, enabled: true });
      await operations.perform(context, 'groups.joinApproval', { groupId: GROUP, enabled: false });
      await operations.perform(context, 'groups.memberAddMode', { groupId: GROUP, onlyAdminAdd: true });
      await operations.perform(context, 'groups.memberAddMode', { groupId: GROUP, onlyAdminAdd: false });
      await operations.perform(context, 'groups.leave', { groupId: GROUP });
      expect(socket.groupUpdateSubject).toHaveBeenCalledWith(GROUP, 'Bread');
      expect(socket.groupUpdateDescription.mock.calls).toEqual([
        [GROUP, 'Sourdough only'],
        [GROUP, undefined],
      ]);
      expect(socket.groupSettingUpdate.mock.calls).toEqual([
        [GROUP, 'announcement'],
        [GROUP, 'not_announcement'],
        [GROUP, 'locked'],
        [GROUP, 'unlocked'],
      ]);
      expect(socket.groupJoinApprovalMode.mock.calls).toEqual([
        [GROUP, 'on'],
        [GROUP, 'off'],
      ]);
      expect(socket.groupMemberAddMode.mock.calls).toEqual([
        [GROUP, 'admin_add'],
        [GROUP, 'all_member_add'],
      ]);
      expect(socket.groupLeave).toHaveBeenCalledWith(GROUP);
    });

    it('reports a member changing a locked group as forbidden', async () => {
      const groupUpdateSubject = jest.fn().mockRejectedValue(iqError(401, 'not-authorized'));
      const groupSettingUpdate = jest.fn().mockRejectedValue(iqError(403, 'forbidden'));
      const context = fakeContext({ socket: { groupUpdateSubject, groupSettingUpdate } });
      await expect(operations.perform(context, 'groups.setName', { groupId: GROUP, name: 'x' })).rejects.toEqual(
        AppError.forbidden('not a group admin (group info is locked)'),
      );
      await expect(operations.perform(context, 'groups.setting', { groupId: GROUP, setting: 'announce', enabled: true })).rejects.toEqual(
        AppError.forbidden('not a group admin'),
      );
    });

    it('sets the picture and answers its id', async () => {
      const updateProfilePicture = jest.fn().mockResolvedValue(undefined);
      const profilePictureUrl = jest.fn().mockResolvedValue('https://pps.whatsapp.net/v/t61.24694-24/12345_67890_n.jpg?oe=1');
      const context = fakeContext({ socket: { updateProfilePicture, profilePictureUrl } });
      await expect(
        operations.perform(context, 'groups.setPicture', { groupId: GROUP, image: Buffer.from('jpeg').toString('base64') }),
      ).resolves.toEqual({ pictureId: '12345_67890_n' });
      expect(updateProfilePicture).toHaveBeenCalledWith(GROUP, Buffer.from('jpeg'));
      expect(profilePictureUrl).toHaveBeenCalledWith(GROUP, 'image');
    });

    it('keeps a server fault as it is', async () => {
      const fault = boom('Timed Out', { statusCode: 408 });
      const groupLeave = jest.fn().mockRejectedValue(fault);
      await expect(operations.perform(fakeContext({ socket: { groupLeave } }), 'groups.leave', { groupId: GROUP })).rejects.toBe(fault);
    });
  });

  describe('join requests', () => {
    it('lists pending requests from the network attributes', async () => {
      const groupRequestParticipantsList = jest.fn().mockResolvedValue([
        { jid: ALICE_LID, phone_number: ALICE, request_method: 'invite_link', request_time: '1790000500' },
        { jid: BOB, request_method: 'non_admin_add', request_time: '1790000600' },
      ]);
      await expect(
        operations.perform(fakeContext({ socket: { groupRequestParticipantsList } }), 'groups.requests', { groupId: GROUP }),
      ).resolves.toEqual([
        { jid: ALICE, lid: ALICE_LID, requestedAt: '2026-09-21T14:21:40.000Z' },
        { jid: BOB, requestedAt: '2026-09-21T14:23:20.000Z' },
      ]);
      expect(groupRequestParticipantsList).toHaveBeenCalledWith(GROUP);
    });

    it('approves requests and names those without a pending request', async () => {
      const groupRequestParticipantsUpdate = jest
        .fn()
        .mockResolvedValueOnce([{ status: '200', jid: ALICE }])
        .mockResolvedValueOnce([{ status: '404', jid: BOB }]);
      const context = fakeContext({ socket: { groupRequestParticipantsUpdate } });
      await expect(
        operations.perform(context, 'groups.updateRequests', { groupId: GROUP, participants: [ALICE], action: 'approve' }),
      ).resolves.toEqual({});
      await expect(
        operations.perform(context, 'groups.updateRequests', { groupId: GROUP, participants: [BOB], action: 'reject' }),
      ).rejects.toEqual(AppError.validation(`participants not changed: ${BOB} (no pending join request)`));
      expect(groupRequestParticipantsUpdate.mock.calls).toEqual([
        [GROUP, [ALICE], 'approve'],
        [GROUP, [BOB], 'reject'],
      ]);
    });
  });
});
