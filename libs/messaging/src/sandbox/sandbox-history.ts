import { Injectable } from '@nestjs/common';
import type { OperationArgs } from '@app/contracts';
import { SandboxRepository, type SandboxMessageRecord } from '@app/database';
import { normalise, type MessageInput } from '../events/normalise';
import type { OperationContext } from './operations/operation-handlers';
import { NOT_IN_HISTORY, storedMessageInput, type MessageContext } from './sandbox-messages';
import { SandboxPeople } from './sandbox-people';

/** The phone answering an on-demand history request for one chat. */
@Injectable()
export class SandboxHistory {
  constructor(
    private readonly people: SandboxPeople,
    private readonly store: SandboxRepository,
  ) {}

  /**
   * Up to `count` messages of the chat older than the given one, oldest first, as `message_history_sync`. The phone
   * answers nothing when it does not hold that message (its key is the id and sender together).
   */
  async deliverOlder(context: OperationContext, args: OperationArgs<'chats.requestHistory'>): Promise<void> {
    const messages = (await this.store.messages(context.instanceId)).filter((message) => message.chatJid === args.chatId);
    const anchor = messages.find((message) => message.id === args.lastMessageId && message.senderJid === args.lastMessageSenderId);
    if (!anchor) return;
    const older = messages.filter((message) => message.seq < anchor.seq && this.shown(message)).slice(-args.count);
    const party = await this.people.partyResolver(context.instanceId);
    const byId = new Map(messages.map((message) => [message.id, message]));
    const messageContext: MessageContext = { self: context.self, party, lookup: (id) => byId.get(id) };
    const inputs = older
      .map((message) => storedMessageInput(message, messageContext))
      .filter((input): input is MessageInput => input !== undefined);
    for (const event of normalise.messageHistorySync(inputs)) context.session.deliver(event);
  }

  private shown(message: SandboxMessageRecord): boolean {
    return !NOT_IN_HISTORY.has(message.type) && !message.content.deleted && !message.content.deletedForMe;
  }
}
