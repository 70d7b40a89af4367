import { Inject, Injectable } from '@nestjs/common';
import { APP_CONFIG, type AppConfig } from '@app/config';
import { REDIS_VALUE_WIRE_VERSION, liveStatusKey, type InstanceStatus, type LiveStatus } from '@app/contracts';
import { InstanceLifecycleRepository, type Fence } from '@app/database';
import { RedisService } from '@app/redis';

/**
 * Replaces the live copy unless the one stored was written under a newer fencing token (tokens only grow, over all
 * shards): a worker whose PostgreSQL write passed its fence just before the lease moved cannot overwrite, in Redis, the
 * status the next owner wrote since. A copy without a token (older builds) is replaced.
 */
const SET_UNLESS_NEWER = `
local current = redis.call('GET', KEYS[1])
if current then
  local ok, stored = pcall(cjson.decode, current)
  if ok and type(stored) == 'table' and type(stored.token) == 'number' and stored.token > tonumber(ARGV[2]) then return 0 end
end
redis.call('SET', KEYS[1], ARGV[1])
return 1
`;

/** Instance status transitions: persisted in PostgreSQL and mirrored in Redis for the API's fast reads. */
@Injectable()
export class StatusStore {
  constructor(
    @Inject(APP_CONFIG) private readonly config: AppConfig,
    private readonly instances: InstanceLifecycleRepository,
    private readonly redis: RedisService,
  ) {}

  /**
   * Under the shard lease `fence`: PostgreSQL refuses the write once the lease has passed on (FencedOutError, and Redis
   * is left alone), so only the current owner's sessions say whether the instance is connected.
   */
  async set(
    instanceId: string,
    status: InstanceStatus,
    deviceId: string | null,
    fence: Fence,
    reason: string | null = null,
  ): Promise<void> {
    await this.instances.setStatus(instanceId, status, deviceId, fence, reason);
    const live: LiveStatus = { status, deviceId, updatedAt: Date.now(), token: fence.token, ...(reason ? { reason } : {}) };
    await this.redis.client.eval(
      SET_UNLESS_NEWER,
      1,
      liveStatusKey(this.config.queuePrefix, instanceId),
      JSON.stringify({ v: REDIS_VALUE_WIRE_VERSION, ...live }),
      fence.token,
    );
  }

  async forget(instanceId: string): Promise<void> {
    await this.redis.client.del(liveStatusKey(this.config.queuePrefix, instanceId));
  }
}
