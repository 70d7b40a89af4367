import { Inject, Injectable } from '@nestjs/common';
import { APP_CONFIG, type AppConfig } from '@app/config';
import { AppError, liveStatusKey, type InstanceScope, type LiveStatus } from '@app/contracts';
import { InstanceRepository } from '@app/database';
import { RedisService } from '@app/redis';

/** The instance's current status: the owning worker's live copy in Redis, else what PostgreSQL last recorded. */
@Injectable()
export class LiveStatusReader {
  constructor(
    @Inject(APP_CONFIG) private readonly config: AppConfig,
    private readonly redis: RedisService,
    private readonly instances: InstanceRepository,
  ) {}

  async read(scope: InstanceScope): Promise<LiveStatus> {
    const cached = await this.redis.client.get(liveStatusKey(this.config.queuePrefix, scope.instanceId)).catch(() => null);
    if (cached) return JSON.parse(cached) as LiveStatus;
    const instance = await this.instances.find(scope, scope.instanceId);
    if (!instance) throw new AppError('not_found');
    return { status: instance.status, deviceId: instance.deviceId, updatedAt: Date.now() };
  }
}
