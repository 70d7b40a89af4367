import type { NormalisedEvent } from '@app/contracts';
import { UndecryptableWatch, type FailedCopy, type UndecryptableOutcome } from './undecryptable-watch';

const ANN = { jid: '447700900123@s.whatsapp.net', lid: '123456789012345@lid', isMe: false };
const copy = (id: string, reason = 'Bad MAC'): FailedCopy => ({
  id,
  chatId: ANN.jid,
  sender: ANN,
  time: new Date('2026-11-27T20:00:00.000Z'),
  reason,
});
const event = (id: string, attempts: number, reason = 'Bad MAC') => ({
  eventType: 'message_undecryptable',
  data: {
    id,
    chatId: ANN.jid,
    sender: { id: ANN.jid, lid: ANN.lid, phone: '447700900123', isMe: false },
    isGroup: false,
    time: '2026-11-27T20:00:00.000Z',
    reason,
    attempts,
  },
});

describe('UndecryptableWatch', () => {
  let events: NormalisedEvent[];
  let outcomes: UndecryptableOutcome[];
  let watch: UndecryptableWatch;

  beforeEach(() => {
    jest.useFakeTimers();
    events = [];
    outcomes = [];
    watch = new UndecryptableWatch({
      finalAfterMs: 60_000,
      maxFailedCopies: 6,
      maxWatched: 2,
      emit: (each) => events.push(each),
      observe: (outcome) => outcomes.push(outcome),
    });
  });

  afterEach(() => jest.useRealTimers());

  it('reports a failure once no decryptable copy came within the wait after the last failed one', () => {
    watch.failed(copy('A'));
    jest.advanceTimersByTime(50_000);
    watch.failed(copy('A', 'No matching sessions found for message'));
    jest.advanceTimersByTime(59_999);
    expect(events).toEqual([]);
    jest.advanceTimersByTime(1);
    expect(events).toEqual([event('A', 2, 'No matching sessions found for message')]);
    expect(outcomes).toEqual(['reported']);
  });

  it('reports nothing when a decryptable copy arrives in time, and counts it recovered', () => {
    watch.failed(copy('A'));
    watch.decrypted('A');
    jest.advanceTimersByTime(120_000);
    expect(events).toEqual([]);
    expect(outcomes).toEqual(['recovered']);
    watch.decrypted('B');
    expect(outcomes).toEqual(['recovered']);
  });

  it('reports at once when the copies Baileys asks for are spent', () => {
    for (let n = 0; n < 6; n += 1) watch.failed(copy('A'));
    expect(events).toEqual([event('A', 6)]);
  });

  it('reports the oldest at once rather than dropping it when full, and everything when the session ends', () => {
    watch.failed(copy('A'));
    watch.failed(copy('B'));
    watch.failed(copy('C'));
    expect(events).toEqual([event('A', 1)]);
    watch.flush();
    expect(events).toEqual([event('A', 1), event('B', 1), event('C', 1)]);
    jest.advanceTimersByTime(120_000);
    expect(events).toHaveLength(3);
  });

  it('forgets without a report when the device is gone', () => {
    watch.failed(copy('A'));
    watch.clear();
    jest.advanceTimersByTime(120_000);
    expect(events).toEqual([]);
  });
});
