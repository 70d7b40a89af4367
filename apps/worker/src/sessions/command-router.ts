import { Inject, Injectable } from '@nestjs/common';
import { APP_CONFIG, type AppConfig } from '@app/config';
import { shardOf, type CommandContract, type CommandRequest } from '@app/contracts';
import { SandboxControls, type CommandContext, type CommandHandlers } from '@app/messaging';
import { NotOwnerError } from '@app/redis';
import { ShardLeaseCheck } from '../shards/shard-lease-check';
import { InstanceSessions } from './instance-sessions';
import { NetworkOperator } from './network-operator';

/** Carries out commands from the API for instances of the shards this worker holds. */
@Injectable()
export class CommandRouter {
  private readonly handlers: Record<string, (context: CommandContext, args: unknown) => Promise<unknown>>;

  constructor(
    @Inject(APP_CONFIG) private readonly config: AppConfig,
    private readonly sessions: InstanceSessions,
    private readonly lease: ShardLeaseCheck,
    operator: NetworkOperator,
    sandbox: SandboxControls,
  ) {
    // Typed as the whole contract, so a command without a handler does not compile.
    const table: CommandHandlers<CommandContract> = {
      'session.qr': ({ instanceId }) => sessions.qr(instanceId),
      'session.pairCode': ({ instanceId }, args) => sessions.pairCode(instanceId, args.phone),
      'session.logout': ({ instanceId }) => sessions.logout(instanceId),
      'session.restart': ({ instanceId }) => sessions.restart(instanceId),
      'session.flushHistory': ({ instanceId }) => sessions.flushHistory(instanceId),
      'network.perform': ({ instanceId }, args) => operator.perform(instanceId, args.name, args.args as never),
      ...sandbox.handlers,
    };
    this.handlers = table as unknown as typeof this.handlers;
  }

  async handle(request: CommandRequest): Promise<unknown> {
    // A worker whose lease may have lapsed (or is being handed over) must not act: the client asks the owner map again and
    // resends to the new owner.
    if (!this.lease.holds(shardOf(request.instanceId, this.config.shardCount))) throw new NotOwnerError(request.instanceId);
    return this.handlers[request.name]({ instanceId: request.instanceId, sessions: this.sessions }, request.args);
  }
}
