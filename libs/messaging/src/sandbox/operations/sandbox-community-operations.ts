import { Injectable } from '@nestjs/common';
import { AppError, type CommunityOperations } from '@app/contracts';
import { SandboxRepository, type SandboxGroupInput } from '@app/database';
import { normalise } from '../../events/normalise';
import { groupJid, inviteCode, pictureId } from '../codes';
import { SandboxCommunities, type CommunityView } from '../communities/sandbox-communities';
import { SandboxCommunityMembership } from '../sandbox-community-membership';
import { SandboxPeople } from '../sandbox-people';
import type { OperationContext, OperationHandlers } from './operation-handlers';

type Member = SandboxGroupInput['participants'][number];

/**
 * Communities from this account's side: created, read and managed with the rights the network demands. Community-wide
 * changes (admins, settings, membership) reach the instance as `group` events on the community's JID.
 */
@Injectable()
export class SandboxCommunityOperations {
  constructor(
    private readonly people: SandboxPeople,
    private readonly store: SandboxRepository,
    private readonly communities: SandboxCommunities,
    private readonly membership: SandboxCommunityMembership,
  ) {}

  readonly handlers: OperationHandlers<CommunityOperations> = {
    'communities.create': async (context, { name, participants, approvalMode }) => {
      const members: Member[] = [
        { jid: context.self, role: 'superadmin' },
        ...participants.filter((jid) => jid !== context.self).map((jid): Member => ({ jid, role: 'member' })),
      ];
      const community = this.newGroup('community', name, null, members);
      // As WhatsApp does: an announcement group everyone is in, and a default "General" group for the members.
      const created = [
        community,
        this.newGroup('announcement', name, community.jid, members),
        this.newGroup('subgroup', 'General', community.jid, members),
      ];
      await this.store.createGroups(context.instanceId, created);
      if (approvalMode === 'on') await this.store.updateGroup(context.instanceId, community.jid, { joinApproval: true });
      const party = await this.people.partyResolver(context.instanceId);
      const by = await this.people.actor(context.instanceId, context.self, context.self);
      const at = new Date();
      for (const made of created)
        context.session.deliver(
          normalise.group({
            groupId: made.jid,
            by,
            at,
            groupType: 'new',
            isCommunity: made.kind === 'community' ? true : undefined,
            communityId: made.parentJid ?? undefined,
            isAnnouncementGroup: made.parentJid ? made.kind === 'announcement' : undefined,
            name: made.name,
            join: made.participants.map((member) => party(member.jid)),
          }),
        );
      return this.communities.info(await this.view(context, community.jid), party);
    },

    'communities.list': async (context) => {
      const party = await this.people.partyResolver(context.instanceId);
      return (await this.communities.joined(context.instanceId, context.self)).map((view) => this.communities.info(view, party));
    },

    'communities.info': async (context, { communityId }) =>
      this.communities.info(await this.view(context, communityId), await this.people.partyResolver(context.instanceId)),

    'communities.leave': async (context, { communityId }) => {
      const view = await this.view(context, communityId);
      const left = [view.community, view.announcement, ...view.linked].filter((group) =>
        group.participants.some((participant) => participant.jid === context.self),
      );
      for (const group of left) await this.store.updateGroup(context.instanceId, group.jid, { remove: [context.self] });
      const by = await this.people.actor(context.instanceId, context.self, context.self);
      const at = new Date();
      for (const group of left.filter((each) => each.kind !== 'announcement'))
        context.session.deliver(
          normalise.group({ groupId: group.jid, by, at, communityId: group.parentJid ?? undefined, leave: [{ jid: context.self }] }),
        );
      return {};
    },

    'communities.name': async (context, { communityId, name }) => {
      const view = await this.view(context, communityId);
      this.communities.requireInfoRights(view);
      await this.store.updateGroup(context.instanceId, view.community.jid, { name });
      await this.store.updateGroup(context.instanceId, view.announcement.jid, { name });
      context.session.deliver(normalise.group({ ...(await this.change(context, view)), name }));
      return {};
    },

    'communities.description': async (context, { communityId, description }) => {
      const view = await this.view(context, communityId);
      this.communities.requireInfoRights(view);
      await this.store.updateGroup(context.instanceId, view.community.jid, { description: description === '' ? null : description });
      context.session.deliver(normalise.group({ ...(await this.change(context, view)), topic: description }));
      return {};
    },

    'communities.picture': async (context, { communityId }) => {
      const view = await this.view(context, communityId);
      this.communities.requireInfoRights(view);
      const id = pictureId();
      await this.store.updateGroup(context.instanceId, view.community.jid, { pictureId: id });
      const { by } = await this.change(context, view);
      context.session.deliver(normalise.chatPicture({ chatId: view.community.jid, sender: by, pictureId: id }));
      return { pictureId: id };
    },

    'communities.locked': async (context, { communityId, locked }) => {
      const view = await this.adminView(context, communityId);
      await this.store.updateGroup(context.instanceId, view.community.jid, { locked });
      context.session.deliver(normalise.group({ ...(await this.change(context, view)), locked }));
      return {};
    },

    'communities.participants': async (context, { communityId, participants, action }) => {
      const view = await this.adminView(context, communityId);
      for (const jid of participants) {
        const member = view.announcement.participants.find((participant) => participant.jid === jid);
        if (!member) throw AppError.validation(`participants: ${jid} is not a member of the community`);
        if (action === 'demote' && member.role === 'superadmin')
          throw AppError.validation(`participants: ${jid} created the community and cannot be demoted`);
      }
      const role = action === 'promote' ? 'admin' : 'member';
      // Promoting the owner must not turn them into a plain admin.
      const roles = participants
        .filter((jid) => view.announcement.participants.find((participant) => participant.jid === jid)?.role !== 'superadmin')
        .map((jid) => ({ jid, role }) as const);
      await this.membership.applyToCommunity(context.instanceId, view.community.jid, view.announcement.jid, { roles });
      const party = await this.people.partyResolver(context.instanceId);
      context.session.deliver(normalise.group({ ...(await this.change(context, view)), [action]: participants.map(party) }));
      return {};
    },

    'communities.inviteCode': async (context, { communityId }) => {
      const view = await this.adminView(context, communityId);
      return { code: view.community.inviteCode };
    },

    'communities.revokeInvite': async (context, { communityId }) => {
      const view = await this.adminView(context, communityId);
      const code = inviteCode();
      await this.store.updateGroup(context.instanceId, view.community.jid, { inviteCode: code });
      return { code };
    },

    'communities.subGroups': async (context, { communityId }) => this.communities.subGroups(await this.view(context, communityId)),

    'communities.createGroup': async (context, { communityId, name, participants }) => {
      const view = await this.adminView(context, communityId);
      const members: Member[] = [
        { jid: context.self, role: 'superadmin' },
        ...participants.filter((jid) => jid !== context.self).map((jid): Member => ({ jid, role: 'member' })),
      ];
      const group = this.newGroup('subgroup', name, view.community.jid, members);
      await this.store.createGroups(context.instanceId, [group]);
      const change = await this.change(context, view);
      const party = await this.people.partyResolver(context.instanceId);
      context.session.deliver(
        normalise.group({
          groupId: group.jid,
          by: change.by,
          at: change.at,
          groupType: 'new',
          communityId: view.community.jid,
          isAnnouncementGroup: false,
          name,
          join: members.map((member) => party(member.jid)),
        }),
      );
      context.session.deliver(normalise.group({ ...change, link: this.link(group.jid, name) }));
      await this.membership.reconcile(context.instanceId, view.community.jid, change.by);
      return { id: group.jid };
    },

    'communities.linkGroup': async (context, { communityId, groupId }) => {
      const view = await this.adminView(context, communityId);
      const group = await this.store.group(context.instanceId, groupId);
      const selfRole = group?.participants.find((participant) => participant.jid === context.self)?.role;
      if (!group || !selfRole) throw new AppError('not_found');
      if (group.kind === 'community' || group.kind === 'announcement')
        throw AppError.validation(`groupId ${group.jid} is not an ordinary group and cannot be linked`);
      if (group.parentJid === view.community.jid) throw AppError.validation(`groupId ${group.jid} is already in this community`);
      if (group.parentJid) throw AppError.validation(`groupId ${group.jid} is already in another community`);
      if (selfRole === 'member') throw AppError.forbidden('not an admin of the group');
      await this.store.updateGroup(context.instanceId, group.jid, { kind: 'subgroup', parentJid: view.community.jid });
      const change = await this.change(context, view);
      context.session.deliver(normalise.group({ ...change, link: this.link(group.jid, group.name) }));
      await this.membership.reconcile(context.instanceId, view.community.jid, change.by);
      return {};
    },

    'communities.unlinkGroup': async (context, { communityId, groupId }) => {
      const view = await this.adminView(context, communityId);
      if (groupId === view.announcement.jid)
        throw AppError.validation(`groupId ${groupId} is the announcement group of the community and cannot be unlinked`);
      const group = view.linked.find((linked) => linked.jid === groupId);
      if (!group) throw AppError.validation(`groupId ${groupId} is not a group of this community`);
      await this.store.updateGroup(context.instanceId, group.jid, { kind: 'group', parentJid: null });
      const change = await this.change(context, view);
      context.session.deliver(normalise.group({ ...change, unlink: { type: 'sub_group', reason: 'unlink_group', groupId: group.jid } }));
      await this.membership.reconcile(context.instanceId, view.community.jid, change.by);
      return {};
    },
  };

  private view(context: OperationContext, communityJid: string): Promise<CommunityView> {
    return this.communities.view(context.instanceId, communityJid, context.self);
  }

  private async adminView(context: OperationContext, communityJid: string): Promise<CommunityView> {
    const view = await this.view(context, communityJid);
    this.communities.requireAdmin(view);
    return view;
  }

  /** The common part of a `group` event for a change this account made to the community. */
  private async change(context: OperationContext, view: CommunityView) {
    return {
      groupId: view.community.jid,
      by: await this.people.actor(context.instanceId, context.self, context.self),
      at: new Date(),
    };
  }

  private link(groupId: string, groupName: string) {
    return { type: 'sub_group' as const, groupId, groupName, isAnnouncementGroup: false };
  }

  private newGroup(kind: SandboxGroupInput['kind'], name: string, parentJid: string | null, participants: Member[]): SandboxGroupInput {
    return { jid: groupJid(), name, kind, parentJid, inviteCode: inviteCode(), participants };
  }
}
