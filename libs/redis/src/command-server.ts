import { Inject, Injectable, Logger } from '@nestjs/common';
import { APP_CONFIG, type AppConfig } from '@app/config';
import { AppError, commandChannel, type CommandReply, type CommandRequest } from '@app/contracts';
import { RedisService } from './redis.service';
import type { Subscription } from './subscription';

export type CommandHandler = (request: CommandRequest) => Promise<unknown>;

/** The worker side of the command channel: listens on the channels of the shards it owns. */
@Injectable()
export class CommandServer {
  private readonly logger = new Logger(CommandServer.name);
  private subscriber: Subscription | undefined;
  private handler: CommandHandler | undefined;

  constructor(
    @Inject(APP_CONFIG) private readonly config: AppConfig,
    private readonly redis: RedisService,
  ) {}

  setHandler(handler: CommandHandler): void {
    this.handler = handler;
  }

  async serveShard(shard: number): Promise<void> {
    await this.connection().subscribe(commandChannel(this.config.queuePrefix, shard));
  }

  async stopServingShard(shard: number): Promise<void> {
    await this.subscriber?.unsubscribe(commandChannel(this.config.queuePrefix, shard));
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
      if (error instanceof AppError) {
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
