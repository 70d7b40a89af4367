import fc from 'fast-check';
import type { AppConfig } from '@app/config';
import { AppError } from '@app/contracts';
import type { RedisService } from '@app/redis';
import { RateLimits } from './rate-limits';

/** The part of ioredis rate-limiter-flexible uses: its INCR-with-TTL script, counted per call. */
class FakeRedis {
  readonly counts = new Map<string, number>();
  calls = 0;
  down = false;

  defineCommand(): void {}

  rlflxIncr([key, points]: string[]): Promise<[number, number]> {
    this.calls += 1;
    if (this.down) return Promise.reject(new Error('connection is closed'));
    const count = (this.counts.get(key) ?? 0) + Number(points);
    this.counts.set(key, count);
    return new Promise((resolve) => setImmediate(() => resolve([count, 1_000])));
  }
}

function limitsWith(requests: number): { limits: RateLimits; redis: FakeRedis } {
  const redis = new FakeRedis();
  const config = {
    rateLimit: { requests, windowSeconds: 60 },
    authFailureLimit: { limit: 5, windowSeconds: 60, blockSeconds: 60 },
    dashboard: { signInFailureLimit: 5, signInFailureWindowSeconds: 60 },
  } as AppConfig;
  const service = { client: redis, key: (...parts: string[]) => parts.join(':') } as unknown as RedisService;
  return { limits: new RateLimits(config, service), redis };
}

async function outcomes(promises: Promise<void>[]): Promise<('ok' | number)[]> {
  const settled = await Promise.allSettled(promises);
  return settled.map((outcome) => {
    if (outcome.status === 'fulfilled') return 'ok';
    const error = outcome.reason as AppError;
    expect(error).toBeInstanceOf(AppError);
    expect(error.headers['Retry-After']).toMatch(/^\d+$/);
    return error.status;
  });
}

describe('RateLimits.consumeRequest', () => {
  it('counts the requests of one key that arrive together with one call, passing the first ones up to the limit', async () => {
    const { limits, redis } = limitsWith(5);
    expect(await outcomes(Array.from({ length: 8 }, () => limits.consumeRequest('k1')))).toEqual([
      'ok',
      'ok',
      'ok',
      'ok',
      'ok',
      429,
      429,
      429,
    ]);
    expect(redis.calls).toBe(1);
    expect(redis.counts.get('rl:key:k1')).toBe(8);
    expect(await outcomes([limits.consumeRequest('k1'), limits.consumeRequest('k2')])).toEqual([429, 'ok']);
  });

  it('counts the requests that arrive while a call of their key is on its way with one more call', async () => {
    const { limits, redis } = limitsWith(6);
    const incr = redis.rlflxIncr.bind(redis);
    // A slow Redis: each call takes 30 ms.
    redis.rlflxIncr = (args) => new Promise((resolve) => setTimeout(() => resolve(incr(args)), 30));
    const first = Array.from({ length: 3 }, () => limits.consumeRequest('k1'));
    await new Promise((resolve) => setTimeout(resolve, 5));
    const second = Array.from({ length: 2 }, () => limits.consumeRequest('k1'));
    await new Promise((resolve) => setImmediate(resolve));
    const third = Array.from({ length: 3 }, () => limits.consumeRequest('k1'));
    expect(await outcomes([...first, ...second, ...third])).toEqual(['ok', 'ok', 'ok', 'ok', 'ok', 'ok', 429, 429]);
    expect(redis.calls).toBe(2);
    expect(redis.counts.get('rl:key:k1')).toBe(8);
  });

  it('decides exactly as one call per request would, whatever the arrival pattern', async () => {
    const arrivals = fc.array(fc.array(fc.constantFrom('a', 'b'), { minLength: 1, maxLength: 10 }), { minLength: 1, maxLength: 6 });
    await fc.assert(
      fc.asyncProperty(fc.integer({ min: 1, max: 12 }), arrivals, async (limit, waves) => {
        const { limits, redis } = limitsWith(limit);
        const used = new Map<string, number>();
        for (const wave of waves) {
          const expected = wave.map((key) => {
            used.set(key, (used.get(key) ?? 0) + 1);
            return (used.get(key) ?? 0) <= limit ? 'ok' : 429;
          });
          expect(await outcomes(wave.map((key) => limits.consumeRequest(key)))).toEqual(expected);
        }
        expect(redis.calls).toBeLessThanOrEqual(waves.length * 2);
      }),
      { numRuns: 200 },
    );
  });

  it('falls back to limiting in memory while Redis is unreachable', async () => {
    const { limits, redis } = limitsWith(3);
    redis.down = true;
    expect(await outcomes(Array.from({ length: 5 }, () => limits.consumeRequest('k1')))).toEqual(['ok', 'ok', 'ok', 429, 429]);
  });
});
