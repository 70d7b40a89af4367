import type { NormalisedEvent } from '@app/contracts';
import { normalise } from '@app/messaging';
import { UnconfirmedSends } from './unconfirmed-sends';

const INSTANCE = 'ins_a';
const ANN = '447700900123@s.whatsapp.net';
const ME = { jid: '15550001111@s.whatsapp.net', isMe: true };
const FENCE = { shard: 0, token: 7 };

/** Over an in-memory `messages` table of one instance: a row moves only from the status an outcome names. */
function setUp(rows: Record<string, string>) {
  const reads: string[] = [];
  const recorded: { id: string; outcome: unknown; events: unknown[]; fence: unknown }[] = [];
  const messages = {
    unconfirmed: (instanceId: string) => {
      reads.push(instanceId);
      return Promise.resolve(Object.keys(rows).filter((id) => rows[id] === 'unconfirmed'));
    },
    recordOutcome: (
      _instanceId: string,
      id: string,
      outcome: { status: string; from?: string },
      events: unknown[],
      options: { fence?: unknown },
    ) => {
      if (rows[id] !== (outcome.from ?? 'accepted')) return Promise.resolve({ recorded: false, events: [] });
      rows[id] = outcome.status;
      recorded.push({ id, outcome, events, fence: options.fence });
      return Promise.resolve({ recorded: true, events: [] });
    },
  };
  const routing = { get: () => Promise.resolve({ eventFilters: [], webhookUrl: 'https://hooks.example.com', sink: null }) };
  const fanout = { committed: () => Promise.resolve() };
  const sends = new UnconfirmedSends(messages as never, routing as never, fanout as never);
  return { sends, reads, recorded, rows };
}

const receipt = (ids: string[], receiptType: 'delivered' | 'read' = 'delivered'): NormalisedEvent =>
  normalise.messageRead({
    chatId: ANN,
    reader: { jid: ANN, isMe: false },
    messageSender: ME,
    messageIds: ids,
    time: new Date('2026-11-29T08:00:00.000Z'),
    receiptType,
  });

describe('UnconfirmedSends', () => {
  it("settles an unconfirmed send as sent on the recipient's receipt, before the receipt, once", async () => {
    const { sends, recorded, rows } = setUp({ m1: 'unconfirmed', m2: 'sent' });
    const first = receipt(['m1', 'm2']);
    expect(await sends.settle(INSTANCE, [first], FENCE)).toEqual([first]);
    expect(recorded).toEqual([
      {
        id: 'm1',
        outcome: { status: 'sent', from: 'unconfirmed' },
        events: [{ eventType: 'message_status', data: { id: 'm1', chatId: ANN, status: 'sent' } }],
        fence: FENCE,
      },
    ]);
    const read = receipt(['m1'], 'read');
    expect(await sends.settle(INSTANCE, [read], FENCE)).toEqual([read]);
    expect(recorded).toHaveLength(1);
    expect(rows).toEqual({ m1: 'sent', m2: 'sent' });
  });

  it("records a late ack of an unconfirmed send as its outcome, and drops a driver's sent for a send that is not unconfirmed", async () => {
    const { sends, recorded, rows } = setUp({ m1: 'unconfirmed', m2: 'sent' });
    const late = normalise.messageStatus({ id: 'm1', chatId: ANN, status: 'sent' });
    const stray = normalise.messageStatus({ id: 'm2', chatId: ANN, status: 'sent' });
    expect(await sends.settle(INSTANCE, [late, stray])).toEqual([]);
    expect(recorded.map(({ id, outcome, events }) => ({ id, outcome, events }))).toEqual([
      { id: 'm1', outcome: { status: 'sent', from: 'unconfirmed' }, events: [late] },
    ]);
    expect(rows).toEqual({ m1: 'sent', m2: 'sent' });
  });

  it('fails an unconfirmed send on a late refusal, with its code; a refusal of another message is left to be logged as before', async () => {
    const { sends, recorded, rows } = setUp({ m1: 'unconfirmed', m2: 'sent' });
    const refused = normalise.messageStatus({ id: 'm1', chatId: ANN, status: 'failed', error: 'refused by the network (479)', code: 479 });
    const other = normalise.messageStatus({ id: 'm2', chatId: ANN, status: 'failed', error: 'refused by the network (421)', code: 421 });
    expect(await sends.settle(INSTANCE, [refused, other])).toEqual([other]);
    expect(recorded.map(({ id, outcome }) => ({ id, outcome }))).toEqual([
      { id: 'm1', outcome: { status: 'failed', from: 'unconfirmed', error: 'refused by the network (479)' } },
    ]);
    expect(rows.m1).toBe('failed');
  });

  it('reads the unconfirmed sends once per connection, and not at all for batches that cannot settle one', async () => {
    const { sends, reads, recorded } = setUp({ m1: 'accepted' });
    const message = normalise.messageStatus({ id: 'x', chatId: ANN, status: 'failed', error: 'e' });
    await sends.settle(INSTANCE, [normalise.initialSyncFinished()]);
    expect(reads).toEqual([]);
    await sends.settle(INSTANCE, [message]);
    await sends.settle(INSTANCE, [receipt(['m1'])]);
    expect(reads).toEqual([INSTANCE]);
    // Recorded unconfirmed by the dispatcher meanwhile: known without another read.
    sends.noted(INSTANCE, 'm1');
    await new Promise((resolve) => setImmediate(resolve));
    await sends.settle(INSTANCE, [receipt(['m1'])]);
    expect(recorded).toEqual([]);
    expect(reads).toEqual([INSTANCE]);
    sends.forget(INSTANCE);
    await sends.settle(INSTANCE, [receipt(['m1'])]);
    expect(reads).toEqual([INSTANCE, INSTANCE]);
  });
});
