import { createHash } from 'node:crypto';
import { Injectable } from '@nestjs/common';
import {
  PermanentSendError,
  isMessageAction,
  refusedByNetwork,
  type MessageActionKind,
  type NormalisedEvent,
  type OutboundMessage,
} from '@app/contracts';
import { SandboxRepository, type SandboxMessageRecord } from '@app/database';
import { normalise, type MessageInput } from '../events/normalise';
import type { SentMessage } from '../driver';
import { NOT_IN_HISTORY, PIN_SECONDS, storedMessageInput, type MessageContext } from './sandbox-messages';
import { SandboxPeople } from './sandbox-people';
import { SandboxLinkDrops } from './sandbox-link-drops';
import { SandboxRefusals } from './sandbox-refusals';

type Operation = MessageActionKind;

/** Operations that are message stanzas on the real network (the rest are receipts or app-state changes): refusable. */
const STANZA_OPERATIONS = new Set<Operation>(['edit', 'delete', 'reaction', 'pin']);

/** As the real-network driver says it of a stanza whose link closed before the server's ack. */
const LINK_CLOSED = 'the link closed before the network acknowledged the message';

/** Only the author may edit or delete for everyone. */
const AUTHOR_ONLY = new Set<Operation>(['edit', 'delete']);

/**
 * The network's half of a send: it takes the instance's messages (and their edits, reactions, reads), stores them as
 * the recipients' phones would show them, and gives back the chat history. Every event is built by `normalise`, as
 * the real network's driver does.
 */
@Injectable()
export class SandboxSends {
  constructor(
    private readonly store: SandboxRepository,
    private readonly people: SandboxPeople,
    private readonly refusals: SandboxRefusals,
    private readonly linkDrops: SandboxLinkDrops,
  ) {}

  /** The network takes a message (or an edit, delete or reaction) from the instance. */
  async receive(instanceId: string, message: OutboundMessage): Promise<SentMessage> {
    const self = await this.people.selfJid(instanceId);
    // A refused message reaches nobody, as on the real network, whose error ack fails the send (an edit, reaction,
    // pin or delete is a message stanza too).
    if (!isMessageAction(message) || STANZA_OPERATIONS.has(message.kind)) {
      const refusal = await this.refusals.take(instanceId, message.chatJid);
      if (refusal !== undefined) throw refusedByNetwork(refusal);
    }
    if (isMessageAction(message)) {
      await this.applyOperation(instanceId, self, message, message.kind);
      return {};
    }
    const record = {
      id: message.id,
      direction: 'outbound' as const,
      chatJid: message.chatJid,
      senderJid: self,
      type: message.kind,
      content: this.rendered(message),
    };
    await this.store.receiveOnce(instanceId, record);
    const ownMessage = await this.ownMessage(instanceId, self, { ...record, seq: 0n, status: 'sent', at: new Date() });
    // The recipient has it; the acknowledgement is lost with the link (the session drops it, see SandboxSession.send).
    if (await this.linkDrops.take(instanceId, message.chatJid)) return { ownMessage, unconfirmed: LINK_CLOSED };
    return { ownMessage };
  }

  /** The sender's own copy of a message it sent, as its linked devices see it (people by JID; LIDs need no lookup). */
  private async ownMessage(instanceId: string, self: string, record: SandboxMessageRecord): Promise<SentMessage['ownMessage']> {
    const replyTo = typeof record.content.replyTo === 'string' ? record.content.replyTo : undefined;
    const quoted = replyTo ? await this.store.message(instanceId, replyTo) : null;
    const input = storedMessageInput(record, { self, party: (jid) => ({ jid }), lookup: (id) => (quoted?.id === id ? quoted : undefined) });
    return input ? normalise.message(input) : undefined;
  }

  /** The chat history the network holds, as `message_history_sync` events (per chat; deleted messages left out). */
  async historyEvents(instanceId: string): Promise<NormalisedEvent[]> {
    const [messages, party, self] = await Promise.all([
      this.store.messages(instanceId),
      this.people.partyResolver(instanceId),
      this.people.selfJid(instanceId),
    ]);
    const byId = new Map(messages.map((message) => [message.id, message]));
    const context: MessageContext = { self, party, lookup: (id) => byId.get(id) };
    const inputs = messages
      .filter((message) => !NOT_IN_HISTORY.has(message.type) && !message.content.deleted && !message.content.deletedForMe)
      .map((message) => storedMessageInput(message, context))
      .filter((input): input is MessageInput => input !== undefined);
    return normalise.messageHistorySync(inputs);
  }

  /** What the recipient's phone gets: for media, the file's type, size and digest instead of how we obtained it. */
  private rendered(message: OutboundMessage): Record<string, unknown> {
    if (!message.media) return { ...message.payload };
    const { data, mimeType } = message.media;
    return { ...message.payload, media: { mimeType, size: data.length, sha256: createHash('sha256').update(data).digest('hex') } };
  }

  /**
   * Operations change the message they target, as the phones would show it: edits, deletes for everyone and pins
   * for the whole chat; reactions per reactor; read receipts towards the sender; stars and deletes-for-me only in
   * this instance's own view.
   */
  private async applyOperation(instanceId: string, self: string, message: OutboundMessage<Operation>, operation: Operation): Promise<void> {
    const targetId = message.payload.targetId;
    const target = await this.store.message(instanceId, targetId);
    if (!target || target.chatJid !== message.chatJid)
      throw new PermanentSendError(`message ${targetId} is unknown to the network in ${message.chatJid}`);
    if (AUTHOR_ONLY.has(operation) && target.senderJid !== self)
      throw new PermanentSendError(`message ${targetId} was not sent by this instance`);
    if (operation === 'read' && target.senderJid === self) {
      throw new PermanentSendError(`message ${targetId} was sent by this instance; only received messages are read`);
    }
    const content = { ...target.content };
    switch (message.kind) {
      case 'edit':
        Object.assign(content, { text: message.payload.text, edited: true });
        break;
      case 'delete':
        content.deleted = true;
        break;
      case 'reaction': {
        const reactions = { ...((content.reactions as Record<string, string> | undefined) ?? {}) };
        const emoji = message.payload.reaction;
        if (emoji) reactions[self] = emoji;
        else delete reactions[self];
        content.reactions = reactions;
        break;
      }
      case 'read':
        await this.store.setMessageStatus(instanceId, targetId, message.payload.receiptType ?? 'read');
        return;
      case 'star':
        content.starred = message.payload.starred !== false;
        break;
      case 'pin':
        if (message.payload.pinned === false) delete content.pinned;
        else content.pinned = { by: self, seconds: PIN_SECONDS[message.payload.pinExpiration ?? '7d'] };
        break;
      case 'delete_for_me':
        content.deletedForMe = true;
        break;
    }
    await this.store.updateContent(instanceId, targetId, content);
  }
}
