import { Inject, Injectable, Logger, type OnModuleDestroy } from '@nestjs/common';
import { Queue } from 'bullmq';
import { APP_CONFIG, type AppConfig } from '@app/config';
import { JOB_NAMES, SEND_JOB_OPTIONS, sendJobOut, shardOf, workerSendQueueName, type SendJob } from '@app/contracts';
import { ShardOwnerMap } from '@app/database';
import { RedisService } from './redis.service';
import type { RedisConnection } from './connections';
import { OutageLog } from './outage-log';

interface Doorbell {
  job: SendJob;
  done: () => void;
}

/**
 * One job per instance (and re-routing mark) for the doorbells of one batch, the last one rung: which message id names
 * the job does not matter, each was committed before the batch was taken. A re-routed job is kept apart: a worker passes on only
 * jobs not yet re-routed.
 */
export function coalesced(doorbells: readonly { job: SendJob }[]): SendJob[] {
  const last = new Map<string, SendJob>();
  for (const { job } of doorbells) last.set(job.rerouted ? `${job.instanceId}:rerouted` : job.instanceId, job);
  return [...last.values()];
}

/** Queues of workers that stopped being rung are closed after this long, so a fleet's churn does not pile up clients. */
const IDLE_QUEUE_CLOSE_MS = 60_000;

/**
 * Producer side of the send doorbells: each is queued for the worker that owns the instance's shard (`ShardOwnerMap`),
 * on that worker's own queue. Ringing never fails the caller: the message row is already committed, and a doorbell that
 * cannot be queued, or finds no owner (a takeover in progress), loses nothing: the next owner drains the instance when
 * its session opens and its reconciler re-kicks rows left waiting.
 */
@Injectable()
export class SendDoorbells implements OnModuleDestroy {
  private readonly logger = new Logger(SendDoorbells.name);
  private readonly queues = new Map<string, { queue: Queue<SendJob>; usedAt: number }>();
  private connection: RedisConnection | undefined;
  /** Per owner: the doorbells waiting to be queued, present while a batch of that owner is scheduled or on its way. */
  private readonly lanes = new Map<string, Doorbell[]>();
  private sweeper: NodeJS.Timeout | undefined;

  constructor(
    @Inject(APP_CONFIG) private readonly config: AppConfig,
    private readonly redis: RedisService,
    private readonly owners: ShardOwnerMap,
  ) {}

  /**
   * Rings the owner of the instance's shard; resolves once the doorbell is queued, skipped or failed (never rejects).
   * An owner's doorbells go to Redis in batches, one at a time: those rung in the same turn of the event loop (the
   * accepts of one group commit), then those rung while that batch was on its way, and so on; so a busy owner costs one
   * Redis call per round trip, not per send. A batch holds one job per instance, since a job only kicks the instance's
   * drain, which reads every committed row from PostgreSQL: each doorbell was rung after its own row committed, so the
   * job queued for them (named after the last one) wakes the drain after all of those commits, and coalescing loses no
   * wake-up. `reread` asks the lease table again rather than trust a map up to a second old (a worker passing a doorbell
   * on); `except` is never rung (that worker does not own the shard).
   */
  async ring(job: SendJob, options: { reread?: boolean; except?: string } = {}): Promise<boolean> {
    let owner: string | undefined;
    try {
      owner = await this.owners.ownerOf(shardOf(job.instanceId, this.config.shardCount), { reread: options.reread });
    } catch (error) {
      this.logger.warn(
        `send job for ${job.messageId} not queued, owner unknown (the reconciler will pick it up): ${(error as Error).message}`,
      );
      return false;
    }
    if (owner === undefined || owner === options.except) return false;
    await new Promise<void>((done) => {
      const waiting = this.lanes.get(owner);
      if (waiting) {
        waiting.push({ job, done });
        return;
      }
      const lane = [{ job, done }];
      this.lanes.set(owner, lane);
      setImmediate(() => void this.drain(owner, lane));
    });
    return true;
  }

  private async drain(owner: string, lane: Doorbell[]): Promise<void> {
    while (lane.length > 0) await this.send(owner, lane.splice(0));
    this.lanes.delete(owner);
  }

  private async send(owner: string, doorbells: Doorbell[]): Promise<void> {
    const jobs = coalesced(doorbells);
    try {
      const queue = this.queueOf(owner);
      if (jobs.length === 1) {
        const [job] = jobs;
        await queue.add(JOB_NAMES.send, sendJobOut(job), { jobId: job.messageId, ...SEND_JOB_OPTIONS });
      } else {
        await queue.addBulk(
          jobs.map((job) => ({ name: JOB_NAMES.send, data: sendJobOut(job), opts: { jobId: job.messageId, ...SEND_JOB_OPTIONS } })),
        );
      }
    } catch (error) {
      const what = jobs.length === 1 ? `send job for ${jobs[0].messageId}` : `${jobs.length} send jobs`;
      this.logger.warn(`${what} not queued (the reconciler will pick them up): ${(error as Error).message}`);
    } finally {
      for (const { done } of doorbells) done();
    }
  }

  private queueOf(owner: string): Queue<SendJob> {
    const known = this.queues.get(owner);
    if (known) {
      known.usedAt = Date.now();
      return known.queue;
    }
    // Fail fast while Redis is away instead of holding the HTTP request.
    this.connection ??= this.redis.connect('send-producer', { enableOfflineQueue: false, maxRetriesPerRequest: 1 });
    const queue = new Queue<SendJob>(workerSendQueueName(owner), { connection: this.connection, prefix: this.config.queuePrefix });
    const outage = new OutageLog(this.logger, `send queue of ${owner}`);
    queue.on('error', (error) => outage.error(error));
    this.queues.set(owner, { queue, usedAt: Date.now() });
    this.sweeper ??= setInterval(() => this.closeIdleQueues(), IDLE_QUEUE_CLOSE_MS).unref();
    return queue;
  }

  private closeIdleQueues(): void {
    const idleSince = Date.now() - IDLE_QUEUE_CLOSE_MS;
    for (const [owner, { queue, usedAt }] of this.queues) {
      if (usedAt >= idleSince) continue;
      this.queues.delete(owner);
      void queue.close().catch(() => undefined);
    }
  }

  async onModuleDestroy(): Promise<void> {
    clearInterval(this.sweeper);
    await Promise.all([...this.queues.values()].map(({ queue }) => queue.close()));
  }
}
