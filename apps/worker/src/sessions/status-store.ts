import { Inject, Injectable } from '@nestjs/common';
import { APP_CONFIG, type AppConfig } from '@app/config';
import { liveStatusKey, type InstanceStatus, type LiveStatus } from '@app/contracts';
import { InstanceLifecycleRepository } from '@app/database';
import { RedisService } from '@app/redis';

/** Instance status transitions: persisted in PostgreSQL and mirrored in Redis for the API's fast reads. */
@Injectable()
export class StatusStore {
  constructor(
    @Inject(APP_CONFIG) private readonly config: AppConfig,
    private readonly instances: InstanceLifecycleRepository,
    private readonly redis: RedisService,
  ) {}

  async set(instanceId: string, status: InstanceStatus, deviceId: string | null): Promise<void> {
    await this.instances.setStatus(instanceId, status, deviceId);
    const live: LiveStatus = { status, deviceId, updatedAt: Date.now() };
    await this.redis.client.set(liveStatusKey(this.config.queuePrefix, instanceId), JSON.stringify(live));
  }

  async forget(instanceId: string): Promise<void> {
    await this.redis.client.del(liveStatusKey(this.config.queuePrefix, instanceId));
  }
}
