import type { Logger } from '@nestjs/common';
import type { ChatFact, ContactFact, NormalisedEvent } from '@app/contracts';
import type { BaileysContext, InboundSink } from '../baileys-context';
import type { BaileysEvents, BaileysLibrary } from '../baileys-library';
import { discoverPairs } from './discover-pairs';
import { Identities } from './identities';
import { peopleIn } from './lid-scan';
import { MessageLedger } from './message-ledger';
import type { SocketMemory } from './socket-memory';

/** Everything one batch's mappers share: who is who, the message ledger, and the sink (facts deduplicated). */
export class InboundBatch {
  readonly lib: BaileysLibrary;
  readonly ledger: MessageLedger;
  private readonly learnedFacts = new Set<string>();

  private constructor(
    readonly context: BaileysContext,
    readonly who: Identities,
    readonly memory: SocketMemory,
    readonly logger: Logger,
    private readonly sink: InboundSink,
  ) {
    this.lib = context.lib;
    this.ledger = new MessageLedger(context.messages, context.instanceId, context.lib);
  }

  static async open(
    context: BaileysContext,
    events: Partial<BaileysEvents>,
    sink: InboundSink,
    memory: SocketMemory,
    logger: Logger,
  ): Promise<InboundBatch> {
    const who = new Identities(context.lib, context.selfJid, context.selfLid);
    discoverPairs(events, who);
    const batch = new InboundBatch(context, who, memory, logger, sink);
    await batch.resolve(peopleIn(events));
    return batch;
  }

  /** Looks up the other identity of people the batch names by one only (also a stored message's sender, say). */
  async resolve(jids: Iterable<string>): Promise<void> {
    try {
      await this.who.lookUp(jids, this.context.socket);
    } catch (error) {
      // Without the lookup people are named by LID alone, which is still correct.
      this.logger.warn(`${this.context.instanceId}: LID lookup failed: ${(error as Error).message}`);
    }
  }

  event(event: NormalisedEvent): void {
    this.sink.event(event);
  }

  /** Facts already told in this batch are not told again (a push name comes with every message of a sender). */
  learnContacts(facts: ContactFact[]): void {
    const fresh = facts.filter((fact) => this.fresh('contact', fact));
    if (fresh.length > 0) this.sink.learned({ contacts: fresh });
  }

  learnChats(facts: ChatFact[]): void {
    const fresh = facts.filter((fact) => this.fresh('chat', fact));
    if (fresh.length > 0) this.sink.learned({ chats: fresh });
  }

  /** Whether the gateway itself sent this message on this socket (the dispatcher reports those from the send). */
  sentByGateway(id: string | null | undefined): boolean {
    return !!id && this.context.sent?.has(id) === true;
  }

  private fresh(kind: string, fact: object): boolean {
    const key = `${kind}:${JSON.stringify(fact)}`;
    if (this.learnedFacts.has(key)) return false;
    this.learnedFacts.add(key);
    return true;
  }
}
