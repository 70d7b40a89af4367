import { SendBreaker } from './send-breaker';

describe('SendBreaker', () => {
  function breaker() {
    let now = 1_000_000;
    const refusals: number[] = [];
    const subject = new SendBreaker(
      { refusals: 3, windowSeconds: 60, coolDownSeconds: 10 },
      () => now,
      (code) => refusals.push(code),
    );
    return { subject, refusals, advance: (ms: number) => (now += ms), now: () => now };
  }

  it('opens after the third 463/479 within the window, and only then', () => {
    const { subject, advance, now } = breaker();
    expect(subject.refused('i', 463)).toBeUndefined();
    advance(1_000);
    expect(subject.refused('i', 479)).toBeUndefined();
    expect(subject.permit('i')).toEqual({ allowed: true });
    expect(subject.refused('i', 463)).toEqual({ change: 'opened', code: 463, refusals: 3, until: now() + 10_000 });
    expect(subject.permit('i')).toEqual({ allowed: false, until: now() + 10_000 });
    expect(subject.permit('other')).toEqual({ allowed: true });
  });

  it('does not count refusals older than the window, nor other codes (421), and successes in between clear nothing', () => {
    const { subject, refusals, advance } = breaker();
    subject.refused('i', 463);
    advance(61_000);
    subject.refused('i', 463);
    expect(subject.refused('i', 421)).toBeUndefined();
    expect(subject.taken('i')).toBeUndefined();
    expect(subject.refused('i', 463)).toBeUndefined();
    expect(subject.refused('i', 463)).toMatchObject({ change: 'opened', refusals: 3 });
    expect(refusals).toEqual([463, 463, 421, 463, 463]);
  });

  it('half-open after the cool-down: one probe; refused, open twice as long; taken, closed and forgotten', () => {
    const { subject, advance, now } = breaker();
    for (let i = 0; i < 3; i += 1) subject.refused('i', 463);
    advance(10_000);
    expect(subject.permit('i')).toEqual({ allowed: true });
    expect(subject.state('i')).toEqual({ state: 'half-open', code: 463 });
    expect(subject.paused()).toBe(1);
    expect(subject.refused('i', 463)).toEqual({ change: 'opened', code: 463, refusals: 4, until: now() + 20_000 });
    advance(20_000);
    expect(subject.permit('i')).toEqual({ allowed: true });
    expect(subject.taken('i')).toEqual({ change: 'closed' });
    expect(subject.state('i')).toEqual({ state: 'closed' });
    expect(subject.paused()).toBe(0);
    expect(subject.refused('i', 463)).toBeUndefined();
  });

  it('never waits more than 16 cool-downs however often the probe is refused', () => {
    const { subject, advance, now } = breaker();
    for (let i = 0; i < 3; i += 1) subject.refused('i', 479);
    const waits: number[] = [];
    for (let probe = 0; probe < 6; probe += 1) {
      advance(1_000_000);
      subject.permit('i');
      const change = subject.refused('i', 479);
      if (change?.change === 'opened') waits.push(change.until - now());
    }
    expect(waits).toEqual([20_000, 40_000, 80_000, 160_000, 160_000, 160_000]);
  });
});
