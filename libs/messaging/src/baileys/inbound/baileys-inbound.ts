import { Injectable, Logger, Optional } from '@nestjs/common';
import { ContactStoreRepository } from '@app/database';
import type { BaileysContext, BaileysInboundPort, InboundSink } from '../baileys-context';
import type { BaileysEvents, BaileysSocket } from '../baileys-library';
import { mapCalls } from './calls';
import { mapChatList, mapChatUpdates } from './chats';
import { learnPairs, mapContacts } from './contacts';
import { mapGroupChanges, mapJoinRequest, mapNewGroups, mapParticipants } from './groups';
import { mapHistory } from './history';
import { InboundBatch } from './inbound-batch';
import { mapPresence } from './presence';
import { mapReactions } from './reactions';
import { mapMessageReceipts } from './receipts';
import { newSocketMemory, type SocketMemory } from './socket-memory';
import { mapDeletes, mapUpdates } from './updates';
import { mapUpserts } from './upserts';

type Step = (batch: InboundBatch, events: Partial<BaileysEvents>) => void | Promise<void>;

/**
 * One batch, in this order: what says who is who first, then the history snapshot, the address book and chat list,
 * groups (a new group before its first messages), messages, what changes messages (updates, deletes, reactions,
 * receipts), chat settings, and finally presence and calls.
 */
const STEPS: Step[] = [
  (batch) => learnPairs(batch),
  (batch, events) => events['messaging-history.set'] && mapHistory(batch, events['messaging-history.set']),
  (batch, events) => mapContacts(batch, [...(events['contacts.upsert'] ?? []), ...(events['contacts.update'] ?? [])]),
  (batch, events) => events['chats.upsert'] && mapChatList(batch, events['chats.upsert']),
  (batch, events) => events['groups.upsert'] && mapNewGroups(batch, events['groups.upsert']),
  (batch, events) => events['groups.update'] && mapGroupChanges(batch, events['groups.update']),
  (batch, events) => events['group-participants.update'] && mapParticipants(batch, events['group-participants.update']),
  (batch, events) => events['group.join-request'] && mapJoinRequest(batch, events['group.join-request']),
  (batch, events) => events['messages.upsert'] && mapUpserts(batch, events['messages.upsert']),
  (batch, events) => events['messages.update'] && mapUpdates(batch, events['messages.update']),
  (batch, events) => events['messages.delete'] && mapDeletes(batch, events['messages.delete']),
  (batch, events) => events['messages.reaction'] && mapReactions(batch, events['messages.reaction']),
  (batch, events) => events['message-receipt.update'] && mapMessageReceipts(batch, events['message-receipt.update']),
  (batch, events) => events['chats.update'] && mapChatUpdates(batch, events['chats.update']),
  (batch, events) => events['presence.update'] && mapPresence(batch, events['presence.update']),
  (batch, events) => events.call && mapCalls(batch, events.call),
];

/** The real network's inbound side: turns each of the socket's event batches into gateway events and store facts. */
@Injectable()
export class BaileysInbound implements BaileysInboundPort {
  private readonly logger = new Logger(BaileysInbound.name);
  /** Per socket, so it goes when the socket does. */
  private readonly memories = new WeakMap<BaileysSocket, SocketMemory>();

  /** The gateway's store, to know the push names met before this socket (absent in unit tests: memory only). */
  constructor(@Optional() private readonly contacts?: ContactStoreRepository) {}

  async process(context: BaileysContext, events: Partial<BaileysEvents>, sink: InboundSink): Promise<void> {
    const batch = await InboundBatch.open(context, events, sink, this.memoryOf(context), this.logger);
    for (const step of STEPS) await step(batch, events);
  }

  private memoryOf(context: BaileysContext): SocketMemory {
    let memory = this.memories.get(context.socket);
    if (!memory) {
      const contacts = this.contacts;
      memory = newSocketMemory(contacts && (async (jid) => (await contacts.find(context.instanceId, jid))?.pushName));
      this.memories.set(context.socket, memory);
    }
    return memory;
  }
}
