import type { Dispatcher } from 'undici';
import type { NormalisedEvent, OperationArgs, OperationName, OperationResult, OutboundMessage, StoreFacts } from '@app/contracts';
import type { NetworkMessageRepository } from '@app/database';
import type { SentMessage } from '../driver';
import type { BaileysEvents, BaileysLibrary, BaileysSocket } from './baileys-library';
import type { CallOrigins } from './call-origins';
import type { GroupActors } from './group-actors';
import type { RecentIds } from './inbound/recent-ids';
import type { UndecryptableWatch } from './inbound/undecryptable-watch';
import type { ServerAcks } from './outbound/server-acks';

/** What every part of the Baileys driver works with while an instance's socket is open. */
export interface BaileysContext {
  instanceId: string;
  /** The open socket (a fake in unit tests). */
  socket: BaileysSocket;
  /** The Baileys package (a fake in unit tests). */
  lib: BaileysLibrary;
  /** The account's own user JID (`<phone>@s.whatsapp.net`), as the socket reports it. */
  selfJid: string;
  /** The account's own LID, when the network told it. */
  selfLid?: string;
  /** Recent messages of this instance (retries, quotes, chat ranges). */
  messages: NetworkMessageRepository;
  /**
   * Ids of messages the gateway handed to this socket; the sender adds each id before relaying it. Baileys echoes
   * every send back as an `append` upsert, and the dispatcher already reported it, so inbound mapping leaves those out.
   */
  sent?: RecentIds;
  /** The server's acks of those sends: a send waits for its ack and fails when the server refused the stanza. */
  acks?: ServerAcks;
  /** The caller of each recent call as the offer named them: a reject goes to exactly that JID. */
  calls?: CallOrigins;
  /** Messages whose copies failed to decrypt, until a copy decrypts or the failure is reported. */
  undecryptable?: UndecryptableWatch;
  /** The other identity of recent group changes' authors, which rc14 drops from its group events. */
  groupActors?: GroupActors;
  /** What the socket fetches media with (through the instance's proxy when it has one); undefined for Node's default. */
  mediaDispatcher?: Dispatcher;
}

/** Where inbound mapping hands its results: gateway events and store facts, in the order they happened. */
export interface InboundSink {
  event(event: NormalisedEvent): void;
  learned(facts: StoreFacts): void;
}

/** Turns the socket's event batches into gateway events and store facts (and keeps recent messages). */
export interface BaileysInboundPort {
  process(context: BaileysContext, events: Partial<BaileysEvents>, sink: InboundSink): Promise<void>;
}

/** Hands one send or message operation to the network. Throws PermanentSendError when it never will succeed. */
export interface BaileysSenderPort {
  send(context: BaileysContext, message: OutboundMessage): Promise<SentMessage>;
}

/** Carries out one network operation (chats, contacts, groups, communities, users, media, newsletters, status, calls). */
export interface BaileysOperationsPort {
  perform<N extends OperationName>(context: BaileysContext, name: N, args: OperationArgs<N>): Promise<OperationResult<N>>;
}
