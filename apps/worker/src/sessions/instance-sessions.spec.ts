import { reconnectDelay } from './instance-sessions.service';

describe('reconnectDelay', () => {
  it('doubles from half a second up to 30 seconds', () => {
    const middle = () => 0.5;
    expect([0, 1, 2, 3, 4, 5, 6, 7, 10].map((failures) => reconnectDelay(failures, middle))).toEqual([
      500, 1000, 2000, 4000, 8000, 16000, 30000, 30000, 30000,
    ]);
  });

  it('spreads retries by ±20 % so instances do not reconnect in lockstep', () => {
    expect(reconnectDelay(3, () => 0)).toBe(3200);
    expect(reconnectDelay(3, () => 0.999999)).toBe(4800);
  });
});
