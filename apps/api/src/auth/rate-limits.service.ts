import { Inject, Injectable } from '@nestjs/common';
import { RateLimiterMemory, RateLimiterRedis, RateLimiterRes } from 'rate-limiter-flexible';
import { APP_CONFIG, type AppConfig } from '@app/config';
import { AppError } from '@app/contracts';
import { RedisService } from '@app/redis';

function rateLimited(msBeforeNext: number): AppError {
  return new AppError('rate_limited', undefined, { 'Retry-After': String(Math.max(1, Math.ceil(msBeforeNext / 1000))) });
}

/** Per-key request limits and a per-address limit on failed authentications, shared by all replicas via Redis. */
/** How long this replica trusts "address not blocked" before asking Redis again. */
const CLEAR_ADDRESS_TTL_MS = 1_000;

@Injectable()
export class RateLimits {
  private readonly perKey: RateLimiterRedis;
  private readonly authFailures: RateLimiterRedis;
  private readonly clearUntil = new Map<string, number>();

  constructor(
    @Inject(APP_CONFIG) private readonly config: AppConfig,
    redis: RedisService,
  ) {
    const { rateLimit, authFailureLimit } = config;
    this.perKey = new RateLimiterRedis({
      storeClient: redis.client,
      keyPrefix: redis.key('rl', 'key'),
      points: rateLimit.requests,
      duration: rateLimit.windowSeconds,
      // While Redis is unreachable each replica still limits on its own rather than failing every request.
      insuranceLimiter: new RateLimiterMemory({ points: rateLimit.requests, duration: rateLimit.windowSeconds }),
    });
    this.authFailures = new RateLimiterRedis({
      storeClient: redis.client,
      keyPrefix: redis.key('rl', 'authfail'),
      points: authFailureLimit.limit,
      duration: authFailureLimit.windowSeconds,
      blockDuration: authFailureLimit.blockSeconds,
      insuranceLimiter: new RateLimiterMemory({ points: authFailureLimit.limit, duration: authFailureLimit.windowSeconds }),
    });
  }

  /** Throws 429 when the key used up its window. `keyId` is the key's hash, never the key. */
  async consumeRequest(keyId: string): Promise<void> {
    try {
      await this.perKey.consume(keyId);
    } catch (rejection) {
      if (rejection instanceof RateLimiterRes) throw rateLimited(rejection.msBeforeNext);
      throw rejection;
    }
  }

  /** Throws 429 while an address is blocked for too many failed authentications. */
  async assertAddressNotBlocked(address: string): Promise<void> {
    if ((this.clearUntil.get(address) ?? 0) > Date.now()) return;
    const state = await this.authFailures.get(address).catch(() => null);
    if (state && state.consumedPoints > this.config.authFailureLimit.limit) throw rateLimited(state.msBeforeNext);
    if (this.clearUntil.size > 100_000) this.clearUntil.clear();
    this.clearUntil.set(address, Date.now() + CLEAR_ADDRESS_TTL_MS);
  }

  async recordAuthFailure(address: string): Promise<void> {
    this.clearUntil.delete(address);
    await this.authFailures.consume(address).catch((rejection: unknown) => {
      if (!(rejection instanceof RateLimiterRes)) throw rejection;
    });
  }
}
