import { SignalKeyCache } from './signal-key-cache';

describe('SignalKeyCache', () => {
  it('keeps sessions and other keys, never one-time pre-keys (read from the store instead)', () => {
    const cache = new SignalKeyCache(1_000, 10, () => 0);
    cache.set('session.447700900123.0', 'session record');
    cache.set('pre-key.1', { public: 'a', private: 'b' });
    cache.set('pre-key.2', null);
    expect(cache.get('session.447700900123.0')).toBe('session record');
    expect([cache.get('pre-key.1'), cache.get('pre-key.2')]).toEqual([undefined, undefined]);
    expect(cache.size).toBe(1);
  });
});
