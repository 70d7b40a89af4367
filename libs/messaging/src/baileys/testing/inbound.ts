import { Logger } from '@nestjs/common';
import type { NormalisedEvent, StoreFacts } from '@app/contracts';
import type { NetworkMessageRepository } from '@app/database';
import type { proto } from '@whiskeysockets/baileys';
import type { BaileysContext, InboundSink } from '../baileys-context';
import type { BaileysEvents, BaileysSocket } from '../baileys-library';
import { CallOrigins } from '../call-origins';
import { GroupActors } from '../group-actors';
import { BaileysInbound } from '../inbound/baileys-inbound';
import { RecentIds } from '../inbound/recent-ids';
import { MemoryNetworkMessages } from './kit';
import { fakeLibrary } from './library';
import { FakeSocket } from './socket';

/** The receiving side's specs: the driver's inbound mapping over a fake socket, and what it reported. */

export type SinkCall = { event: NormalisedEvent } | { learned: StoreFacts };

/** The events among sink calls, facts left out. */
export function eventsIn(calls: SinkCall[]): NormalisedEvent[] {
  return calls.flatMap((call) => ('event' in call ? [call.event] : []));
}

export class RecordingSink implements InboundSink {
  readonly calls: SinkCall[] = [];

  event(event: NormalisedEvent): void {
    this.calls.push({ event });
  }

  learned(facts: StoreFacts): void {
    this.calls.push({ learned: facts });
  }

  clear(): void {
    this.calls.length = 0;
  }
}

export const SELF_LID = '90000000000001@lid';
export const INSTANCE_ID = 'ins_inbound';

export interface Harness {
  inbound: BaileysInbound;
  socket: FakeSocket;
  store: MemoryNetworkMessages;
  sink: RecordingSink;
  context: BaileysContext;
  sent: RecentIds;
  /** Hands a batch to the driver through the fake socket, as the session wires it (`socket.ev.process`). */
  deliver(events: Partial<BaileysEvents>): Promise<SinkCall[]>;
}

export function inboundHarness(
  options: { knownPairs?: Record<string, string>; selfLid?: string | null; storedLidMappings?: Record<string, string> } = {},
): Harness {
  // What the mapping leaves out it logs at debug level; the tests assert on what it reports instead.
  Logger.overrideLogger(['warn', 'error']);
  const inbound = new BaileysInbound();
  const socket = new FakeSocket({ knownPairs: options.knownPairs, storedLidMappings: options.storedLidMappings });
  const store = new MemoryNetworkMessages();
  const sink = new RecordingSink();
  const sent = new RecentIds();
  const context: BaileysContext = {
    instanceId: INSTANCE_ID,
    socket: socket as unknown as BaileysSocket,
    lib: fakeLibrary().lib,
    // As `sock.user.id` reports it, device included.
    selfJid: '15550001111:7@s.whatsapp.net',
    selfLid: options.selfLid === null ? undefined : (options.selfLid ?? '90000000000001:7@lid'),
    messages: store as unknown as NetworkMessageRepository,
    sent,
    calls: new CallOrigins(),
    groupActors: new GroupActors(),
  };
  socket.ev.process((events) => inbound.process(context, events, sink));
  return {
    inbound,
    socket,
    store,
    sink,
    context,
    sent,
    async deliver(events) {
      const before = sink.calls.length;
      await socket.handOver(events);
      return sink.calls.slice(before);
    },
  };
}

type Long = Exclude<NonNullable<proto.IWebMessageInfo['messageTimestamp']>, number>;

/** A protobuf `Long` as Baileys hands 64-bit fields over (the parts the mapping reads: `low`, `high`, `toNumber`). */
export function long(value: number): Long {
  return { low: (value % 2 ** 32) | 0, high: Math.floor(value / 2 ** 32), unsigned: true, toNumber: () => value } as unknown as Long;
}
