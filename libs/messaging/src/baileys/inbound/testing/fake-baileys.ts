import { Logger } from '@nestjs/common';
import type { NormalisedEvent, StoreFacts } from '@app/contracts';
import type { NetworkMessageRepository } from '@app/database';
import type { proto } from '@whiskeysockets/baileys';
import type { BaileysContext, InboundSink } from '../../baileys-context';
import type { BaileysEvents, BaileysLibrary, BaileysSocket } from '../../baileys-library';
import { BaileysInbound } from '../baileys-inbound';
import { CallOrigins } from '../../call-origins';
import { RecentIds } from '../recent-ids';
import { MemoryNetworkMessages } from '../../testing/kit';

/*
 * Stand-ins for the Baileys package and socket, for unit tests (Jest cannot load the ES-module package). The JID and
 * message helpers are the package's own logic (rc14 `WABinary/jid-utils.js`, `Utils/messages.js`), and the enums carry
 * the package's numbers.
 */

function jidDecode(jid: string | undefined) {
  const at = typeof jid === 'string' ? jid.indexOf('@') : -1;
  if (at < 0 || jid === undefined) return undefined;
  const server = jid.slice(at + 1);
  const [userAgent, device] = jid.slice(0, at).split(':');
  const [user] = userAgent.split('_');
  return { server, user, device: device ? Number(device) : undefined };
}

function jidNormalizedUser(jid: string | undefined): string {
  const decoded = jidDecode(jid);
  if (!decoded) return '';
  return `${decoded.user}@${decoded.server === 'c.us' ? 's.whatsapp.net' : decoded.server}`;
}

function normalizeMessageContent(content: proto.IMessage | null | undefined): proto.IMessage | undefined {
  if (!content) return undefined;
  let current: proto.IMessage | null | undefined = content;
  for (let i = 0; i < 5; i++) {
    const inner = futureProofMessage(current);
    if (!inner) break;
    current = inner.message;
  }
  return current ?? undefined;
}

function futureProofMessage(message: proto.IMessage | null | undefined): proto.Message.IFutureProofMessage | null | undefined {
  return (
    message?.ephemeralMessage ||
    message?.viewOnceMessage ||
    message?.documentWithCaptionMessage ||
    message?.viewOnceMessageV2 ||
    message?.viewOnceMessageV2Extension ||
    message?.editedMessage ||
    message?.associatedChildMessage ||
    message?.groupStatusMessage ||
    message?.groupStatusMessageV2
  );
}

function getContentType(content: proto.IMessage | undefined): string | undefined {
  if (!content) return undefined;
  return Object.keys(content).find((key) => (key === 'conversation' || key.includes('Message')) && key !== 'senderKeyDistributionMessage');
}

export const fakeLibrary = {
  jidDecode,
  jidNormalizedUser,
  areJidsSameUser: (a: string, b: string) => jidDecode(a)?.user === jidDecode(b)?.user,
  isPnUser: (jid?: string) => jid?.endsWith('@s.whatsapp.net'),
  isLidUser: (jid?: string) => jid?.endsWith('@lid'),
  isJidGroup: (jid?: string) => jid?.endsWith('@g.us'),
  isJidBroadcast: (jid?: string) => jid?.endsWith('@broadcast'),
  isJidStatusBroadcast: (jid: string) => jid === 'status@broadcast',
  isJidNewsletter: (jid?: string) => jid?.endsWith('@newsletter'),
  normalizeMessageContent,
  getContentType,
  proto: {
    WebMessageInfo: {
      Status: { ERROR: 0, PENDING: 1, SERVER_ACK: 2, DELIVERY_ACK: 3, READ: 4, PLAYED: 5 },
      StubType: {
        UNKNOWN: 0,
        REVOKE: 1,
        CIPHERTEXT: 2,
        GROUP_CREATE: 20,
        GROUP_CHANGE_SUBJECT: 21,
        GROUP_PARTICIPANT_ADD: 27,
        CALL_MISSED_VOICE: 40,
      },
    },
    Message: {
      ProtocolMessage: {
        Type: { REVOKE: 0, EPHEMERAL_SETTING: 3, HISTORY_SYNC_NOTIFICATION: 5, APP_STATE_SYNC_KEY_SHARE: 6, MESSAGE_EDIT: 14 },
      },
      PinInChatMessage: { Type: { UNKNOWN_TYPE: 0, PIN_FOR_ALL: 1, UNPIN_FOR_ALL: 2 } },
    },
    HistorySync: { HistorySyncType: { INITIAL_BOOTSTRAP: 0, FULL: 2, RECENT: 3, PUSH_NAME: 4, ON_DEMAND: 6 } },
  },
} as unknown as BaileysLibrary;

/** The message store, in memory (the kit's), under the name these specs know. */
export { MemoryNetworkMessages as InMemoryNetworkMessages };

/** The socket's `ev.process` and its LID mapping store; `emit` hands a batch over as Baileys' event buffer does. */
export class FakeSocket {
  private readonly handlers: ((events: Partial<BaileysEvents>) => Promise<void>)[] = [];
  readonly lookedUp: string[][] = [];

  constructor(
    private readonly knownPairs: Record<string, string> = {},
    /** Baileys' stored `lid-mapping` keys (phone-number user → LID user), when the test gives the socket an auth state. */
    storedLidMappings?: Record<string, string>,
  ) {
    if (storedLidMappings) {
      this.authState = {
        keys: {
          get: (type: string, ids: string[]) =>
            Promise.resolve(
              type === 'lid-mapping'
                ? Object.fromEntries(ids.filter((id) => storedLidMappings[id]).map((id) => [id, storedLidMappings[id]]))
                : {},
            ),
        },
      };
    }
  }

  readonly authState?: { keys: { get(type: string, ids: string[]): Promise<Record<string, string>> } };

  readonly ev = {
    process: (handler: (events: Partial<BaileysEvents>) => Promise<void>) => {
      this.handlers.push(handler);
      return () => undefined;
    },
  };

  readonly signalRepository = {
    lidMapping: {
      // As rc14's LIDMappingStore: device-specific PN JIDs (`:0` for the main device), null when none is known.
      getPNsForLIDs: (lids: string[]) => {
        this.lookedUp.push(lids);
        const pairs = lids
          .filter((lid) => this.knownPairs[jidNormalizedUser(lid)])
          .map((lid) => ({ lid, pn: `${jidDecode(this.knownPairs[jidNormalizedUser(lid)])?.user}:0@s.whatsapp.net` }));
        return Promise.resolve(pairs.length > 0 ? pairs : null);
      },
    },
  };

  async emit(events: Partial<BaileysEvents>): Promise<void> {
    for (const handler of this.handlers) await handler(events);
  }
}

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
  const socket = new FakeSocket(options.knownPairs, options.storedLidMappings);
  const store = new MemoryNetworkMessages();
  const sink = new RecordingSink();
  const sent = new RecentIds();
  const context: BaileysContext = {
    instanceId: INSTANCE_ID,
    socket: socket as unknown as BaileysSocket,
    lib: fakeLibrary,
    // As `sock.user.id` reports it, device included.
    selfJid: '15550001111:7@s.whatsapp.net',
    selfLid: options.selfLid === null ? undefined : (options.selfLid ?? '90000000000001:7@lid'),
    messages: store as unknown as NetworkMessageRepository,
    sent,
    calls: new CallOrigins(),
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
      await socket.emit(events);
      return sink.calls.slice(before);
    },
  };
}

type Long = Exclude<NonNullable<proto.IWebMessageInfo['messageTimestamp']>, number>;

/** A protobuf `Long` as Baileys hands 64-bit fields over (the parts the mapping reads: `low`, `high`, `toNumber`). */
export function long(value: number): Long {
  return { low: (value % 2 ** 32) | 0, high: Math.floor(value / 2 ** 32), unsigned: true, toNumber: () => value } as unknown as Long;
}
