import { randomUUID } from 'node:crypto';
import { Inject, Injectable, type OnModuleDestroy } from '@nestjs/common';
import { APP_CONFIG, type AppConfig } from '@app/config';
import {
  AppError,
  commandChannel,
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
import { RedisService } from './redis.service';
import type { Subscription } from './subscription';

const DEFAULT_DEADLINE_MS = 10_000;
const NO_OWNER_RETRY_MS = 200;

interface Pending {
  resolve(reply: CommandReply): void;
}

/**
 * Sends a command to whichever worker owns the instance's shard and waits for its answer. Commands travel
 * on their own pub/sub channel, so they never wait behind queued sends. No answer by the deadline → 503.
 */
@Injectable()
export class CommandClient implements OnModuleDestroy {
  private readonly replyChannel: string;
  private subscriber: Promise<Subscription> | undefined;
  private readonly pending = new Map<string, Pending>();

  constructor(
    @Inject(APP_CONFIG) private readonly config: AppConfig,
    private readonly redis: RedisService,
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
    const request: CommandRequest<N> = {
      requestId: randomUUID(),
      instanceId,
      name,
      args,
      deadline: Date.now() + deadlineMs,
      replyTo: this.replyChannel,
    };
    const reply = new Promise<CommandReply | undefined>((resolve) => {
      this.pending.set(request.requestId, { resolve });
      setTimeout(() => resolve(undefined), deadlineMs).unref();
    });
    try {
      await this.publishUntilHeard(request);
      const answer = await reply;
      if (!answer) throw new AppError('instance_unavailable');
      if (!answer.ok) throw new AppError(answer.code, answer.detail);
      return answer.result;
    } finally {
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

  /** While no worker listens on the shard (e.g. during a takeover), keep trying until the deadline. */
  private async publishUntilHeard(request: CommandRequest): Promise<void> {
    const channel = commandChannel(this.config.queuePrefix, shardOf(request.instanceId, this.config.shardCount));
    const payload = JSON.stringify(request);
    while (Date.now() < request.deadline) {
      const listeners = await this.redis.publish(channel, payload).catch(() => 0);
      if (listeners > 0) return;
      await new Promise((resolve) => setTimeout(resolve, NO_OWNER_RETRY_MS));
    }
    throw new AppError('instance_unavailable');
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
