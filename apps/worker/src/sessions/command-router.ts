import { Inject, Injectable } from '@nestjs/common';
import { APP_CONFIG, type AppConfig } from '@app/config';
import { AppError, shardOf, type CommandArgs, type CommandName, type CommandRequest } from '@app/contracts';
import { InstanceLifecycleRepository } from '@app/database';
import {
  SandboxChannels,
  SandboxDirectory,
  SandboxHappenings,
  SandboxJoinRequests,
  SandboxNetwork,
  SandboxProfiles,
  SandboxStatusPrivacy,
} from '@app/messaging';
import { InstanceSessions } from './instance-sessions';
import { NetworkOperator } from './network-operator';

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
    'network.perform': (id, args) => this.operator.perform(id, args.name, args.args as never),
    'sandbox.pair': (id, args) => this.sandboxPair(id, args.phone, args.error),
    'sandbox.connection': (id, args) => this.sandboxConnection(id, args.state),
    'sandbox.logout': (id) => this.sandbox.logoutFromPhone(id),
    'sandbox.contact': (id, args) => this.sandbox.addContact(id, args),
    'sandbox.group': (id, args) => this.sandbox.createGroup(id, args),
    'sandbox.inbound': (id, args) => this.sandbox.inbound(id, args),
    'sandbox.inboundBatch': (id, args) => this.sandbox.inboundBatch(id, args.messages),
    'sandbox.receipt': (id, args) => this.sandbox.receipt(id, args),
    'sandbox.delete': (id, args) => this.happenings.deleteMessage(id, args),
    'sandbox.star': (id, args) => this.happenings.star(id, args),
    'sandbox.presence': (id, args) => this.happenings.presence(id, args),
    'sandbox.chatSetting': (id, args) => this.happenings.chatSetting(id, args),
    'sandbox.profile': (id, args) => this.happenings.profile(id, args),
    'sandbox.groupChange': (id, args) => this.happenings.groupChange(id, args),
    'sandbox.newsletterJoin': (id, args) => this.happenings.joinNewsletter(id, args),
    'sandbox.newsletterLeave': (id, args) => this.happenings.leaveNewsletter(id, args),
    'sandbox.newsletterMute': (id, args) => this.happenings.muteNewsletter(id, args),
    'sandbox.callOffer': (id, args) => this.happenings.offerCall(id, args),
    'sandbox.callAccept': (id, args) => this.happenings.acceptCall(id, args),
    'sandbox.callEnd': (id, args) => this.happenings.endCall(id, args),
    'sandbox.groupJoinRequest': (id, args) => this.joinRequests.ask(id, args),
    'sandbox.user': (id, args) => this.directory.register(id, args),
    'sandbox.businessProfile': (id, args) => this.profiles.setBusinessProfile(id, args),
    'sandbox.profilePicture': (id, args) => this.profiles.setProfilePicture(id, args),
    'sandbox.channel': (id, args) => this.publishChannel(id, args),
    'sandbox.statusPrivacy': (id, args) => this.statusPrivacy.set(id, args),
  };

  constructor(
    @Inject(APP_CONFIG) private readonly config: AppConfig,
    private readonly sessions: InstanceSessions,
    private readonly sandbox: SandboxNetwork,
    private readonly happenings: SandboxHappenings,
    private readonly instances: InstanceLifecycleRepository,
    private readonly operator: NetworkOperator,
    private readonly joinRequests: SandboxJoinRequests,
    private readonly directory: SandboxDirectory,
    private readonly profiles: SandboxProfiles,
    private readonly channels: SandboxChannels,
    private readonly statusPrivacy: SandboxStatusPrivacy,
  ) {}

  private async publishChannel(instanceId: string, spec: CommandArgs<'sandbox.channel'>): Promise<{ id: string; inviteCode: string }> {
    const channel = await this.channels.publish(instanceId, spec, null);
    return { id: channel.jid, inviteCode: channel.inviteCode };
  }

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

  private async sandboxPair(instanceId: string, phone?: string, error?: string): Promise<{ deviceId: string }> {
    const device = await this.sandbox.device(instanceId);
    if (device.deviceId) throw new AppError('device_already_paired');
    await this.sessions.ensure(instanceId);
    return this.sandbox.pair(instanceId, phone, error);
  }

  private async sandboxConnection(instanceId: string, state: 'offline' | 'online'): Promise<{ online: boolean }> {
    const result = await this.sandbox.setLink(instanceId, state === 'online');
    if (result.online) this.sessions.reconnectNow(instanceId);
    return result;
  }
}
