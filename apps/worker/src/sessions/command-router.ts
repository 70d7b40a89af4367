import { Inject, Injectable } from '@nestjs/common';
import { APP_CONFIG, type AppConfig } from '@app/config';
import { AppError, shardOf, type CommandArgs, type CommandName, type CommandRequest } from '@app/contracts';
import { InstanceLifecycleRepository } from '@app/database';
import { SandboxNetwork } from '@app/messaging';
import { InstanceSessions } from './instance-sessions.service';

type Handlers = { [N in CommandName]: (instanceId: string, args: CommandArgs<N>) => Promise<unknown> };

/** Carries out commands from the API for instances of the shards this worker holds. */
@Injectable()
export class CommandRouter {
  private readonly handlers: Handlers = {
    'session.qr': (id) => this.sessions.qr(id),
    'session.pairCode': (id, args) => this.sessions.pairCode(id, args.phone),
    'session.logout': (id) => this.sessions.logout(id),
    'session.restart': (id) => this.sessions.restart(id),
    'session.flushHistory': (id) => this.sessions.flushHistory(id),
    'sandbox.pair': (id, args) => this.sandboxPair(id, args.phone),
    'sandbox.connection': (id, args) => this.sandboxConnection(id, args.state),
    'sandbox.logout': (id) => this.sandbox.logoutFromPhone(id),
    'sandbox.contact': (id, args) => this.sandbox.addContact(id, args),
    'sandbox.group': (id, args) => this.sandbox.createGroup(id, args),
    'sandbox.inbound': (id, args) => this.sandbox.inbound(id, args),
    'sandbox.receipt': (id, args) => this.sandbox.receipt(id, args.messageId, args.status),
  };

  constructor(
    @Inject(APP_CONFIG) private readonly config: AppConfig,
    private readonly sessions: InstanceSessions,
    private readonly sandbox: SandboxNetwork,
    private readonly instances: InstanceLifecycleRepository,
  ) {}

  async handle(request: CommandRequest, holdsShard: (shard: number) => boolean): Promise<unknown> {
    // A worker whose lease may have lapsed must not act: the new owner will answer the retry.
    if (!holdsShard(shardOf(request.instanceId, this.config.shardCount))) throw new AppError('instance_unavailable');
    if (request.name.startsWith('sandbox.')) {
      const instance = await this.instances.find(request.instanceId);
      if (!instance?.sandbox) throw new AppError('not_found');
    }
    const handler = this.handlers[request.name] as (instanceId: string, args: unknown) => Promise<unknown>;
    return handler(request.instanceId, request.args);
  }

  private async sandboxPair(instanceId: string, phone?: string): Promise<{ deviceId: string }> {
    const device = await this.sandbox.device(instanceId);
    if (device.deviceId) throw new AppError('device_already_paired');
    await this.sessions.ensure(instanceId);
    return this.sandbox.pair(instanceId, phone);
  }

  private async sandboxConnection(instanceId: string, state: 'offline' | 'online'): Promise<{ online: boolean }> {
    const result = await this.sandbox.setLink(instanceId, state === 'online');
    if (result.online) this.sessions.reconnectNow(instanceId);
    return result;
  }
}
