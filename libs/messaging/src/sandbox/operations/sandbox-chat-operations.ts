import { Injectable } from '@nestjs/common';
import { AppError, jidKind, type BusinessProfile, type ChatOperations, type ChatPicture } from '@app/contracts';
import { SandboxRepository, SandboxWorldRepository } from '@app/database';
import { SandboxHappenings } from '../sandbox-happenings';
import { SandboxHistory } from '../sandbox-history';
import { WORLD_KINDS, type StoredBusinessProfile, type StoredProfilePicture } from '../world-kinds';
import type { OperationContext, OperationHandlers } from './operation-handlers';

/** The network lets an account pin at most this many chats. */
const MAX_PINNED_CHATS = 3;

/**
 * Chat settings changed from a linked device reach the phone and every other device, as the phone's own would;
 * pictures and business profiles are looked up on the network, with the owner's privacy respected.
 */
@Injectable()
export class SandboxChatOperations {
  constructor(
    private readonly happenings: SandboxHappenings,
    private readonly store: SandboxRepository,
    private readonly world: SandboxWorldRepository,
    private readonly history: SandboxHistory,
  ) {}

  readonly handlers: OperationHandlers<ChatOperations> = {
    'chats.archive': async ({ instanceId }, { chatId, archived }) => {
      await this.happenings.chatSetting(instanceId, { chatId, settingType: 'archive', enabled: archived });
      return {};
    },
    'chats.mute': async ({ instanceId }, { chatId, muted, until }) => {
      await this.happenings.chatSetting(instanceId, {
        chatId,
        settingType: 'mute',
        enabled: muted,
        ...(until ? { muteEndTime: until } : {}),
      });
      return {};
    },
    'chats.pin': async ({ instanceId }, { chatId, pinned }) => {
      const already = await this.store.pinnedChats(instanceId);
      if (pinned && !already.includes(chatId) && already.length >= MAX_PINNED_CHATS)
        throw AppError.validation(`at most ${MAX_PINNED_CHATS} chats can be pinned at a time`);
      await this.happenings.chatSetting(instanceId, { chatId, settingType: 'pin', enabled: pinned });
      return {};
    },
    'chats.read': async ({ instanceId }, { chatId, read }) => {
      await this.happenings.chatSetting(instanceId, { chatId, settingType: 'read', enabled: read });
      return {};
    },
    'chats.ephemeral': async (context, { chatId, expiration }) => {
      if (jidKind(chatId) === 'group') await this.requireTimerRights(context, chatId);
      await this.happenings.chatSetting(context.instanceId, { chatId, settingType: 'ephemeral', expiration });
      return {};
    },
    'chats.delete': async ({ instanceId }, { chatId }) => {
      await this.store.forgetChat(instanceId, chatId);
      return {};
    },
    'chats.clear': async ({ instanceId }, { chatId }) => {
      const messages = (await this.store.messages(instanceId)).filter((message) => message.chatJid === chatId);
      for (const message of messages)
        if (!message.content.deletedForMe)
          await this.store.updateContent(instanceId, message.id, { ...message.content, deletedForMe: true });
      return {};
    },
    // The network relays presence to the chat's other side; nothing comes back to this device.
    'chats.presence': () => Promise.resolve({}),
    'chats.subscribePresence': () => Promise.resolve({}),
    // The API normalises lastMessageSenderId to a JID.
    'chats.requestHistory': async (context, args) => {
      await this.history.deliverOlder(context, args);
      return {};
    },
    'chats.picture': async ({ instanceId, self }, { chatId }) => this.picture(instanceId, self, chatId),
    'chats.businessProfile': async ({ instanceId }, { chatId }) => {
      const profile =
        jidKind(chatId) === 'user'
          ? await this.world.record<StoredBusinessProfile>(instanceId, WORLD_KINDS.businessProfile, chatId)
          : undefined;
      if (!profile) throw new AppError('not_found');
      const { name: _name, ...shown } = profile;
      return { id: chatId, ...shown } satisfies BusinessProfile;
    },
  };

  /** In a group only members set the timer, and only admins while the group's info is locked. */
  private async requireTimerRights({ instanceId, self }: OperationContext, groupId: string): Promise<void> {
    const group = await this.store.group(instanceId, groupId);
    const role = group?.participants.find((member) => member.jid === self)?.role;
    if (!group || !role) throw new AppError('not_found');
    if (group.locked && role === 'member') throw AppError.forbidden('not a group admin');
  }

  private async picture(instanceId: string, self: string, chatId: string): Promise<ChatPicture> {
    let id: string | null | undefined;
    if (jidKind(chatId) === 'group') {
      const group = await this.store.group(instanceId, chatId);
      // Only members see a group's picture.
      if (group?.participants.some((member) => member.jid === self)) id = group.pictureId;
    } else {
      const picture = await this.world.record<StoredProfilePicture>(instanceId, WORLD_KINDS.profilePicture, chatId);
      if (picture && !picture.hidden) id = picture.pictureId;
    }
    if (!id) throw new AppError('not_found');
    return { pictureId: id, pictureUrl: `https://pps.whatsapp.net/v/t61.24694-24/${id}_n.jpg` };
  }
}
