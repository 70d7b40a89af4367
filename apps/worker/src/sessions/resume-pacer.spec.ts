import { ResumePacer, type ResumeItem } from './resume-pacer';

/** Items whose opens are recorded with the (fake) time they started at. */
function recorder() {
  const opened: { id: string; at: number }[] = [];
  const item = (instanceId: string, shard: number, lastConnectedAt: number | null): ResumeItem => ({
    instanceId,
    shard,
    lastConnectedAt,
    open: () => {
      opened.push({ id: instanceId, at: Date.now() });
      return Promise.resolve();
    },
  });
  return { opened, item };
}

describe('ResumePacer', () => {
  let start: number;

  beforeEach(() => {
    jest.useFakeTimers();
    start = Date.now();
  });

  afterEach(() => jest.useRealTimers());

  it('opens at the configured rate, exactly one per slot, never faster', () => {
    const { opened, item } = recorder();
    const pacer = new ResumePacer({ ratePerSecond: 50, random: () => 0 });
    pacer.enqueue(Array.from({ length: 200 }, (_, n) => item(`ins_${n}`, n % 4, n)));
    jest.advanceTimersByTime(999);
    // Slots of 20 ms starting now, each open at its slot's start with this random: 0, 20, …, 980 ms.
    expect(opened).toHaveLength(50);
    expect(opened.map(({ at }) => at - start)).toEqual(Array.from({ length: 50 }, (_, n) => n * 20));
    jest.advanceTimersByTime(3_001);
    expect(opened).toHaveLength(200);
    expect(pacer.progress()).toEqual({ pending: 0, resumed: 200, total: 200 });
  });

  it('puts each open at a random point of its own slot, so no window of a second holds more than rate + 1', () => {
    const { opened, item } = recorder();
    const draws = [0.999, 0, 0.5, 0.999, 0, 0.25];
    let draw = 0;
    const pacer = new ResumePacer({ ratePerSecond: 10, random: () => draws[draw++ % draws.length] });
    pacer.enqueue(Array.from({ length: 60 }, (_, n) => item(`ins_${n}`, 0, n)));
    jest.advanceTimersByTime(6_100);
    expect(opened).toHaveLength(60);
    const offsets = opened.map(({ at }) => at - start);
    // Slot k is [100k, 100k + 100): every open falls inside its own slot, at the drawn point (rounded by the timer).
    offsets.forEach((offset, k) => {
      expect(offset).toBeGreaterThanOrEqual(100 * k);
      expect(offset).toBeLessThan(100 * (k + 1));
      expect(Math.abs(offset - (100 * k + 100 * draws[k % draws.length]))).toBeLessThanOrEqual(1);
    });
    // The gaps really vary (jitter): from nearly nothing (0.999 then 0) to nearly two slots (0.25 then 0.999).
    const gaps = offsets.slice(1).map((offset, k) => offset - offsets[k]);
    expect(Math.min(...gaps)).toBeLessThanOrEqual(1);
    expect(Math.max(...gaps)).toBeGreaterThanOrEqual(174);
    const busiest = Math.max(...offsets.map((from) => offsets.filter((at) => at >= from && at < from + 1000).length));
    expect(busiest).toBeLessThanOrEqual(11);
  });

  it('opens the oldest-connected first across every shard queued, unknown last; equal ones in the order queued', () => {
    const { opened, item } = recorder();
    const pacer = new ResumePacer({ ratePerSecond: 100, random: () => 0.5 });
    pacer.enqueue([item('s1_new', 1, 5_000), item('s1_never', 1, null), item('s1_old', 1, 1_000)]);
    pacer.enqueue([item('s2_mid', 2, 3_000), item('s2_oldest', 2, 500), item('s2_never', 2, null), item('s2_tie', 2, 3_000)]);
    jest.advanceTimersByTime(1_000);
    expect(opened.map(({ id }) => id)).toEqual(['s2_oldest', 's1_old', 's2_mid', 's2_tie', 's1_new', 's1_never', 's2_never']);
  });

  it('drops the waiting opens of a lost shard at once and keeps pacing the others', () => {
    const { opened, item } = recorder();
    const pacer = new ResumePacer({ ratePerSecond: 10, random: () => 0 });
    pacer.enqueue(Array.from({ length: 10 }, (_, n) => item(`a_${n}`, 1, n * 2)));
    pacer.enqueue(Array.from({ length: 10 }, (_, n) => item(`b_${n}`, 2, n * 2 + 1)));
    jest.advanceTimersByTime(350);
    expect(opened.map(({ id }) => id)).toEqual(['a_0', 'b_0', 'a_1', 'b_1']);
    expect(pacer.progress()).toEqual({ pending: 16, resumed: 4, total: 20 });
    expect(pacer.cancelShard(1)).toBe(8);
    expect(pacer.progress()).toEqual({ pending: 8, resumed: 4, total: 12 });
    expect(pacer.isWaiting('a_5')).toBe(false);
    jest.advanceTimersByTime(10_000);
    expect(opened.map(({ id }) => id)).toEqual(['a_0', 'b_0', 'a_1', 'b_1', ...Array.from({ length: 8 }, (_, n) => `b_${n + 2}`)]);
    expect(pacer.progress()).toEqual({ pending: 0, resumed: 12, total: 12 });
  });

  it('stops at once when everything is cancelled, and starts a new wave (and its count) with the next takeover', () => {
    const { opened, item } = recorder();
    const pacer = new ResumePacer({ ratePerSecond: 10, random: () => 0 });
    pacer.enqueue([item('a', 1, 1), item('b', 1, 2), item('c', 2, 3)]);
    jest.advanceTimersByTime(50);
    expect(pacer.cancel('b')).toBe(true);
    expect(pacer.cancel('b')).toBe(false);
    pacer.cancelAll();
    expect(pacer.progress()).toEqual({ pending: 0, resumed: 1, total: 1 });
    expect(jest.getTimerCount()).toBe(0);
    jest.advanceTimersByTime(10_000);
    expect(opened.map(({ id }) => id)).toEqual(['a']);

    pacer.enqueue([item('d', 3, 4), item('d', 3, 4)]);
    expect(pacer.progress()).toEqual({ pending: 1, resumed: 0, total: 1 });
    jest.advanceTimersByTime(100);
    expect(opened.map(({ id }) => id)).toEqual(['a', 'd']);
  });

  it('makes up no missed slots after a stall, reports a failed open and goes on', async () => {
    const errors: string[] = [];
    let resumed = 0;
    const pacer = new ResumePacer({
      ratePerSecond: 10,
      random: () => 0,
      onResumed: () => (resumed += 1),
      onError: (id, error) => errors.push(`${id}: ${error.message}`),
    });
    const opened: number[] = [];
    pacer.enqueue(
      Array.from({ length: 5 }, (_, n) => ({
        instanceId: `ins_${n}`,
        shard: 0,
        lastConnectedAt: n,
        open: () => {
          opened.push(Date.now() - start);
          return n === 1 ? Promise.reject(new Error('handshake failed')) : Promise.resolve();
        },
      })),
    );
    jest.advanceTimersByTime(0);
    // The clock jumps 2 s while the timer cannot run (a stalled event loop): one open then, the next a slot later.
    jest.setSystemTime(start + 2_000);
    jest.advanceTimersByTime(100);
    jest.advanceTimersByTime(100);
    await Promise.resolve();
    expect(opened.slice(0, 2)).toEqual([0, 2_100]);
    expect(opened[2] - opened[1]).toBe(100);
    jest.advanceTimersByTime(1_000);
    await Promise.resolve();
    expect(opened).toHaveLength(5);
    expect(resumed).toBe(5);
    expect(errors).toEqual(['ins_1: handshake failed']);
  });

  it('refuses a rate that is not above zero', () => {
    expect(() => new ResumePacer({ ratePerSecond: 0 })).toThrow('the resume rate must be above 0');
  });
});
