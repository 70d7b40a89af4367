import { Inject, Injectable, Logger } from '@nestjs/common';
import { APP_CONFIG, type AppConfig } from '@app/config';
import { AppError, workerCommandChannel, type CommandReply, type CommandRequest } from '@app/contracts';
import { RedisService } from './redis.service';
import type { Subscription } from './subscription';

export type CommandHandler = (request: CommandRequest) => Promise<unknown>;

/** Thrown by a handler for an instance whose shard this worker does not hold: the client re-reads the owner map and resends. */
export class NotOwnerError extends Error {
  constructor(instanceId: string) {
    super(`this worker does not hold the shard of ${instanceId}`);
    this.name = 'NotOwnerError';
  }
}

/** The worker side of the command channel: listens on this worker's own channel, for every shard it owns. */
@Injectable()
export class CommandServer {
  private readonly logger = new Logger(CommandServer.name);
  private subscriber: Subscription | undefined;
  private handler: CommandHandler | undefined;
  private channel: string | undefined;

  constructor(
    @Inject(APP_CONFIG) private readonly config: AppConfig,
    private readonly redis: RedisService,
  ) {}

  setHandler(handler: CommandHandler): void {
    this.handler = handler;
  }

  /** Listens on `workerId`'s channel; the API addresses it once this worker's leases show in `shard_leases`. */
  async serve(workerId: string): Promise<void> {
    this.channel = workerCommandChannel(this.config.queuePrefix, workerId);
    await this.connection().subscribe(this.channel);
  }

  async stopServing(): Promise<void> {
    if (this.channel) await this.subscriber?.unsubscribe(this.channel);
  }

  private connection(): Subscription {
    if (this.subscriber) return this.subscriber;
    this.subscriber = this.redis.subscriber('commands-in');
    this.subscriber.on('message', (_channel: string, message: string) => void this.handle(message));
    return this.subscriber;
  }

  private async handle(message: string): Promise<void> {
    const request = JSON.parse(message) as CommandRequest;
    if (Date.now() > request.deadline || !this.handler) return;
    let reply: CommandReply;
    try {
      reply = { requestId: request.requestId, ok: true, result: (await this.handler(request)) ?? {} };
    } catch (error) {
      if (error instanceof NotOwnerError) {
        reply = { requestId: request.requestId, ok: false, notOwner: true };
      } else if (error instanceof AppError) {
        reply = { requestId: request.requestId, ok: false, code: error.code, detail: error.detail };
      } else {
        this.logger.error({ err: error, command: request.name, instanceId: request.instanceId }, 'command failed');
        reply = { requestId: request.requestId, ok: false, code: 'internal' };
      }
    }
    await this.redis
      .publish(request.replyTo, JSON.stringify(reply))
      .catch((error: Error) => this.logger.warn(`reply lost: ${error.message}`));
  }
}
