import { UrlSlots } from './url-slots';

describe('UrlSlots', () => {
  it('lets at most `limit` deliveries run per receiver, independently of other receivers', () => {
    const slots = new UrlSlots(2);
    const a1 = slots.tryAcquire('https://a.example/hook?x=1');
    const a2 = slots.tryAcquire('https://a.example/hook?x=2');
    expect(a1).not.toBeNull();
    expect(a2).not.toBeNull();
    expect(slots.tryAcquire('https://a.example/hook')).toBeNull();
    expect(slots.tryAcquire('https://b.example/hook')).not.toBeNull();
    a1?.();
    a1?.();
    expect(slots.inUse('https://a.example/hook')).toBe(1);
    expect(slots.total).toBe(2);
    expect(slots.tryAcquire('https://a.example/hook')).not.toBeNull();
    expect(slots.tryAcquire('https://a.example/hook')).toBeNull();
  });
});

describe('UrlSlots.acquire', () => {
  beforeEach(() => jest.useFakeTimers());
  afterEach(() => jest.useRealTimers());

  it('hands a freed slot to the first waiter, lets at most `limit` wait, and gives up after the wait', async () => {
    const slots = new UrlSlots(1);
    const first = await slots.acquire('https://a.example/hook', 100);
    expect(first).not.toBeNull();
    const waiting = slots.acquire('https://a.example/hook', 100);
    await expect(slots.acquire('https://a.example/hook', 100)).resolves.toBeNull();
    first?.();
    const second = await waiting;
    expect(second).not.toBeNull();
    expect(slots.inUse('https://a.example/hook')).toBe(1);
    expect(slots.total).toBe(1);
    const late = slots.acquire('https://a.example/hook', 100);
    jest.advanceTimersByTime(100);
    await expect(late).resolves.toBeNull();
    second?.();
    expect(slots.inUse('https://a.example/hook')).toBe(0);
    expect(slots.total).toBe(0);
    expect(await slots.acquire('https://a.example/hook', 100)).not.toBeNull();
  });
});
