import { Inject, Injectable, Logger, type OnApplicationBootstrap, type OnModuleDestroy } from '@nestjs/common';
import { APP_CONFIG, type AppConfig } from '@app/config';
import { REDIS_VALUE_WIRE_VERSION, workerResumeKey, type WorkerResumeProgress } from '@app/contracts';
import { RedisService } from '@app/redis';
import { ShardCoordinator } from '../shards/shard-coordinator';
import { ResumePacer } from './resume-pacer';

/** How often the progress is looked at; a change is published within this long. */
const PUBLISH_EVERY_MS = 1_000;
/** An unchanged progress is written again this often, so its key outlives it only briefly when the worker dies. */
const REFRESH_EVERY_MS = 5_000;
const KEY_TTL_MS = 15_000;

/**
 * Publishes this worker's resume progress in Redis, beside the shard leases the operator overview reads, so the
 * overview shows each worker's "resuming 420 of 2,000" without asking the worker.
 */
@Injectable()
export class ResumeProgressPublisher implements OnApplicationBootstrap, OnModuleDestroy {
  private readonly logger = new Logger(ResumeProgressPublisher.name);
  private timer: NodeJS.Timeout | undefined;
  private published = '';
  private publishedAt = 0;
  private writing = false;

  constructor(
    @Inject(APP_CONFIG) private readonly config: AppConfig,
    private readonly redis: RedisService,
    private readonly coordinator: ShardCoordinator,
    private readonly pacer: ResumePacer,
  ) {}

  onApplicationBootstrap(): void {
    this.timer = setInterval(() => void this.publish(), PUBLISH_EVERY_MS);
    this.timer.unref();
  }

  /** Stops before the Redis connections close (no warning for a write that could not happen any more). */
  onModuleDestroy(): void {
    if (this.timer) clearInterval(this.timer);
    this.timer = undefined;
  }

  private async publish(): Promise<void> {
    if (this.writing || !this.timer) return;
    const progress: WorkerResumeProgress = this.pacer.progress();
    const value = JSON.stringify({ v: REDIS_VALUE_WIRE_VERSION, ...progress });
    if (value === this.published && Date.now() - this.publishedAt < REFRESH_EVERY_MS) return;
    this.writing = true;
    try {
      await this.redis.client.set(workerResumeKey(this.config.queuePrefix, this.coordinator.workerId), value, 'PX', KEY_TTL_MS);
      this.published = value;
      this.publishedAt = Date.now();
    } catch (error) {
      this.logger.warn(`resume progress not published: ${(error as Error).message}`);
    } finally {
      this.writing = false;
    }
  }
}
