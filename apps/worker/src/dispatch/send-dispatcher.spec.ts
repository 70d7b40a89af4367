import type { AppConfig } from '@app/config';
import { WireDecodeError } from '@app/contracts';
import { FencedOutError, type StoredMessage, type UnreadableMessage } from '@app/database';
import { ShardLeaseCheck } from '../shards/shard-lease-check';
import { SendBreaker } from './send-breaker';
import { SendDispatcher } from './send-dispatcher';

const INSTANCE = 'ins_a';

function message(id: string, seq: number): StoredMessage {
  return { id, kind: 'text', chatJid: '447700900123@s.whatsapp.net', payload: { text: id }, seq: BigInt(seq), status: 'accepted' };
}

/** The dispatcher over in-memory fakes: rows stay `accepted` until an outcome is recorded, as in PostgreSQL. */
function setUp(
  options: {
    failRecords?: number;
    intervalMs?: number;
    fencedOutAt?: string;
    rows?: (StoredMessage | UnreadableMessage)[];
    /** Sends whose stanza the network never acknowledged, with why. */
    unconfirmed?: Record<string, string>;
  } = {},
) {
  const rows = options.rows ?? [message('m1', 1), message('m2', 2), message('m3', 3)];
  const recorded: string[] = [];
  const sent: string[] = [];
  let failRecords = options.failRecords ?? 0;
  const messages = {
    sendInterval: () => Promise.resolve(options.intervalMs ?? 0),
    pending: () => Promise.resolve(rows.filter((row) => !recorded.includes(row.id))),
    claims: [] as { id: string; token: number }[],
    claim(_instanceId: string, id: string, fence: { shard: number; token: number }) {
      this.claims.push({ id, token: fence.token });
      // PostgreSQL refuses the claim once the lease has passed on to another worker.
      if (id === options.fencedOutAt) return Promise.reject(new FencedOutError(fence));
      return Promise.resolve(!recorded.includes(id));
    },
    outcomes: [] as { id: string; outcome: { status: string; error?: string } }[],
    events: [] as unknown[],
    recordOutcome(_instanceId: string, id: string, outcome: { status: string; error?: string }, events: unknown[]) {
      this.outcomes.push({ id, outcome });
      this.events.push(...events);
      if (failRecords > 0) {
        failRecords -= 1;
        return Promise.reject(new Error('database unavailable'));
      }
      recorded.push(id);
      return Promise.resolve({ recorded: true, events: [] });
    },
  };
  const session = {
    send: (outbound: { id: string }) => {
      sent.push(outbound.id);
      const why = options.unconfirmed?.[outbound.id];
      return Promise.resolve(why === undefined ? {} : { unconfirmed: why });
    },
  };
  const sessions = { onConnected: () => undefined, connectedSession: () => session };
  const media = { resolve: (row: StoredMessage) => Promise.resolve({ id: row.id }), release: () => Promise.resolve() };
  const routing = { get: () => Promise.resolve({ eventFilters: [], webhookUrl: null }) };
  const fanout = { committed: () => Promise.resolve() };
  const activity = { note: () => undefined };
  const noted: string[] = [];
  const lease = new ShardLeaseCheck();
  const lost: { shard: number; token: number }[] = [];
  let held = true;
  lease.follow({
    holds: () => held,
    fencingToken: () => 7,
    lose: (shard, token) => {
      lost.push({ shard, token });
      held = false;
    },
  });
  const dispatcher = new SendDispatcher(
    { shardCount: 1 } as AppConfig,
    messages as never,
    sessions as never,
    media as never,
    routing as never,
    fanout as never,
    activity as never,
    lease,
    new SendBreaker({ refusals: 3, windowSeconds: 600, coolDownSeconds: 900 }),
    { paused: () => Promise.resolve(), resumed: () => Promise.resolve() } as never,
    undefined,
    { noted: (_instanceId: string, id: string) => noted.push(id) } as never,
  );
  return { dispatcher, sent, recorded, claims: messages.claims, outcomes: messages.outcomes, events: messages.events, lost, noted };
}

describe('SendDispatcher', () => {
  const unreadable = (id: string, seq: number, error: WireDecodeError): UnreadableMessage => ({
    id,
    kind: 'text',
    chatJid: '447700900123@s.whatsapp.net',
    seq: BigInt(seq),
    status: 'accepted',
    unreadable: error,
  });

  it('fails a stored send it cannot read with the reason, never sends it, and goes on with the next', async () => {
    const bad = unreadable('m1', 1, new WireDecodeError('stored_send', 'text: Invalid input: expected string, received number'));
    const { dispatcher, sent, outcomes } = setUp({ rows: [bad, message('m2', 2)] });
    await dispatcher.kick(INSTANCE);
    expect(sent).toEqual(['m2']);
    expect(outcomes).toEqual([
      {
        id: 'm1',
        outcome: { status: 'failed', error: 'the stored send could not be read (text: Invalid input: expected string, received number)' },
      },
      { id: 'm2', outcome: { status: 'sent' } },
    ]);
  });

  it('records a send whose stanza the network never acknowledged as unconfirmed, with why, never as sent, and sends it once', async () => {
    const why = 'the link closed before the network acknowledged the message';
    const { dispatcher, sent, outcomes, events, noted } = setUp({ unconfirmed: { m2: why } });
    await dispatcher.kick(INSTANCE);
    await dispatcher.kick(INSTANCE);
    expect(sent).toEqual(['m1', 'm2', 'm3']);
    expect(outcomes).toEqual([
      { id: 'm1', outcome: { status: 'sent' } },
      { id: 'm2', outcome: { status: 'unconfirmed', error: why } },
      { id: 'm3', outcome: { status: 'sent' } },
    ]);
    const chatId = '447700900123@s.whatsapp.net';
    expect(events).toEqual([
      { eventType: 'message_status', data: { id: 'm1', chatId, status: 'sent' } },
      { eventType: 'message_status', data: { id: 'm2', chatId, status: 'unconfirmed', error: why } },
      { eventType: 'message_status', data: { id: 'm3', chatId, status: 'sent' } },
    ]);
    expect(noted).toEqual(['m2']);
  });

  it('leaves a stored send of a newer version accepted for an upgraded worker, and keeps the later ones behind it', async () => {
    const newer = unreadable('m1', 1, new WireDecodeError('stored_send', 'version 3 is newer than this process understands (2)', 3));
    const { dispatcher, sent, outcomes, claims } = setUp({ rows: [newer, message('m2', 2)] });
    await dispatcher.kick(INSTANCE);
    expect({ sent, outcomes, claims }).toEqual({ sent: [], outcomes: [], claims: [] });
  });

  it('claims each message in PostgreSQL under its lease token before sending it, and sends nothing the claim refuses', async () => {
    const { dispatcher, sent, recorded, claims, lost } = setUp({ fencedOutAt: 'm2' });
    await dispatcher.kick(INSTANCE);
    expect({ sent, recorded, claims, lost }).toEqual({
      sent: ['m1'],
      recorded: ['m1'],
      claims: [
        { id: 'm1', token: 7 },
        { id: 'm2', token: 7 },
      ],
      // The refusal ends this worker's belief in the shard at once.
      lost: [{ shard: 0, token: 7 }],
    });
    await dispatcher.kick(INSTANCE);
    expect(sent).toEqual(['m1']);
  });

  it('never sends a message twice when its outcome could not be written: the next drain records it instead', async () => {
    const { dispatcher, sent, recorded } = setUp({ failRecords: 1 });
    await dispatcher.kick(INSTANCE);
    expect({ sent, recorded }).toEqual({ sent: ['m1'], recorded: [] });
    await dispatcher.kick(INSTANCE);
    expect({ sent, recorded }).toEqual({ sent: ['m1', 'm2', 'm3'], recorded: ['m1', 'm2', 'm3'] });
  });

  it('once stopped, finishes the send in progress and takes no other, even in the middle of a pacing wait', async () => {
    const { dispatcher, sent, recorded } = setUp({ intervalMs: 600_000 });
    const drain = dispatcher.kick(INSTANCE);
    await new Promise((resolve) => setTimeout(resolve, 20));
    expect(sent).toEqual(['m1']);
    dispatcher.stop();
    await dispatcher.idle();
    await drain;
    expect({ sent, recorded }).toEqual({ sent: ['m1'], recorded: ['m1'] });
    await dispatcher.kick(INSTANCE);
    expect(sent).toEqual(['m1']);
  });
});
