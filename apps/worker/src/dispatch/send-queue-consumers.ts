import { Inject, Injectable, Logger } from '@nestjs/common';
import { Queue, UnrecoverableError, Worker } from 'bullmq';
import { APP_CONFIG, type AppConfig } from '@app/config';
import { JOB_WIRE_VERSION, WireDecodeError, decodeWire, sendJobSchema, shardOf, workerSendQueueName, type SendJob } from '@app/contracts';
import { RedisService, SendDoorbells, type RedisConnection } from '@app/redis';
import { ShardLeaseCheck } from '../shards/shard-lease-check';
import { SendDispatcher } from './send-dispatcher';
import { OutageLog } from '@app/redis';

/** Bounds the clean-up of this worker's queue at shutdown; what is left holds doorbells only. */
const OBLITERATE_WAIT_MS = 1_000;

/**
 * This worker's send queue: one BullMQ consumer, however many shards it owns. A job only rings an instance's doorbell.
 * The API addresses it by a map of owners that may be a moment old, so a doorbell can arrive for a shard this worker no
 * longer holds (or is handing over): it is passed on once to the owner the lease table names now, or dropped when there
 * is none. Dropping loses nothing: the rows are in PostgreSQL, the next owner drains each instance when its session opens,
 * and its reconciler re-kicks rows still waiting after a few seconds.
 */
@Injectable()
export class SendQueueConsumers {
  private readonly logger = new Logger(SendQueueConsumers.name);
  private worker: Worker<SendJob> | undefined;
  private queueName: string | undefined;
  private connection: RedisConnection | undefined;

  constructor(
    @Inject(APP_CONFIG) private readonly config: AppConfig,
    private readonly redis: RedisService,
    private readonly dispatcher: SendDispatcher,
    private readonly lease: ShardLeaseCheck,
    private readonly doorbells: SendDoorbells,
  ) {}

  start(workerId: string): void {
    if (this.worker) return;
    this.connection ??= this.redis.connect('send-consumers', { maxRetriesPerRequest: null });
    this.queueName = workerSendQueueName(workerId);
    const worker = new Worker<SendJob>(this.queueName, (job) => this.take(workerId, this.decode(job.id, job.data)), {
      connection: this.connection,
      prefix: this.config.queuePrefix,
      // Jobs for one instance join the same drain, so a high number only lets more instances proceed at once.
      concurrency: 64,
    });
    const outage = new OutageLog(this.logger, 'send queue');
    worker.on('error', (error) => outage.error(error));
    this.worker = worker;
  }

  /**
   * The job's data as this worker reads it. One it cannot read (a newer API's, or damaged) fails as unrecoverable with
   * the reason: nothing is lost, as the message row stays `accepted` in PostgreSQL and the reconciler (or the drain when
   * the session opens) sends it.
   */
  private decode(jobId: string | undefined, data: unknown): SendJob {
    try {
      return decodeWire('send_job', sendJobSchema, JOB_WIRE_VERSION, data);
    } catch (error) {
      if (!(error instanceof WireDecodeError)) throw error;
      this.logger.warn(
        { boundary: error.boundary, jobId, reason: error.reason },
        'send job refused: unreadable (the message row stays for the reconciler)',
      );
      throw new UnrecoverableError(`unreadable send job: ${error.reason}`);
    }
  }

  private async take(workerId: string, job: SendJob): Promise<void> {
    if (this.lease.holds(shardOf(job.instanceId, this.config.shardCount))) return this.dispatcher.kick(job.instanceId);
    if (job.rerouted) return;
    await this.doorbells.ring({ ...job, rerouted: true }, { reread: true, except: workerId });
  }

  /**
   * Shutdown: stops the consumer without waiting for its jobs, then empties the queue. A job left behind only kicks a
   * drain that PostgreSQL feeds: the next owner drains the instance when its session opens. After kill -9 the queue stays
   * in Redis with at most the doorbells rung before the API's owner map moved on (about a second); nothing reads them.
   */
  async stopAll(): Promise<void> {
    const worker = this.worker;
    this.worker = undefined;
    if (!worker) return;
    await worker.close(true);
    if (!this.connection || !this.queueName) return;
    const queue = new Queue<SendJob>(this.queueName, { connection: this.connection, prefix: this.config.queuePrefix });
    const emptied = queue.obliterate({ force: true }).catch((error: Error) => this.logger.warn(`send queue not removed: ${error.message}`));
    let timer: NodeJS.Timeout | undefined;
    await Promise.race([emptied, new Promise<void>((resolve) => (timer = setTimeout(resolve, OBLITERATE_WAIT_MS)))]);
    clearTimeout(timer);
    await queue.close().catch(() => undefined);
  }
}
