import fc from 'fast-check';
import { DEFAULT_WEBHOOK_RETRY_SCHEDULE } from '@app/config';
import { retryAfterMs, verdict } from './retry-policy';

describe('webhook retry policy', () => {
  const schedule = DEFAULT_WEBHOOK_RETRY_SCHEDULE;
  const middle = () => 0.5;

  it('delivers on any 2xx and stops the URL on 410', () => {
    for (const status of [200, 201, 202, 204, 299]) expect(verdict(status, undefined, 0, schedule)).toEqual({ kind: 'delivered' });
    expect(verdict(410, undefined, 3, schedule)).toEqual({ kind: 'gone' });
  });

  it('retries redirects, errors and silence on the schedule: at once, 5 s, 5 min, 30 min, 2 h, 5 h, 10 h, 14 h, 20 h, 24 h', () => {
    const delays = schedule.map((_, step) => verdict(step % 2 ? 302 : null, undefined, step, schedule, middle));
    expect(delays).toEqual(
      [0, 5, 300, 1800, 7200, 18_000, 36_000, 50_400, 72_000, 86_400].map((seconds) => ({ kind: 'retry', delayMs: seconds * 1000 })),
    );
    expect(verdict(500, undefined, schedule.length, schedule)).toEqual({ kind: 'exhausted' });
  });

  it('keeps every delay within ±15 % of the schedule', () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 0, max: schedule.length - 1 }),
        fc.double({ min: 0, max: 1, maxExcluded: true, noNaN: true }),
        (step, r) => {
          const result = verdict(500, undefined, step, schedule, () => r);
          const base = schedule[step] * 1000;
          return result.kind === 'retry' && result.delayMs >= Math.floor(base * 0.85) && result.delayMs <= Math.ceil(base * 1.15);
        },
      ),
    );
  });

  it('honours Retry-After on 429 and 503 only', () => {
    expect(verdict(429, 7_000, 1, schedule, middle)).toEqual({ kind: 'retry', delayMs: 7_000 });
    expect(verdict(503, 60_000, 0, schedule, middle)).toEqual({ kind: 'retry', delayMs: 60_000 });
    expect(verdict(500, 60_000, 1, schedule, middle)).toEqual({ kind: 'retry', delayMs: 5_000 });
    expect(verdict(429, 7_000, schedule.length, schedule)).toEqual({ kind: 'exhausted' });
  });

  it('reads Retry-After as seconds or an HTTP date, capped at a day', () => {
    const now = Date.parse('2026-11-22T10:00:00Z');
    expect(retryAfterMs('120', now)).toBe(120_000);
    expect(retryAfterMs('Sun, 22 Nov 2026 10:00:30 GMT', now)).toBe(30_000);
    expect(retryAfterMs('Sun, 22 Nov 2026 09:00:00 GMT', now)).toBe(0);
    expect(retryAfterMs('999999999', now)).toBe(24 * 3600 * 1000);
    expect(retryAfterMs('soon', now)).toBeUndefined();
    expect(retryAfterMs(undefined, now)).toBeUndefined();
  });
});
