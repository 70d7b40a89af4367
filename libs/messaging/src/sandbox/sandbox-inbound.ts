import { Injectable } from '@nestjs/common';
import { AppError, jidKind, newMessageId, normaliseUserId, type NormalisedEvent, type SandboxInboundSpec } from '@app/contracts';
import { SandboxRepository, SandboxWorldRepository, type SandboxMessageRecord } from '@app/database';
import { normalise, type MessageInput } from '../events/normalise';
import { SandboxInboundContent, type InboundEffect, type PreparedInbound } from './sandbox-inbound-content';
import type { SandboxLink } from './sandbox-link';
import { SandboxLinks } from './sandbox-links';
import { storedMessageInput } from './sandbox-messages';
import { SandboxPeople } from './sandbox-people';
import { WORLD_KINDS } from './world-kinds';

/** Contacts act on messages: they write to this account (one message or many in order) and report the ones it sent read. */
@Injectable()
export class SandboxInbound {
  constructor(
    private readonly store: SandboxRepository,
    private readonly world: SandboxWorldRepository,
    private readonly links: SandboxLinks,
    private readonly people: SandboxPeople,
    private readonly content: SandboxInboundContent,
  ) {}

  /** A contact sends a message, or taps a reply button or list row of a message this instance sent. */
  async inbound(instanceId: string, spec: SandboxInboundSpec): Promise<{ id: string }> {
    const session = this.links.open(instanceId);
    return this.deliverInbound(instanceId, session, await this.content.prepare(instanceId, spec));
  }

  /**
   * Many inbound messages in order, as if sent one after another. Every one is checked before the first is delivered,
   * so a bad one (`messages[i]: ...`) delivers none of them.
   */
  async inboundBatch(instanceId: string, specs: SandboxInboundSpec[]): Promise<{ ids: string[] }> {
    const session = this.links.open(instanceId);
    const prepared: PreparedInbound[] = [];
    for (const [index, spec] of specs.entries()) {
      try {
        prepared.push(await this.content.prepare(instanceId, spec));
      } catch (error) {
        if (error instanceof AppError && error.code === 'validation')
          throw AppError.validation(`messages[${index}]: ${error.detail.replace(/^validation error: /, '')}`);
        throw error;
      }
    }
    return { ids: await this.deliverInboundBatch(instanceId, session, prepared) };
  }

  /**
   * What `deliverInbound` does for each message, with the lookups and writes shared: the blocklist, the instance's own
   * JID and contacts are read once, the messages stored in one statement, and each sender's facts learned once (before
   * the messages, with the last push name it showed). The events come out in the same order as one by one.
   */
  private async deliverInboundBatch(instanceId: string, session: SandboxLink, prepared: PreparedInbound[]): Promise<string[]> {
    const blocked = new Set((await this.world.records(instanceId, WORLD_KINDS.blocklist)).map((entry) => entry.key));
    const delivered = prepared.filter((each) => !blocked.has(each.from));
    const records = await this.store.recordMessages(
      instanceId,
      delivered.map(({ from, chatId, inbound }) => ({
        id: newMessageId(),
        direction: 'inbound' as const,
        chatJid: chatId,
        senderJid: from,
        type: inbound.type,
        content: inbound.content,
      })),
    );
    const recordOf = new Map(delivered.map((each, index) => [each, records[index]]));
    const ids = prepared.map((each) => recordOf.get(each)?.id ?? newMessageId());
    const pushNameEvents = new Map<PreparedInbound, NormalisedEvent>();
    const lastPushName = new Map<string, string>();
    for (const each of delivered) {
      const { spec, from, inbound } = each;
      await this.applyEffect(instanceId, inbound.effect);
      if (spec.pushName) {
        const before = await this.store.setPushName(instanceId, from, spec.pushName);
        if (before !== spec.pushName)
          pushNameEvents.set(each, normalise.chatPushName({ user: await this.people.party(instanceId, from), pushName: spec.pushName }));
        lastPushName.set(from, spec.pushName);
      }
    }
    for (const from of new Set(delivered.map((each) => each.from))) {
      const sender = await this.store.contact(instanceId, from);
      const pushName = lastPushName.get(from);
      session.learn({
        contacts: [
          {
            jid: from,
            ...(sender?.lid ? { lid: sender.lid } : {}),
            ...(pushName ? { pushName } : {}),
            ...(sender?.businessName ? { businessName: sender.businessName } : {}),
          },
        ],
      });
    }
    const [party, self] = await Promise.all([this.people.partyResolver(instanceId), this.people.selfJid(instanceId)]);
    for (const each of delivered) {
      const record = recordOf.get(each) as SandboxMessageRecord;
      const pushNameEvent = pushNameEvents.get(each);
      if (pushNameEvent) session.deliver(pushNameEvent);
      const replyTo = typeof record.content.replyTo === 'string' ? record.content.replyTo : undefined;
      const quoted = replyTo ? await this.store.message(instanceId, replyTo) : null;
      const input = storedMessageInput(record, { self, party, lookup: (id) => (quoted?.id === id ? quoted : undefined) });
      if (!input) throw new Error(`message ${record.id} of type ${record.type} is not a message event`);
      session.deliver(normalise.message(input));
    }
    return ids;
  }

  private async deliverInbound(instanceId: string, session: SandboxLink, prepared: PreparedInbound): Promise<{ id: string }> {
    const { spec, from, chatId, inbound } = prepared;
    // The network never delivers a blocked person's messages; the sender still sees theirs as sent.
    if (await this.world.record(instanceId, WORLD_KINDS.blocklist, from)) return { id: newMessageId() };
    const record = await this.store.recordMessage(instanceId, {
      id: newMessageId(),
      direction: 'inbound',
      chatJid: chatId,
      senderJid: from,
      type: inbound.type,
      content: inbound.content,
    });
    await this.applyEffect(instanceId, inbound.effect);
    if (spec.pushName) {
      // As on the network: a message carries its sender's push name, and a changed one is announced first.
      const before = await this.store.setPushName(instanceId, from, spec.pushName);
      if (before !== spec.pushName)
        session.deliver(normalise.chatPushName({ user: await this.people.party(instanceId, from), pushName: spec.pushName }));
    }
    const sender = await this.store.contact(instanceId, from);
    // A message carries its sender's push name and, for a business, its verified name.
    session.learn({
      contacts: [
        {
          jid: from,
          ...(sender?.lid ? { lid: sender.lid } : {}),
          ...(spec.pushName ? { pushName: spec.pushName } : {}),
          ...(sender?.businessName ? { businessName: sender.businessName } : {}),
        },
      ],
    });
    session.deliver(normalise.message(await this.messageInput(instanceId, record)));
    return { id: record.id };
  }

  /** The recipient's phone reports a message delivered, read or played; in a group, `from` is the member. */
  async receipt(
    instanceId: string,
    args: { messageId: string; status: 'delivered' | 'read' | 'played'; from?: string },
  ): Promise<{ id: string }> {
    const session = this.links.open(instanceId);
    const message = await this.store.message(instanceId, args.messageId);
    if (!message || message.direction !== 'outbound') throw new AppError('not_found');
    let reader = message.chatJid;
    if (args.from !== undefined) {
      const from = normaliseUserId(args.from);
      if (!from) throw AppError.validation('from must be a user JID or an international number');
      reader = from;
    } else if (jidKind(message.chatJid) === 'group') {
      throw AppError.validation('from is required for a message in a group');
    }
    await this.store.setMessageStatus(instanceId, args.messageId, args.status);
    session.deliver(
      normalise.messageRead({
        chatId: message.chatJid,
        reader: { ...(await this.people.party(instanceId, reader)), isMe: false },
        messageSender: { jid: message.senderJid, isMe: true },
        messageIds: [message.id],
        time: new Date(),
        receiptType: args.status,
      }),
    );
    return { id: args.messageId };
  }

  /** A reaction or pin changes the message it is about, as the phones show it. */
  private async applyEffect(instanceId: string, effect: InboundEffect | undefined): Promise<void> {
    if (!effect) return;
    const target = await this.store.message(instanceId, effect.targetId);
    if (!target) return;
    const content = { ...target.content };
    effect.apply(content);
    await this.store.updateContent(instanceId, target.id, content);
  }

  /** A stored message as the normaliser takes it, with what it quotes and its people resolved. */
  private async messageInput(instanceId: string, record: SandboxMessageRecord): Promise<MessageInput> {
    const replyTo = typeof record.content.replyTo === 'string' ? record.content.replyTo : undefined;
    const [party, self, quoted] = await Promise.all([
      this.people.partyResolver(instanceId),
      this.people.selfJid(instanceId),
      replyTo ? this.store.message(instanceId, replyTo) : Promise.resolve(null),
    ]);
    const input = storedMessageInput(record, { self, party, lookup: (id) => (quoted?.id === id ? quoted : undefined) });
    if (!input) throw new Error(`message ${record.id} of type ${record.type} is not a message event`);
    return input;
  }
}
