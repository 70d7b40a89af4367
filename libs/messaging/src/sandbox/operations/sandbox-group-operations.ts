import { Injectable } from '@nestjs/common';
import { AppError, type GroupOperations } from '@app/contracts';
import { SandboxRepository, type SandboxGroupRecord } from '@app/database';
import { normalise } from '../../events/normalise';
import { membersBesidesSelf } from '../../network-rules';
import { groupJid, inviteCode, pictureId } from '../codes';
import { SandboxGroupAccess, isAdmin } from '../groups/sandbox-group-access';
import { groupInfo } from '../groups/group-info';
import { SandboxGroupMembership } from '../groups/sandbox-group-membership';
import { SandboxJoinRequests } from '../groups/sandbox-join-requests';
import { SandboxPeople } from '../sandbox-people';
import type { OperationContext, OperationHandlers } from './operation-handlers';

/** Groups as the network runs them for this account: who may change what, and the `group` events each change causes. */
@Injectable()
export class SandboxGroupOperations {
  constructor(
    private readonly people: SandboxPeople,
    private readonly store: SandboxRepository,
    private readonly access: SandboxGroupAccess,
    private readonly membership: SandboxGroupMembership,
    private readonly requests: SandboxJoinRequests,
  ) {}

  readonly handlers: OperationHandlers<GroupOperations> = {
    'groups.create': async (context, { name, participants }) => {
      const { instanceId, self } = context;
      const people = membersBesidesSelf(this.people.users(participants, 'participants'), [self]);
      const jid = groupJid();
      await this.store.createGroups(instanceId, [
        {
          jid,
          name,
          kind: 'group',
          parentJid: null,
          inviteCode: inviteCode(),
          participants: [{ jid: self, role: 'superadmin' }, ...people.map((member) => ({ jid: member, role: 'member' as const }))],
        },
      ]);
      const party = await this.people.partyResolver(instanceId);
      const by = await this.people.actor(instanceId, self, self);
      context.session.deliver(
        normalise.group({ groupId: jid, by, at: new Date(), groupType: 'new', name, join: [self, ...people].map(party) }),
      );
      return this.access.info(instanceId, jid);
    },

    'groups.list': async ({ instanceId, self }) => {
      const party = await this.people.partyResolver(instanceId);
      const groups = await this.store.groups(instanceId, { member: self });
      return groups.map((group) => groupInfo(group, party));
    },

    'groups.info': async ({ instanceId, self }, { groupId }) => {
      await this.access.memberOf(instanceId, groupId, self);
      return this.access.info(instanceId, groupId);
    },

    'groups.participants': async (context, { groupId, participants, action }) => {
      const group = await this.access.memberOf(context.instanceId, groupId, context.self);
      await this.membership.change(context, group, action, this.people.users(participants, 'participants'));
      return this.access.info(context.instanceId, groupId);
    },

    'groups.inviteCode': async ({ instanceId, self }, { groupId }) => {
      const group = await this.access.adminOf(instanceId, groupId, self);
      return { code: group.inviteCode };
    },

    'groups.revokeInvite': async ({ instanceId, self }, { groupId }) => {
      await this.access.adminOf(instanceId, groupId, self);
      const code = inviteCode();
      await this.store.updateGroup(instanceId, groupId, { inviteCode: code });
      return { code };
    },

    'groups.setName': async (context, { groupId, name }) => {
      await this.access.infoEditorOf(context.instanceId, groupId, context.self);
      await this.store.updateGroup(context.instanceId, groupId, { name });
      await this.announce(context, groupId, { name });
      return {};
    },

    'groups.setDescription': async (context, { groupId, description }) => {
      await this.access.infoEditorOf(context.instanceId, groupId, context.self);
      await this.store.updateGroup(context.instanceId, groupId, { description: description === '' ? null : description });
      await this.announce(context, groupId, { topic: description });
      return {};
    },

    'groups.setPicture': async (context, { groupId }) => {
      const { instanceId, self } = context;
      await this.access.infoEditorOf(instanceId, groupId, self);
      const id = pictureId();
      await this.store.updateGroup(instanceId, groupId, { pictureId: id });
      context.session.deliver(
        normalise.chatPicture({ chatId: groupId, sender: await this.people.actor(instanceId, self, self), pictureId: id }),
      );
      return { pictureId: id };
    },

    'groups.setting': async (context, { groupId, setting, enabled }) => {
      await this.access.adminOf(context.instanceId, groupId, context.self);
      await this.store.updateGroup(context.instanceId, groupId, { [setting]: enabled });
      await this.announce(context, groupId, { [setting]: enabled });
      return {};
    },

    'groups.joinApproval': async (context, { groupId, enabled }) => {
      await this.access.adminOf(context.instanceId, groupId, context.self);
      await this.store.updateGroup(context.instanceId, groupId, { joinApproval: enabled });
      await this.announce(context, groupId, { membershipApprovalRequired: enabled });
      return {};
    },

    'groups.memberAddMode': async ({ instanceId, self }, { groupId, onlyAdminAdd }) => {
      await this.access.adminOf(instanceId, groupId, self);
      await this.store.updateGroup(instanceId, groupId, { memberAddMode: onlyAdminAdd ? 'admin_add' : 'all_member_add' });
      return {};
    },

    'groups.leave': async (context, { groupId }) => {
      const group = await this.access.memberOf(context.instanceId, groupId, context.self);
      await this.leave(context, group);
      return {};
    },

    'groups.join': async (context, { code }) => {
      const group = await this.byCode(context.instanceId, code);
      if (group.participants.some((member) => member.jid === context.self))
        throw AppError.validation(`already a participant of ${group.jid}`);
      if (group.joinApproval) {
        await this.requests.add(context.instanceId, group.jid, context.self);
        return { groupId: group.jid };
      }
      await this.join(context, group, 'invite');
      return { groupId: group.jid, group: await this.access.info(context.instanceId, group.jid) };
    },

    'groups.joinInvite': async (context, { groupId, inviterId, code, expiration }) => {
      const group = await this.store.group(context.instanceId, groupId);
      if (!group) throw new AppError('not_found');
      if (group.inviteCode !== code) throw AppError.validation('code is not a valid invite code for this group');
      if (!isAdmin(group, inviterId)) throw AppError.validation(`inviterId ${inviterId} is not an admin of ${groupId}`);
      if (expiration !== undefined && expiration * 1000 < Date.now()) throw AppError.validation('the invite has expired');
      if (group.participants.some((member) => member.jid === context.self))
        throw AppError.validation(`already a participant of ${groupId}`);
      await this.join(context, group, 'invite');
      return { group: await this.access.info(context.instanceId, groupId) };
    },

    'groups.inviteInfo': async ({ instanceId }, { code }) => {
      const group = await this.byCode(instanceId, code);
      return this.access.info(instanceId, group.jid);
    },

    'groups.requests': async ({ instanceId, self }, { groupId }) => {
      await this.access.adminOf(instanceId, groupId, self);
      const party = await this.people.partyResolver(instanceId);
      return (await this.requests.pending(instanceId, groupId)).map((request) => ({
        ...party(request.jid),
        requestedAt: request.requestedAt,
      }));
    },

    'groups.updateRequests': async (context, { groupId, participants, action }) => {
      const { instanceId, self } = context;
      const group = await this.access.adminOf(instanceId, groupId, self);
      const people = this.people.users(participants, 'participants');
      const waiting = new Set((await this.requests.pending(instanceId, groupId)).map((request) => request.jid));
      const unknown = people.filter((jid) => !waiting.has(jid));
      if (unknown.length > 0) throw AppError.validation(`participants without a pending join request: ${unknown.join(', ')}`);
      for (const jid of people) await this.requests.remove(instanceId, groupId, jid);
      if (action === 'approve') await this.membership.admit(context, group, people);
      return {};
    },
  };

  private async announce(context: OperationContext, groupId: string, change: Record<string, unknown>): Promise<void> {
    const by = await this.people.actor(context.instanceId, context.self, context.self);
    context.session.deliver(normalise.group({ groupId, by, at: new Date(), ...change }));
  }

  private async byCode(instanceId: string, code: string): Promise<SandboxGroupRecord> {
    const [group] = await this.store.groups(instanceId, { inviteCode: code });
    if (!group) throw new AppError('not_found');
    return group;
  }

  private async join(context: OperationContext, group: SandboxGroupRecord, joinReason: string): Promise<void> {
    const { instanceId, self } = context;
    await this.store.updateGroup(instanceId, group.jid, { add: [self] });
    const by = await this.people.actor(instanceId, self, self);
    context.session.deliver(
      normalise.group({ groupId: group.jid, by, at: new Date(), joinReason, join: [(await this.people.partyResolver(instanceId))(self)] }),
    );
    await this.membership.followCommunity(context, group, by);
  }

  /** A group is never left without an admin: when the last one leaves, the network promotes another member. */
  private async leave(context: OperationContext, group: SandboxGroupRecord): Promise<void> {
    const { instanceId, self } = context;
    const rest = group.participants.filter((member) => member.jid !== self);
    const successor = rest.some((member) => member.role !== 'member') ? undefined : rest[0];
    await this.store.updateGroup(instanceId, group.jid, {
      remove: [self],
      ...(successor ? { roles: [{ jid: successor.jid, role: 'admin' as const }] } : {}),
    });
    const by = await this.people.actor(instanceId, self, self);
    context.session.deliver(
      normalise.group({ groupId: group.jid, by, at: new Date(), leave: [(await this.people.partyResolver(instanceId))(self)] }),
    );
    await this.membership.followCommunity(context, group, by);
  }
}
