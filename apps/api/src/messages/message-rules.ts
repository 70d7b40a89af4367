import { Injectable } from '@nestjs/common';
import { AppError, type InstanceScope } from '@app/contracts';
import { EventLogRepository, MessageRepository } from '@app/database';
import { LiveStatusReader } from '../instance-state/live-status.reader';

const EDITABLE_KINDS = new Set(['text', 'link']);
const OPERATION_KINDS = new Set(['edit', 'delete', 'reaction', 'delete_for_me', 'read', 'star', 'pin']);

/** What the network only allows the author of a message to do, checked before anything is stored. */
@Injectable()
export class MessageRules {
  constructor(
    private readonly messages: MessageRepository,
    private readonly events: EventLogRepository,
    private readonly statuses: LiveStatusReader,
  ) {}

  async assertEditable(scope: InstanceScope, messageId: string, chatJid: string): Promise<void> {
    const own = await this.ownMessage(scope, messageId, 'edited');
    if (!EDITABLE_KINDS.has(own.kind)) throw AppError.forbidden(`a ${own.kind} message cannot be edited, only text and link messages`);
    if (own.chatJid !== chatJid) throw AppError.validation(`to must be the chat message ${messageId} was sent to (${own.chatJid})`);
  }

  async assertDeletableForEveryone(scope: InstanceScope, messageId: string, chatJid: string, senderJid: string): Promise<void> {
    const self = await this.selfJid(scope);
    if (senderJid !== self) throw AppError.forbidden('only messages this instance sent can be deleted for everyone');
    const own = await this.ownMessage(scope, messageId, 'deleted for everyone');
    if (own.chatJid !== chatJid) throw AppError.validation(`chatId must be the chat message ${messageId} was sent to (${own.chatJid})`);
  }

  private async ownMessage(scope: InstanceScope, messageId: string, verb: string) {
    const notOwn = AppError.forbidden(`only messages this instance sent can be ${verb}`);
    const message = await this.messages.find(scope.instanceId, messageId);
    if (!message) {
      // Someone else's message is forbidden; an id the gateway has never seen is simply not found.
      throw (await this.events.receivedMessage(scope.instanceId, messageId)) ? notOwn : new AppError('not_found');
    }
    if (message.status === 'failed' || OPERATION_KINDS.has(message.kind)) throw notOwn;
    return message;
  }

  private async selfJid(scope: InstanceScope): Promise<string> {
    const { deviceId } = await this.statuses.read(scope);
    const phone = deviceId ? /^(\d+)/.exec(deviceId)?.[1] : undefined;
    if (!phone) throw new AppError('device_not_paired');
    return `${phone}@s.whatsapp.net`;
  }
}
