import { randomUUID } from 'node:crypto';
import { Inject, Injectable, type OnModuleDestroy } from '@nestjs/common';
import { APP_CONFIG, type AppConfig } from '@app/config';
import {
  AppError,
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
        return reply.result;
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
        .publish(workerCommandChannel(this.config.queuePrefix, owner), JSON.stringify(request))
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
    return (await this.request(instanceId, 'network.perform', { name, args }, deadlineMs)) as OperationResult<N>;
  }

  private listen(): Promise<Subscription> {
    this.subscriber ??= (async () => {
      const subscriber = this.redis.subscriber('command-replies');
      subscriber.on('message', (_channel: string, message: string) => {
        const reply = JSON.parse(message) as CommandReply;
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
