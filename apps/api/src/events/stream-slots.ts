import { randomUUID } from 'node:crypto';
import { Injectable } from '@nestjs/common';
import { RedisService } from '@app/redis';

/** A stream's claim lapses unless renewed within this time, so a replica that died frees its slots by itself. */
export const STREAM_SLOT_TTL_MS = 60_000;

// KEYS[1] the instance's slot set; ARGV: now, expiry, limit, member. Expired claims go first, then room is checked
// and the claim added in one step, so replicas opening streams at the same moment cannot overshoot the limit.
const ACQUIRE = `
redis.call('ZREMRANGEBYSCORE', KEYS[1], '-inf', ARGV[1])
if redis.call('ZCARD', KEYS[1]) >= tonumber(ARGV[3]) then return 0 end
redis.call('ZADD', KEYS[1], ARGV[2], ARGV[4])
redis.call('PEXPIRE', KEYS[1], ${STREAM_SLOT_TTL_MS})
return 1`;

export interface StreamSlot {
  /** Keeps the claim alive; call well within STREAM_SLOT_TTL_MS. */
  renew(): Promise<void>;
  release(): Promise<void>;
}

/** Open event streams per instance, counted over every API replica in Redis (`MAX_STREAMS_PER_INSTANCE`). */
@Injectable()
export class StreamSlots {
  constructor(private readonly redis: RedisService) {}

  /** A slot, or null when the instance already has `limit` open streams. */
  async acquire(instanceId: string, limit: number): Promise<StreamSlot | null> {
    const key = this.redis.key('streams', instanceId);
    const member = randomUUID();
    const now = Date.now();
    const granted = await this.redis.client.eval(ACQUIRE, 1, key, now, now + STREAM_SLOT_TTL_MS, limit, member);
    if (granted !== 1) return null;
    return {
      renew: async () => {
        await this.redis.client.zadd(key, 'XX', Date.now() + STREAM_SLOT_TTL_MS, member);
        await this.redis.client.pexpire(key, STREAM_SLOT_TTL_MS);
      },
      release: async () => {
        await this.redis.client.zrem(key, member);
      },
    };
  }
}
