import { InstanceListCache } from './instance-list-cache';

describe('InstanceListCache', () => {
  const key = (customerId: string, pageNumber = 1, status?: string) =>
    InstanceListCache.keyOf({ customerId, status, pageNumber, pageSize: 20 });

  it('keeps one page per customer and query, with the version it was read at', () => {
    const cache = new InstanceListCache(1_000);
    cache.store(key('cus_a'), '3', '{"a":1}');
    cache.store(key('cus_a', 2), '3', '{"a":2}');
    cache.store(key('cus_a', 1, 'connected'), '3', '{"a":3}');
    cache.store(key('cus_b'), '7', '{"b":1}');

    expect(cache.peek(key('cus_a'))).toEqual({ version: '3', body: '{"a":1}' });
    expect(cache.peek(key('cus_a', 2))).toEqual({ version: '3', body: '{"a":2}' });
    expect(cache.peek(key('cus_a', 1, 'connected'))).toEqual({ version: '3', body: '{"a":3}' });
    expect(cache.peek(key('cus_b'))).toEqual({ version: '7', body: '{"b":1}' });
    expect(cache.peek(key('cus_c'))).toBeUndefined();
    expect(cache.heldSize).toBe(28);
  });

  it('replaces a page read again, counting only the new body', () => {
    const cache = new InstanceListCache(1_000);
    cache.store(key('cus_a'), '3', 'x'.repeat(100));
    cache.store(key('cus_a'), '4', 'y'.repeat(10));
    expect(cache.peek(key('cus_a'))).toEqual({ version: '4', body: 'y'.repeat(10) });
    expect(cache.heldSize).toBe(10);
  });

  it('drops the oldest pages when the budget is full, and never holds a page larger than the budget', () => {
    const cache = new InstanceListCache(250);
    cache.store(key('cus_a'), '1', 'a'.repeat(100));
    cache.store(key('cus_b'), '1', 'b'.repeat(100));
    cache.store(key('cus_c'), '1', 'c'.repeat(100));
    expect([cache.peek(key('cus_a')), cache.peek(key('cus_b'))?.body.length, cache.peek(key('cus_c'))?.body.length]).toEqual([
      undefined,
      100,
      100,
    ]);
    expect(cache.heldSize).toBe(200);

    cache.store(key('cus_d'), '1', 'd'.repeat(251));
    expect(cache.peek(key('cus_d'))).toBeUndefined();
    expect(cache.heldSize).toBe(200);
    // A page too large to keep still removes the older version of itself.
    cache.store(key('cus_b'), '2', 'b'.repeat(251));
    expect(cache.peek(key('cus_b'))).toBeUndefined();
    expect(cache.heldSize).toBe(100);
  });

  it('holds nothing with a budget of 0', () => {
    const cache = new InstanceListCache(0);
    cache.store(key('cus_a'), '1', '{}');
    expect(cache.peek(key('cus_a'))).toBeUndefined();
    expect(cache.heldSize).toBe(0);
  });
});
