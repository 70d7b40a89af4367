import { createHash } from 'node:crypto';
import { Inject, Injectable } from '@nestjs/common';
import { RateLimiterMemory, RateLimiterRedis, RateLimiterRes } from 'rate-limiter-flexible';
import { APP_CONFIG, type AppConfig } from '@app/config';
import { AppError } from '@app/contracts';
import { RedisService } from '@app/redis';

function rateLimited(msBeforeNext: number, reason?: string): AppError {
  const seconds = Math.max(1, Math.ceil(msBeforeNext / 1000));
  // A person refused at sign-in needs the why and the until; an API client reads Retry-After.
  const until = new Date(Date.now() + seconds * 1000).toISOString();
  const detail = reason ? `rate limited: ${reason}; try again at ${until}` : undefined;
  return new AppError('rate_limited', detail, { 'Retry-After': String(seconds) });
}

/** How long this replica trusts "address not blocked" before asking Redis again. */
const CLEAR_ADDRESS_TTL_MS = 1_000;

interface Waiter {
  resolve: () => void;
  reject: (error: unknown) => void;
}

/** Per-key request limits and a per-address limit on failed authentications, shared by all replicas via Redis. */
@Injectable()
export class RateLimits {
  private readonly perKey: RateLimiterRedis;
  private readonly authFailures: RateLimiterRedis;
  private readonly signInFailures: RateLimiterRedis;
  /** Failed sign-ins per address, apart from failed keys: a broken integration behind a NAT must not lock people out. */
  private readonly signInAddressFailures: RateLimiterRedis;
  private readonly clearUntil = new Map<string, number>();
  private readonly addressChecks = new Map<string, Promise<RateLimiterRes | null>>();
  /** Per key: the requests waiting for their count, present while a count of that key is scheduled or on its way. */
  private readonly consumeLanes = new Map<string, Waiter[]>();

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
    this.signInAddressFailures = new RateLimiterRedis({
      storeClient: redis.client,
      keyPrefix: redis.key('rl', 'signinaddr'),
      points: authFailureLimit.limit,
      duration: authFailureLimit.windowSeconds,
      blockDuration: authFailureLimit.blockSeconds,
      insuranceLimiter: new RateLimiterMemory({ points: authFailureLimit.limit, duration: authFailureLimit.windowSeconds }),
    });
    const { signInFailureLimit, signInFailureWindowSeconds } = config.dashboard;
    this.signInFailures = new RateLimiterRedis({
      storeClient: redis.client,
      keyPrefix: redis.key('rl', 'signin'),
      points: signInFailureLimit,
      duration: signInFailureWindowSeconds,
      insuranceLimiter: new RateLimiterMemory({ points: signInFailureLimit, duration: signInFailureWindowSeconds }),
    });
  }

  /**
   * Throws 429 when the key used up its window. `keyId` is the key's hash, never the key. Requests of one key are
   * counted in batches, one Redis call of n points each: those that arrive in the same turn of the event loop, then
   * those that arrived while that call was on its way, and so on. A key has one call at a time, so under load it costs
   * one call per round trip rather than per request. The first ones up to the limit pass, exactly as n calls of one
   * point in arrival order would decide.
   */
  consumeRequest(keyId: string): Promise<void> {
    return new Promise<void>((resolve, reject) => {
      const waiting = this.consumeLanes.get(keyId);
      if (waiting) {
        waiting.push({ resolve, reject });
        return;
      }
      const lane = [{ resolve, reject }];
      this.consumeLanes.set(keyId, lane);
      setImmediate(() => void this.drainConsumes(keyId, lane));
    });
  }

  private async drainConsumes(keyId: string, lane: Waiter[]): Promise<void> {
    while (lane.length > 0) {
      const batch = lane.splice(0);
      // consumeFor settles every waiter itself; should it ever throw, none may be left hanging and the lane goes on.
      await this.consumeFor(keyId, batch).catch((error: unknown) => batch.forEach((waiter) => waiter.reject(error)));
    }
    this.consumeLanes.delete(keyId);
  }

  private async consumeFor(keyId: string, waiters: Waiter[]): Promise<void> {
    try {
      await this.perKey.consume(keyId, waiters.length);
      for (const waiter of waiters) waiter.resolve();
    } catch (rejection) {
      if (!(rejection instanceof RateLimiterRes)) {
        for (const waiter of waiters) waiter.reject(rejection);
        return;
      }
      // `consumedPoints` counts these requests too: the window had room for the first `room` of them. (A refusal that
      // did not count them, such as a block, leaves no room.)
      const counted = rejection.consumedPoints >= waiters.length;
      const room = counted ? this.config.rateLimit.requests - (rejection.consumedPoints - waiters.length) : 0;
      waiters.forEach((waiter, index) => (index < room ? waiter.resolve() : waiter.reject(rateLimited(rejection.msBeforeNext))));
    }
  }

  /** Throws 429 while an address is blocked for too many failed authentications. */
  async assertAddressNotBlocked(address: string): Promise<void> {
    if ((this.clearUntil.get(address) ?? 0) > Date.now()) return;
    // Requests that find the answer expired together share one lookup.
    let check = this.addressChecks.get(address);
    if (!check) {
      check = this.authFailures
        .get(address)
        .catch(() => null)
        .finally(() => this.addressChecks.delete(address));
      this.addressChecks.set(address, check);
    }
    const state = await check;
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

  /**
   * Dashboard sign-in: 429 while the address has used up its failed sign-ins or the email address its own. Failed API
   * keys count in another bucket and never refuse a sign-in. Checked before the password is, so a blocked guess costs
   * no hashing.
   */
  async assertSignInAllowed(address: string, email: string): Promise<void> {
    const byAddress = await this.signInAddressFailures.get(address).catch(() => null);
    if (byAddress && byAddress.consumedPoints > this.config.authFailureLimit.limit)
      throw rateLimited(byAddress.msBeforeNext, 'too many failed sign-ins from your address');
    const byEmail = await this.signInFailures.get(emailKey(email)).catch(() => null);
    if (byEmail && byEmail.consumedPoints >= this.config.dashboard.signInFailureLimit)
      throw rateLimited(byEmail.msBeforeNext, 'too many failed sign-ins for this email address');
  }

  /** A wrong password counts against the address's sign-ins and against the email address. */
  async recordSignInFailure(address: string, email: string): Promise<void> {
    const ignoreRefusal = (rejection: unknown) => {
      if (!(rejection instanceof RateLimiterRes)) throw rejection;
    };
    await this.signInAddressFailures.consume(address).catch(ignoreRefusal);
    await this.signInFailures.consume(emailKey(email)).catch(ignoreRefusal);
  }
}

/** Email addresses are not kept in Redis as they are. */
function emailKey(email: string): string {
  return createHash('sha256').update(email, 'utf8').digest('hex');
}
