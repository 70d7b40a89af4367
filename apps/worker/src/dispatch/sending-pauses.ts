import { Inject, Injectable, Logger } from '@nestjs/common';
import { APP_CONFIG, type AppConfig } from '@app/config';
import { REDIS_VALUE_WIRE_VERSION, sendingPauseKey, type SendingPause } from '@app/contracts';
import { RedisService } from '@app/redis';

/** How long after its probe time a pause record outlives a worker that died before it could clear it. */
const STALE_AFTER_PROBE_MS = 10 * 60_000;

/** The instance's sends pause and resume as the API's status reads show it (`GET /session/status`, `sending`). */
@Injectable()
export class SendingPauses {
  private readonly logger = new Logger(SendingPauses.name);

  constructor(
    @Inject(APP_CONFIG) private readonly config: AppConfig,
    private readonly redis: RedisService,
  ) {}

  /** Best effort: the pause itself is the worker's (its breaker); this only shows it. */
  async paused(instanceId: string, pause: SendingPause): Promise<void> {
    const ttl = Math.max(1, pause.probeAt - Date.now()) + STALE_AFTER_PROBE_MS;
    try {
      await this.redis.client.set(
        sendingPauseKey(this.config.queuePrefix, instanceId),
        JSON.stringify({ v: REDIS_VALUE_WIRE_VERSION, ...pause }),
        'PX',
        ttl,
      );
    } catch (error) {
      this.logger.warn(`${instanceId}: the sending pause is not shown in its status: ${(error as Error).message}`);
    }
  }

  async resumed(instanceId: string): Promise<void> {
    try {
      await this.redis.client.del(sendingPauseKey(this.config.queuePrefix, instanceId));
    } catch (error) {
      this.logger.warn(`${instanceId}: the ended sending pause is still shown in its status: ${(error as Error).message}`);
    }
  }
}
