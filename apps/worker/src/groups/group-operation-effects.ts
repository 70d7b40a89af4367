import { Injectable, type OnModuleInit } from '@nestjs/common';
import { ChatStoreRepository, GroupStoreRepository } from '@app/database';
import { OperationEffects } from '../store/operation-effects';

/** Whole group descriptions the network answered are stored as they are, as are the settings no event reports. */
@Injectable()
export class GroupOperationEffects implements OnModuleInit {
  constructor(
    private readonly effects: OperationEffects,
    private readonly groups: GroupStoreRepository,
    private readonly chats: ChatStoreRepository,
  ) {}

  onModuleInit(): void {
    this.effects.register('groups.create', (instanceId, _args, group) => this.groups.save(instanceId, group));
    this.effects.register('groups.info', (instanceId, _args, group) => this.groups.save(instanceId, group));
    this.effects.register('groups.participants', (instanceId, _args, group) => this.groups.save(instanceId, group));
    this.effects.register('groups.list', async (instanceId, _args, groups) => {
      for (const group of groups) await this.groups.save(instanceId, group);
    });
    this.effects.register('groups.memberAddMode', (instanceId, { groupId, onlyAdminAdd }) =>
      this.groups.patch(instanceId, groupId, { memberAddMode: onlyAdminAdd ? 'admin_add' : 'all_member_add' }),
    );
    this.effects.register('groups.leave', (instanceId, { groupId }) => this.groups.remove(instanceId, groupId));
    // Joining makes the group a chat of this account, as creating one does.
    this.effects.register('groups.join', async (instanceId, _args, { groupId, group }) => {
      if (!group) return;
      await this.groups.save(instanceId, group);
      await this.chats.touch(instanceId, groupId, true, null);
    });
    this.effects.register('groups.joinInvite', async (instanceId, _args, { group }) => {
      await this.groups.save(instanceId, group);
      await this.chats.touch(instanceId, group.jid, true, null);
    });
  }
}
