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
    expect(slots.tryAcquire('https://a.example/hook')).not.toBeNull();
    expect(slots.tryAcquire('https://a.example/hook')).toBeNull();
  });
});
