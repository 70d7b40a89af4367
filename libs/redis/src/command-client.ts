import { randomUUID } from 'node:crypto';
import { Inject, Injectable, Logger, type OnModuleDestroy } from '@nestjs/common';
import type { ZodType } from 'zod';
import { APP_CONFIG, type AppConfig } from '@app/config';
import {
  AppError,
  COMMAND_SCHEMAS,
  COMMAND_WIRE_VERSION,
  OPERATION_SCHEMAS,
  WireDecodeError,
  commandReplySchema,
  commandRequestOut,
  decodeShape,
  decodeWireJson,
  workerCommandChannel,
  shardOf,
  type CommandArgs,
  type CommandName,
  type CommandReply,
  type CommandRequest,
  type CommandResult,
  type OperationArgs,
  type OperationName,
  type OperationResult,
} from '@app/contracts';
import { ShardOwnerMap } from '@app/database';
import { RedisService } from './redis.service';
import type { Subscription } from './subscription';

const DEFAULT_DEADLINE_MS = 10_000;

function looseRequestId(message: string): string | undefined {
  try {
    const value = JSON.parse(message) as { requestId?: unknown } | null;
    return typeof value?.requestId === 'string' ? value.requestId : undefined;
  } catch {
    return undefined;
  }
}
/** Pause before asking the owner map again after no owner, no listener or a "not mine" answer. */
const RETRY_MS = 200;

interface Pending {
  resolve(reply: CommandReply | 'timeout'): void;
}

/**
 * Sends a command to the worker that owns the instance's shard (found in `ShardOwnerMap`, on that worker's own pub/sub
 * channel) and waits for its answer. Commands travel on pub/sub, so they never wait behind queued sends. No answer by the
 * deadline → 503.
 */
@Injectable()
export class CommandClient implements OnModuleDestroy {
  private readonly logger = new Logger(CommandClient.name);
  private readonly replyChannel: string;
  private subscriber: Promise<Subscription> | undefined;
  private readonly pending = new Map<string, Pending>();

  constructor(
    @Inject(APP_CONFIG) private readonly config: AppConfig,
    private readonly redis: RedisService,
    private readonly owners: ShardOwnerMap,
  ) {
    this.replyChannel = redis.key('reply', randomUUID());
  }

  async request<N extends CommandName>(
    instanceId: string,
    name: N,
    args: CommandArgs<N>,
    deadlineMs = DEFAULT_DEADLINE_MS,
  ): Promise<CommandResult<N>> {
    await this.listen();
    const deadline = Date.now() + deadlineMs;
    const shard = shardOf(instanceId, this.config.shardCount);
    let reread = false;
    // Until the deadline: no owner yet (a takeover), an owner that is gone (no listener), or one that answers "not mine"
    // (it is handing the shard over) all mean "ask the map again and resend"; none of them ran the command.
    while (Date.now() < deadline) {
      const owner = await this.owners.ownerOf(shard, { reread }).catch(() => undefined);
      reread = true;
      const reply = owner === undefined ? undefined : await this.ask(owner, { instanceId, name, args, deadline });
      if (reply === 'timeout') throw new AppError('instance_unavailable');
      if (reply !== undefined && !('notOwner' in reply)) {
        if (!reply.ok) throw new AppError(reply.code, reply.detail);
        return this.decodeResult(name, COMMAND_SCHEMAS[name].result, reply.result);
      }
      await new Promise((resolve) => setTimeout(resolve, Math.min(RETRY_MS, Math.max(0, deadline - Date.now()))));
    }
    throw new AppError('instance_unavailable');
  }

  /** Publishes to `owner`'s channel: undefined when nobody listens there, 'timeout' when the deadline passed unanswered. */
  private async ask<N extends CommandName>(
    owner: string,
    command: Pick<CommandRequest<N>, 'instanceId' | 'name' | 'args' | 'deadline'>,
  ): Promise<CommandReply | 'timeout' | undefined> {
    const request: CommandRequest<N> = { ...command, requestId: randomUUID(), replyTo: this.replyChannel };
    let timer: NodeJS.Timeout | undefined;
    const reply = new Promise<CommandReply | 'timeout'>((resolve) => {
      this.pending.set(request.requestId, { resolve });
      timer = setTimeout(() => resolve('timeout'), Math.max(0, request.deadline - Date.now()));
    });
    try {
      const listeners = await this.redis
        .publish(workerCommandChannel(this.config.queuePrefix, owner), JSON.stringify(commandRequestOut(request)))
        .catch(() => 0);
      if (listeners === 0) return undefined;
      return await reply;
    } finally {
      clearTimeout(timer);
      this.pending.delete(request.requestId);
    }
  }

  /** Has the instance's session carry out a network operation; its errors come back as the API's errors. */
  async perform<N extends OperationName>(
    instanceId: string,
    name: N,
    args: OperationArgs<N>,
    deadlineMs = DEFAULT_DEADLINE_MS,
  ): Promise<OperationResult<N>> {
    const result = await this.request(instanceId, 'network.perform', { name, args }, deadlineMs);
    return this.decodeResult(name, OPERATION_SCHEMAS[name].result, result);
  }

  /**
   * A worker's answer checked by the command's (or operation's) result schema: one the API cannot read (a worker of
   * another version, or a bug) is a 500 that names the command and the fields, never a wrong value passed on.
   */
  private decodeResult<T>(name: string, schema: ZodType<T>, result: unknown): T {
    try {
      return decodeShape('command_reply', schema, result);
    } catch (error) {
      if (!(error instanceof WireDecodeError)) throw error;
      this.logger.warn({ boundary: error.boundary, command: name, reason: error.reason }, 'command reply refused: unreadable result');
      throw new AppError('internal', `the worker answered ${name} with a result this API cannot read (${error.reason})`);
    }
  }

  private listen(): Promise<Subscription> {
    this.subscriber ??= (async () => {
      const subscriber = this.redis.subscriber('command-replies');
      subscriber.on('message', (_channel: string, message: string) => {
        let reply: CommandReply;
        try {
          reply = decodeWireJson('command_reply', commandReplySchema, COMMAND_WIRE_VERSION, message);
        } catch (error) {
          // Unreadable: answered as an error when its request can be told, else that request runs into its deadline.
          const requestId = looseRequestId(message);
          this.logger.warn({ boundary: 'command_reply', reason: (error as Error).message }, 'command reply refused: unreadable');
          if (requestId === undefined) return;
          reply = {
            requestId,
            ok: false,
            code: 'internal',
            detail: `the worker's reply could not be read (${(error as WireDecodeError).reason})`,
          };
        }
        this.pending.get(reply.requestId)?.resolve(reply);
      });
      await subscriber.subscribe(this.replyChannel);
      return subscriber;
    })();
    return this.subscriber;
  }

  onModuleDestroy(): void {
    for (const pending of this.pending.values()) pending.resolve({ requestId: '', ok: false, code: 'instance_unavailable' });
  }
}
