import { FLAP_WINDOW_MS, FlapCounter } from './session-metrics';

describe('FlapCounter', () => {
  it('counts instances with three drops inside the window, and forgets drops once they leave it', () => {
    let clock = 1_000_000;
    const counter = new FlapCounter(() => clock);
    const seen: number[] = [];
    for (const instanceId of ['a', 'a', 'b', 'a', 'b']) {
      counter.dropped(instanceId);
      clock += 1_000;
    }
    seen.push(counter.flapping());
    counter.dropped('b');
    seen.push(counter.flapping());
    clock += FLAP_WINDOW_MS;
    seen.push(counter.flapping());
    expect(seen).toEqual([1, 2, 0]);
  });
});
