import { Injectable, Logger } from '@nestjs/common';
import {
  jidKind,
  type ChatFact,
  type EphemeralTimer,
  type EventIdentity,
  type EventPayloads,
  type NormalisedEvent,
  type StoreFacts,
} from '@app/contracts';
import { ChatStoreRepository, ContactStoreRepository, type ChatSettingsPatch } from '@app/database';

const EPHEMERAL_SECONDS: Record<EphemeralTimer, number> = { off: 0, '24h': 86_400, '7d': 604_800, '90d': 7_776_000 };

type EventOf<T extends NormalisedEvent['eventType']> = Extract<NormalisedEvent, { eventType: T }>;

/** A projection of one resource group's records, fed the same events (groups keep their metadata this way). */
export interface StoreProjection {
  apply(instanceId: string, event: NormalisedEvent): Promise<void>;
  learn?(instanceId: string, facts: StoreFacts): Promise<void>;
  forget?(instanceId: string): Promise<void>;
}

/**
 * Keeps the instance's chats and contacts in PostgreSQL from the events its network session reports: the network
 * offers no chat or contact list to query. Runs for every event before the instance's filters, so a filtered event
 * still updates what `GET /chats` shows.
 */
@Injectable()
export class StoreProjector {
  private readonly logger = new Logger(StoreProjector.name);
  private readonly projections: StoreProjection[] = [];

  constructor(
    private readonly chats: ChatStoreRepository,
    private readonly contacts: ContactStoreRepository,
  ) {}

  /** Adds another resource group's projection. */
  register(projection: StoreProjection): void {
    this.projections.push(projection);
  }

  /** Never throws: a store that lags is repaired by later events, while a lost event would not be. */
  async apply(instanceId: string, event: NormalisedEvent): Promise<void> {
    try {
      if (event.eventType === 'logged_out') return await this.forget(instanceId);
      await this.project(instanceId, event);
      for (const projection of this.projections) await projection.apply(instanceId, event);
    } catch (error) {
      this.logger.error(`${instanceId}: ${event.eventType} not applied to the store: ${(error as Error).message}`);
    }
  }

  /**
   * The account logged out: everything known about its chats and people goes, since the next pairing may be another
   * account. Never throws, as `apply`.
   */
  async forget(instanceId: string): Promise<void> {
    try {
      await this.chats.forgetAll(instanceId);
      for (const projection of this.projections) await projection.forget?.(instanceId);
    } catch (error) {
      this.logger.error(`${instanceId}: store not cleared: ${(error as Error).message}`);
    }
  }

  /** Never throws, as `apply`. */
  async learn(instanceId: string, facts: StoreFacts): Promise<void> {
    try {
      for (const { jid, ...patch } of facts.contacts ?? []) {
        await this.contacts.upsert(instanceId, jid, patch);
        if (patch.lid) await this.chats.setLid(instanceId, jid, patch.lid);
      }
      for (const chat of facts.chats ?? []) await this.chat(instanceId, chat);
      for (const projection of this.projections) await projection.learn?.(instanceId, facts);
    } catch (error) {
      this.logger.error(`${instanceId}: facts not applied to the store: ${(error as Error).message}`);
    }
  }

  /** A chat as the network lists it: it exists, with its latest activity and whatever settings came along. */
  private async chat(instanceId: string, chat: ChatFact): Promise<void> {
    await this.chats.touch(instanceId, chat.jid, chat.isGroup, timeOf(chat.lastActivity));
    const patch: ChatSettingsPatch = {
      ...(chat.archived !== undefined ? { archived: chat.archived } : {}),
      ...(chat.pinned !== undefined ? { pinned: chat.pinned } : {}),
      ...(chat.muted !== undefined ? { muted: chat.muted } : {}),
      ...(chat.muteEndTime !== undefined ? { muteEndTime: chat.muteEndTime ? new Date(chat.muteEndTime) : null } : {}),
      ...(chat.read !== undefined ? { read: chat.read } : {}),
      ...(chat.ephemeralSeconds !== undefined ? { ephemeralSeconds: chat.ephemeralSeconds } : {}),
    };
    if (Object.keys(patch).length > 0) await this.chats.applySettings(instanceId, chat.jid, chat.isGroup, patch);
    if (chat.lid && chat.lid !== chat.jid) await this.chats.setLid(instanceId, chat.jid, chat.lid);
  }

  private async project(instanceId: string, event: NormalisedEvent): Promise<void> {
    switch (event.eventType) {
      case 'message':
        return this.message(instanceId, event.data);
      case 'message_history_sync':
        for (const message of event.data.messages) await this.message(instanceId, message);
        return;
      case 'chat_setting':
        return this.chatSetting(instanceId, event);
      case 'chat_push_name':
        return this.person(instanceId, event.data.user, { pushName: event.data.pushName });
      case 'contact':
        return this.person(instanceId, event.data.contact, {
          inAddressBook: event.data.inPhoneAddressBook,
          fullName: event.data.inPhoneAddressBook && event.data.fullName ? event.data.fullName : null,
        });
      case 'group':
        if (event.data.groupType === 'new') await this.chats.touch(instanceId, event.data.id, true, timeOf(event.data.timestamp));
        return;
      default:
        return;
    }
  }

  private async message(instanceId: string, message: EventPayloads['message']): Promise<void> {
    if (message.isStatus) return;
    const at = timeOf(message.time);
    await this.chats.touch(instanceId, message.chatId, message.isGroup, at);
    if (!message.isGroup && message.sender.lid && !message.sender.isMe)
      await this.chats.setLid(instanceId, message.chatId, message.sender.lid);
  }

  private async chatSetting(instanceId: string, event: EventOf<'chat_setting'>): Promise<void> {
    const data = event.data;
    const patch: ChatSettingsPatch = {};
    if (data.archive) patch.archived = data.archive.isArchived;
    if (data.pin) patch.pinned = data.pin.isPinned;
    if (data.read) patch.read = data.read.isRead;
    if (data.mute) {
      patch.muted = data.mute.isMuted;
      patch.muteEndTime = data.mute.isMuted && data.mute.muteEndTime ? new Date(data.mute.muteEndTime) : null;
    }
    if (data.ephemeral) patch.ephemeralSeconds = EPHEMERAL_SECONDS[data.ephemeral.expiration];
    await this.chats.applySettings(instanceId, data.id, jidKind(data.id) === 'group', patch);
  }

  /** A person is stored under their phone-number JID when known, else their LID. */
  private async person(
    instanceId: string,
    who: EventIdentity,
    patch: { pushName?: string; fullName?: string | null; inAddressBook?: boolean },
  ) {
    await this.contacts.upsert(instanceId, who.id, { ...(who.lid && who.lid !== who.id ? { lid: who.lid } : {}), ...patch });
    if (who.lid && who.lid !== who.id) await this.chats.setLid(instanceId, who.id, who.lid);
  }
}

function timeOf(value: string | undefined): Date | null {
  if (!value) return null;
  const at = new Date(value);
  return Number.isNaN(at.getTime()) ? null : at;
}
