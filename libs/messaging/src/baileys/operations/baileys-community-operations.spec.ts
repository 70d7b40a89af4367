import type { GroupMetadata } from '@whiskeysockets/baileys';
import { Logger } from '@nestjs/common';
import { AppError } from '@app/contracts';
import { SELF, SELF_LID, buildOperations, fakeContext, iqError } from '../testing/operations';

const COMMUNITY = '120363000000000001@g.us';
const ANNOUNCEMENTS = '120363000000000002@g.us';
const GENERAL = '120363000000000003@g.us';
const ALICE = '447700900200@s.whatsapp.net';
const ALICE_LID = '200000000000002@lid';

/** A community parent as Baileys' `groupMetadata` reads it: the `<parent>` child makes `isCommunity`. */
function parent(overrides: Partial<GroupMetadata> = {}): GroupMetadata {
  return {
    id: COMMUNITY,
    addressingMode: 'lid' as GroupMetadata['addressingMode'],
    subject: 'Town',
    subjectTime: 1_790_000_000,
    size: 2,
    creation: 1_790_000_000,
    owner: SELF_LID,
    ownerPn: SELF,
    desc: 'Our town',
    descId: 'D1',
    restrict: true,
    announce: true,
    isCommunity: true,
    isCommunityAnnounce: false,
    joinApprovalMode: true,
    memberAddMode: false,
    participants: [
      { id: SELF_LID, phoneNumber: SELF, admin: 'superadmin' },
      { id: ALICE_LID, phoneNumber: ALICE, admin: null },
    ],
    ...overrides,
  };
}

const townInfo = {
  communityId: COMMUNITY,
  owner: { id: SELF, lid: SELF_LID, phone: '447700900001' },
  name: 'Town',
  created: '2026-09-21T14:13:20.000Z',
  description: 'Our town',
  isLocked: true,
  communityApprovalMode: 'on',
  participants: [
    { id: SELF, lid: SELF_LID, phone: '447700900001', isAdmin: true, isSuperAdmin: true },
    { id: ALICE, lid: ALICE_LID, phone: '447700900200', isAdmin: false, isSuperAdmin: false },
  ],
};

describe('Baileys community operations', () => {
  const operations = buildOperations();

  it('creates the community, adds the members, sets the approval mode and answers it', async () => {
    const socket = {
      communityCreate: jest.fn().mockResolvedValue(parent({ participants: [{ id: SELF_LID, phoneNumber: SELF, admin: 'superadmin' }] })),
      communityParticipantsUpdate: jest.fn().mockResolvedValue([{ status: '200', jid: ALICE, content: { tag: 'participant', attrs: {} } }]),
      communityJoinApprovalMode: jest.fn().mockResolvedValue(undefined),
      groupMetadata: jest.fn().mockResolvedValue(parent()),
    };
    await expect(
      operations.perform(fakeContext({ socket }), 'communities.create', { name: 'Town', participants: [SELF, ALICE], approvalMode: 'on' }),
    ).resolves.toEqual(townInfo);
    expect(socket.communityCreate).toHaveBeenCalledWith('Town', '');
    expect(socket.communityParticipantsUpdate).toHaveBeenCalledWith(COMMUNITY, [ALICE], 'add');
    expect(socket.communityJoinApprovalMode).toHaveBeenCalledWith(COMMUNITY, 'on');
    expect(socket.groupMetadata).toHaveBeenCalledWith(COMMUNITY);
  });

  it('creates a community without members', async () => {
    const socket = {
      communityCreate: jest.fn().mockResolvedValue(parent()),
      communityParticipantsUpdate: jest.fn(),
      communityJoinApprovalMode: jest.fn().mockResolvedValue(undefined),
      groupMetadata: jest.fn().mockResolvedValue(parent({ joinApprovalMode: false })),
    };
    const info = await operations.perform(fakeContext({ socket }), 'communities.create', {
      name: 'Town',
      participants: [],
      approvalMode: 'off',
    });
    expect(info.communityApprovalMode).toBe('off');
    expect(socket.communityParticipantsUpdate).not.toHaveBeenCalled();
    expect(socket.communityJoinApprovalMode).toHaveBeenCalledWith(COMMUNITY, 'off');
  });

  it('answers the new community as the network has it when adding members or setting the mode fails', async () => {
    const warn = jest.spyOn(Logger.prototype, 'warn').mockImplementation(() => undefined);
    try {
      const socket = {
        communityCreate: jest.fn().mockResolvedValue(parent()),
        communityParticipantsUpdate: jest.fn().mockRejectedValue(iqError(400, 'bad-request')),
        communityJoinApprovalMode: jest.fn().mockRejectedValue(iqError(400, 'bad-request')),
        groupMetadata: jest.fn().mockResolvedValue(parent({ participants: [{ id: SELF_LID, phoneNumber: SELF, admin: 'superadmin' }] })),
      };
      const info = await operations.perform(fakeContext({ socket }), 'communities.create', {
        name: 'Town',
        participants: [ALICE],
        approvalMode: 'off',
      });
      expect(info.communityId).toBe(COMMUNITY);
      expect(info.participants).toEqual([{ id: SELF, lid: SELF_LID, phone: '447700900001', isAdmin: true, isSuperAdmin: true }]);
      expect(warn).toHaveBeenCalledTimes(2);
    } finally {
      warn.mockRestore();
    }
  });

  it('fails loudly when Baileys could not read the new community back', async () => {
    const communityCreate = jest.fn().mockResolvedValue(null);
    await expect(
      operations.perform(fakeContext({ socket: { communityCreate } }), 'communities.create', {
        name: 'Town',
        participants: [],
        approvalMode: 'on',
      }),
    ).rejects.toThrow('the network answered without the new community');
  });

  it('reads a community from its parent group metadata', async () => {
    const groupMetadata = jest.fn().mockResolvedValue(parent());
    await expect(
      operations.perform(fakeContext({ socket: { groupMetadata } }), 'communities.info', { communityId: COMMUNITY }),
    ).resolves.toEqual(townInfo);
    expect(groupMetadata).toHaveBeenCalledWith(COMMUNITY);
  });

  it('is not_found for an ordinary group and for a community the account is not in', async () => {
    const groupMetadata = jest
      .fn()
      .mockResolvedValueOnce(parent({ id: GENERAL, isCommunity: false, linkedParent: COMMUNITY }))
      .mockRejectedValueOnce(iqError(403, 'forbidden'));
    const context = fakeContext({ socket: { groupMetadata } });
    await expect(operations.perform(context, 'communities.info', { communityId: GENERAL })).rejects.toEqual(new AppError('not_found'));
    await expect(operations.perform(context, 'communities.info', { communityId: COMMUNITY })).rejects.toEqual(new AppError('not_found'));
  });

  it('lists the communities among the groups the account is in', async () => {
    const groupFetchAllParticipating = jest.fn().mockResolvedValue({
      [COMMUNITY]: parent(),
      [ANNOUNCEMENTS]: parent({ id: ANNOUNCEMENTS, isCommunity: false, isCommunityAnnounce: true, linkedParent: COMMUNITY }),
      [GENERAL]: parent({ id: GENERAL, subject: 'General', isCommunity: false, linkedParent: COMMUNITY }),
    });
    await expect(operations.perform(fakeContext({ socket: { groupFetchAllParticipating } }), 'communities.list', {})).resolves.toEqual([
      townInfo,
    ]);
  });

  it('leaves a community', async () => {
    const communityLeave = jest.fn().mockResolvedValue(undefined);
    await operations.perform(fakeContext({ socket: { communityLeave } }), 'communities.leave', { communityId: COMMUNITY });
    expect(communityLeave).toHaveBeenCalledWith(COMMUNITY);
  });

  it('renames it, describes it with the group description call, and locks it', async () => {
    const socket = {
      communityUpdateSubject: jest.fn().mockResolvedValue(undefined),
      groupUpdateDescription: jest.fn().mockResolvedValue(undefined),
      communitySettingUpdate: jest.fn().mockResolvedValue(undefined),
    };
    const context = fakeContext({ socket });
    await operations.perform(context, 'communities.name', { communityId: COMMUNITY, name: 'City' });
    await operations.perform(context, 'communities.description', { communityId: COMMUNITY, description: 'Our city' });
    await operations.perform(context, 'communities.description', { communityId: COMMUNITY, description: '' });
    await operations.perform(context, 'communities.locked', { communityId: COMMUNITY, locked: true });
    await operations.perform(context, 'communities.locked', { communityId: COMMUNITY, locked: false });
    expect(socket.communityUpdateSubject).toHaveBeenCalledWith(COMMUNITY, 'City');
    expect(socket.groupUpdateDescription.mock.calls).toEqual([
      [COMMUNITY, 'Our city'],
      [COMMUNITY, undefined],
    ]);
    expect(socket.communitySettingUpdate.mock.calls).toEqual([
      [COMMUNITY, 'locked'],
      [COMMUNITY, 'unlocked'],
    ]);
  });

  it('reports a member changing a locked community as forbidden', async () => {
    const communityUpdateSubject = jest.fn().mockRejectedValue(iqError(401, 'not-authorized'));
    const communitySettingUpdate = jest.fn().mockRejectedValue(iqError(401, 'not-authorized'));
    const context = fakeContext({ socket: { communityUpdateSubject, communitySettingUpdate } });
    await expect(operations.perform(context, 'communities.name', { communityId: COMMUNITY, name: 'x' })).rejects.toEqual(
      AppError.forbidden('not a community admin (community info is locked)'),
    );
    await expect(operations.perform(context, 'communities.locked', { communityId: COMMUNITY, locked: true })).rejects.toEqual(
      AppError.forbidden('not a community admin'),
    );
  });

  it('sets the picture and answers its id', async () => {
    const updateProfilePicture = jest.fn().mockResolvedValue(undefined);
    const profilePictureUrl = jest.fn().mockResolvedValue('https://pps.whatsapp.net/v/t61.24694-24/777_888_n.jpg?oe=2');
    await expect(
      operations.perform(fakeContext({ socket: { updateProfilePicture, profilePictureUrl } }), 'communities.picture', {
        communityId: COMMUNITY,
        image: Buffer.from('jpeg').toString('base64'),
      }),
    ).resolves.toEqual({ pictureId: '777_888_n' });
    expect(updateProfilePicture).toHaveBeenCalledWith(COMMUNITY, Buffer.from('jpeg'));
  });

  it('promotes and demotes, naming those the network refused', async () => {
    const communityParticipantsUpdate = jest
      .fn()
      .mockResolvedValueOnce([{ status: '200', jid: ALICE, content: { tag: 'participant', attrs: { jid: ALICE } } }])
      .mockResolvedValueOnce([{ status: '404', jid: ALICE, content: { tag: 'participant', attrs: { jid: ALICE, error: '404' } } }]);
    const context = fakeContext({ socket: { communityParticipantsUpdate } });
    await expect(
      operations.perform(context, 'communities.participants', { communityId: COMMUNITY, participants: [ALICE], action: 'promote' }),
    ).resolves.toEqual({});
    await expect(
      operations.perform(context, 'communities.participants', { communityId: COMMUNITY, participants: [ALICE], action: 'demote' }),
    ).rejects.toEqual(AppError.validation(`participants not changed: ${ALICE} (not in the group)`));
    expect(communityParticipantsUpdate.mock.calls).toEqual([
      [COMMUNITY, [ALICE], 'promote'],
      [COMMUNITY, [ALICE], 'demote'],
    ]);
  });

  it('reads and renews the invite code', async () => {
    const communityInviteCode = jest.fn().mockResolvedValue('CoMmUnItY1');
    const communityRevokeInvite = jest.fn().mockResolvedValue('CoMmUnItY2');
    const context = fakeContext({ socket: { communityInviteCode, communityRevokeInvite } });
    await expect(operations.perform(context, 'communities.inviteCode', { communityId: COMMUNITY })).resolves.toEqual({
      code: 'CoMmUnItY1',
    });
    await expect(operations.perform(context, 'communities.revokeInvite', { communityId: COMMUNITY })).resolves.toEqual({
      code: 'CoMmUnItY2',
    });
    expect(communityInviteCode).toHaveBeenCalledWith(COMMUNITY);
    expect(communityRevokeInvite).toHaveBeenCalledWith(COMMUNITY);
  });

  it('lists the sub-groups from the sub_groups answer, marking the announcement group', async () => {
    const query = jest.fn().mockResolvedValue({
      tag: 'iq',
      attrs: { from: COMMUNITY, type: 'result', id: '1' },
      content: [
        {
          tag: 'sub_groups',
          attrs: {},
          content: [
            {
              tag: 'group',
              attrs: { id: '120363000000000002', subject: 'Town', s_t: '1790000000', creation: '1790000000', size: '2' },
              content: [{ tag: 'default_sub_group', attrs: {} }],
            },
            { tag: 'group', attrs: { id: '120363000000000003', subject: 'General', s_t: '1790000100', creation: '1790000000' } },
          ],
        },
      ],
    });
    await expect(
      operations.perform(fakeContext({ socket: { query } }), 'communities.subGroups', { communityId: COMMUNITY }),
    ).resolves.toEqual([
      { groupId: ANNOUNCEMENTS, name: 'Town', nameSetAt: '2026-09-21T14:13:20.000Z', isAnnouncementGroup: true },
      { groupId: GENERAL, name: 'General', nameSetAt: '2026-09-21T14:15:00.000Z', isAnnouncementGroup: false },
    ]);
    expect(query).toHaveBeenCalledWith({
      tag: 'iq',
      attrs: { type: 'get', xmlns: 'w:g2', to: COMMUNITY },
      content: [{ tag: 'sub_groups', attrs: {} }],
    });
  });

  it('creates a group in the community and answers its id', async () => {
    const communityCreateGroup = jest.fn().mockResolvedValue(parent({ id: GENERAL, isCommunity: false, linkedParent: COMMUNITY }));
    await expect(
      operations.perform(fakeContext({ socket: { communityCreateGroup } }), 'communities.createGroup', {
        communityId: COMMUNITY,
        name: 'Market',
        participants: [SELF, ALICE],
      }),
    ).resolves.toEqual({ id: GENERAL });
    expect(communityCreateGroup).toHaveBeenCalledWith('Market', [ALICE], COMMUNITY);
  });

  it('links and unlinks groups, group first and community second as Baileys takes them', async () => {
    const communityLinkGroup = jest.fn().mockResolvedValue(undefined);
    const communityUnlinkGroup = jest.fn().mockResolvedValue(undefined);
    const context = fakeContext({ socket: { communityLinkGroup, communityUnlinkGroup } });
    await operations.perform(context, 'communities.linkGroup', { communityId: COMMUNITY, groupId: GENERAL });
    await operations.perform(context, 'communities.unlinkGroup', { communityId: COMMUNITY, groupId: GENERAL });
    expect(communityLinkGroup).toHaveBeenCalledWith(GENERAL, COMMUNITY);
    expect(communityUnlinkGroup).toHaveBeenCalledWith(GENERAL, COMMUNITY);
  });

  it('reports a non-admin linking as forbidden and a bad link as a validation error', async () => {
    const communityLinkGroup = jest
      .fn()
      .mockRejectedValueOnce(iqError(401, 'not-authorized'))
      .mockRejectedValueOnce(iqError(400, 'bad-request'));
    const context = fakeContext({ socket: { communityLinkGroup } });
    await expect(operations.perform(context, 'communities.linkGroup', { communityId: COMMUNITY, groupId: GENERAL })).rejects.toEqual(
      AppError.forbidden('not a community admin'),
    );
    await expect(operations.perform(context, 'communities.linkGroup', { communityId: COMMUNITY, groupId: GENERAL })).rejects.toEqual(
      AppError.validation('the network refused the request (bad-request)'),
    );
  });
});
