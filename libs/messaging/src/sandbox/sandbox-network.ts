import { createHash } from 'node:crypto';
import { Injectable } from '@nestjs/common';
import { PermanentSendError, type NormalisedEvent, type OutboundMessage } from '@app/contracts';
import { SandboxRepository, type SandboxDeviceState, type SandboxMessageRecord } from '@app/database';
import { normalise, type MessageInput } from '../events/normalise';
import type { SentMessage } from '../driver';
import type { AttachedLink } from './sandbox-link';
import { SandboxLinks } from './sandbox-links';
import { NOT_IN_HISTORY, PIN_SECONDS, storedMessageInput, type MessageContext } from './sandbox-messages';
import { SandboxPeople } from './sandbox-people';

type Operation = 'edit' | 'delete' | 'reaction' | 'read' | 'star' | 'pin' | 'delete_for_me';

const OPERATIONS: Partial<Record<OutboundMessage['kind'], Operation>> = {
  edit: 'edit',
  delete: 'delete',
  reaction: 'reaction',
  read: 'read',
  star: 'star',
  pin: 'pin',
  delete_for_me: 'delete_for_me',
};

/** Only the author may edit or delete for everyone. */
const AUTHOR_ONLY = new Set<Operation>(['edit', 'delete']);

/**
 * The simulated network as an instance's session meets it: the session attaches to it, reads its device, and the
 * network takes the instance's messages (and their edits, reactions, reads) and gives back the chat history. What the
 * phone and the contacts do is in `SandboxPhone`, `SandboxSetup`, `SandboxInbound` and `SandboxHappenings`, driven by
 * the sandbox control API through the worker that owns the instance. Every event is built by `normalise`, as the real
 * network's driver does.
 */
@Injectable()
export class SandboxNetwork {
  constructor(
    private readonly store: SandboxRepository,
    private readonly links: SandboxLinks,
    private readonly people: SandboxPeople,
  ) {}

  attach(link: AttachedLink): void {
    this.links.attach(link);
  }

  detach(link: AttachedLink): void {
    this.links.detach(link);
  }

  device(instanceId: string): Promise<SandboxDeviceState> {
    return this.store.device(instanceId);
  }

  unpair(instanceId: string): Promise<void> {
    return this.store.unpair(instanceId);
  }

  /** The network takes a message (or an edit, delete or reaction) from the instance. */
  async receive(instanceId: string, message: OutboundMessage): Promise<SentMessage> {
    const self = await this.people.selfJid(instanceId);
    const operation = OPERATIONS[message.kind];
    if (operation) {
      await this.applyOperation(instanceId, self, message, operation);
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
    return { ownMessage: await this.ownMessage(instanceId, self, { ...record, seq: 0n, status: 'sent', at: new Date() }) };
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

  outbox(instanceId: string): Promise<SandboxMessageRecord[]> {
    return this.store.messages(instanceId, 'outbound');
  }

  /** What the recipient's phone gets: for media, the file's type, size and digest instead of how we obtained it. */
  private rendered(message: OutboundMessage): Record<string, unknown> {
    if (!message.media) return message.payload;
    const { data, mimeType } = message.media;
    return { ...message.payload, media: { mimeType, size: data.length, sha256: createHash('sha256').update(data).digest('hex') } };
  }

  /**
   * Operations change the message they target, as the phones would show it: edits, deletes for everyone and pins
   * for the whole chat; reactions per reactor; read receipts towards the sender; stars and deletes-for-me only in
   * this instance's own view.
   */
  private async applyOperation(instanceId: string, self: string, message: OutboundMessage, operation: Operation): Promise<void> {
    const payload = message.payload;
    const targetId = typeof payload.targetId === 'string' ? payload.targetId : '';
    const target = await this.store.message(instanceId, targetId);
    if (!target || target.chatJid !== message.chatJid)
      throw new PermanentSendError(`message ${targetId} is unknown to the network in ${message.chatJid}`);
    if (AUTHOR_ONLY.has(operation) && target.senderJid !== self)
      throw new PermanentSendError(`message ${targetId} was not sent by this instance`);
    if (operation === 'read' && target.senderJid === self) {
      throw new PermanentSendError(`message ${targetId} was sent by this instance; only received messages are read`);
    }
    const content = { ...target.content };
    switch (operation) {
      case 'edit':
        Object.assign(content, { text: payload.text, edited: true });
        break;
      case 'delete':
        content.deleted = true;
        break;
      case 'reaction': {
        const reactions = { ...((content.reactions as Record<string, string> | undefined) ?? {}) };
        const emoji = typeof payload.reaction === 'string' ? payload.reaction : '';
        if (emoji) reactions[self] = emoji;
        else delete reactions[self];
        content.reactions = reactions;
        break;
      }
      case 'read':
        await this.store.setMessageStatus(instanceId, targetId, typeof payload.receiptType === 'string' ? payload.receiptType : 'read');
        return;
      case 'star':
        content.starred = payload.starred !== false;
        break;
      case 'pin':
        if (payload.pinned === false) delete content.pinned;
        else content.pinned = { by: self, seconds: PIN_SECONDS[typeof payload.pinExpiration === 'string' ? payload.pinExpiration : '7d'] };
        break;
      case 'delete_for_me':
        content.deletedForMe = true;
        break;
    }
    await this.store.updateContent(instanceId, targetId, content);
  }
}
