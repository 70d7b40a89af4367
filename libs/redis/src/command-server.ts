import { Inject, Injectable, Logger } from '@nestjs/common';
import { APP_CONFIG, type AppConfig } from '@app/config';
import {
  AppError,
  COMMAND_SCHEMAS,
  COMMAND_WIRE_VERSION,
  WireDecodeError,
  commandReplyOut,
  commandRequestSchema,
  decodeShape,
  decodeWireJson,
  isKnownCommand,
  refused,
  workerCommandChannel,
  type CommandReply,
  type CommandRequest,
  type CommandRequestEnvelope,
} from '@app/contracts';
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
    let envelope: CommandRequestEnvelope;
    try {
      envelope = decodeWireJson('command_request', commandRequestSchema, COMMAND_WIRE_VERSION, message);
    } catch (error) {
      return this.refuseUnreadable(message, error as WireDecodeError);
    }
    if (Date.now() > envelope.deadline || !this.handler) return;
    let reply: CommandReply;
    try {
      const request = this.decodeCommand(envelope);
      reply = { requestId: request.requestId, ok: true, result: (await this.handler(request)) ?? {} };
    } catch (error) {
      if (error instanceof NotOwnerError) {
        reply = { requestId: envelope.requestId, ok: false, notOwner: true };
      } else if (error instanceof AppError) {
        reply = { requestId: envelope.requestId, ok: false, code: error.code, detail: error.detail };
      } else {
        this.logger.error({ err: error, command: envelope.name, instanceId: envelope.instanceId }, 'command failed');
        reply = { requestId: envelope.requestId, ok: false, code: 'internal' };
      }
    }
    await this.reply(envelope.replyTo, reply);
  }

  /**
   * The named command's arguments, checked by its schema. A command this worker does not know, or arguments it cannot
   * read, come from an API newer than this worker (or a bug): answered as an error, never run.
   */
  private decodeCommand(envelope: CommandRequestEnvelope): CommandRequest {
    const { name, instanceId } = envelope;
    if (!isKnownCommand(name)) {
      const error = refused('command_request', `unknown command ${name}`);
      this.logger.warn({ boundary: error.boundary, command: name, instanceId, reason: error.reason }, 'command refused: unknown');
      throw new AppError('instance_unavailable', `this worker does not know command ${name}; it is older than the API`);
    }
    try {
      const args = decodeShape('command_request', COMMAND_SCHEMAS[name].args, envelope.args) as unknown;
      return { ...envelope, name, args } as CommandRequest;
    } catch (error) {
      if (!(error instanceof WireDecodeError)) throw error;
      this.logger.warn({ boundary: error.boundary, command: name, instanceId, reason: error.reason }, 'command refused: unreadable');
      throw new AppError('internal', `this worker cannot read command ${name} (${error.reason}); it may be older than the API`);
    }
  }

  /**
   * A request whose envelope does not decode. When it names where to reply, the caller gets an error at once rather
   * than waiting for its deadline: 503 for a newer version (this worker is older than the API), 500 otherwise.
   */
  private async refuseUnreadable(message: string, error: WireDecodeError): Promise<void> {
    const loose = looseEnvelope(message);
    this.logger.warn({ boundary: error.boundary, command: loose?.name, reason: error.reason }, 'command refused: unreadable request');
    if (!loose) return;
    const reply: CommandReply =
      error.unknownVersion !== undefined
        ? {
            requestId: loose.requestId,
            ok: false,
            code: 'instance_unavailable',
            detail: `this worker does not understand command version ${error.unknownVersion}; it is older than the API`,
          }
        : { requestId: loose.requestId, ok: false, code: 'internal', detail: `unreadable command request: ${error.reason}` };
    await this.reply(loose.replyTo, reply);
  }

  private async reply(replyTo: string, reply: CommandReply): Promise<void> {
    await this.redis
      .publish(replyTo, JSON.stringify(commandReplyOut(reply)))
      .catch((error: Error) => this.logger.warn(`reply lost: ${error.message}`));
  }
}

/** Just enough of a request that failed to decode to answer it: where to reply and what it was. */
function looseEnvelope(message: string): { requestId: string; replyTo: string; name?: string } | undefined {
  try {
    const value = JSON.parse(message) as Record<string, unknown> | null;
    if (typeof value?.requestId !== 'string' || typeof value.replyTo !== 'string') return undefined;
    return { requestId: value.requestId, replyTo: value.replyTo, name: typeof value.name === 'string' ? value.name : undefined };
  } catch {
    return undefined;
  }
}
