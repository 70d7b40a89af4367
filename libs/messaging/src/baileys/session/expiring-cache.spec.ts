import { ExpiringCache } from './expiring-cache';

describe('ExpiringCache', () => {
  it('forgets entries after their time to live', () => {
    let now = 1_000;
    const cache = new ExpiringCache(100, 10, () => now);
    cache.set('a', 1);
    now = 1_099;
    expect(cache.get('a')).toBe(1);
    now = 1_100;
    expect(cache.get('a')).toBeUndefined();
    expect(cache.size).toBe(0);
  });

  it('pushes out the entry written longest ago when full; writing again renews an entry', () => {
    const cache = new ExpiringCache(1_000, 2, () => 0);
    cache.set('a', 1);
    cache.set('b', 2);
    cache.set('a', 3);
    cache.set('c', 4);
    expect([cache.get('a'), cache.get('b'), cache.get('c')]).toEqual([3, undefined, 4]);
  });

  it('drops expired entries on any read or write, not only the one read', () => {
    let now = 0;
    const cache = new ExpiringCache(100, 10, () => now);
    cache.set('a', 1);
    cache.set('b', 2);
    now = 50;
    cache.set('c', 3);
    now = 100;
    // 'a' and 'b' expired; neither is read, yet a write of another key lets them go.
    cache.set('d', 4);
    expect(cache.size).toBe(2);
    now = 150;
    expect(cache.get('d')).toBe(4);
    expect(cache.size).toBe(1);
  });

  it('deletes and flushes', () => {
    const cache = new ExpiringCache(1_000, 10, () => 0);
    cache.set('a', 1);
    cache.set('b', null);
    cache.del('a');
    expect([cache.get('a'), cache.get('b')]).toEqual([undefined, null]);
    cache.flushAll();
    expect(cache.size).toBe(0);
  });
});
