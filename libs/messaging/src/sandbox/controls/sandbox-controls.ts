import { Injectable } from '@nestjs/common';
import { AppError, type SandboxCommands } from '@app/contracts';
import { SandboxJoinRequests } from '../groups/sandbox-join-requests';
import { SandboxChannels } from '../sandbox-channels';
import { SandboxDirectory } from '../sandbox-directory';
import { SandboxHappenings } from '../sandbox-happenings';
import { SandboxInbound } from '../sandbox-inbound';
import { SandboxPhone } from '../sandbox-phone';
import { SandboxProfiles } from '../sandbox-profiles';
import { SandboxLinkDrops } from '../sandbox-link-drops';
import { SandboxRefusals } from '../sandbox-refusals';
import { SandboxSetup } from '../sandbox-setup';
import { SandboxStatusPrivacy } from '../sandbox-status-privacy';
import type { CommandHandlers } from './command-handlers';

/**
 * The sandbox control surface on the worker's side: what each `sandbox.*` command does to the simulated network. The
 * table is typed as the whole contract, so a command without a handler does not compile. Whether the instance is a
 * sandbox instance at all is the API's one check, before it sends the command.
 */
@Injectable()
export class SandboxControls {
  readonly handlers: CommandHandlers<SandboxCommands>;

  constructor(
    phone: SandboxPhone,
    setup: SandboxSetup,
    inbound: SandboxInbound,
    happenings: SandboxHappenings,
    joinRequests: SandboxJoinRequests,
    directory: SandboxDirectory,
    profiles: SandboxProfiles,
    channels: SandboxChannels,
    statusPrivacy: SandboxStatusPrivacy,
    refusals: SandboxRefusals,
    linkDrops: SandboxLinkDrops,
  ) {
    this.handlers = {
      'sandbox.pair': async ({ instanceId, sessions }, args) => {
        // Checked before a session is started for the phone to pair with: a paired instance's session would connect.
        if (await phone.isPaired(instanceId)) throw new AppError('device_already_paired');
        await sessions.ensure(instanceId);
        return phone.pair(instanceId, args.phone, args.error);
      },
      'sandbox.connection': async ({ instanceId, sessions }, args) => {
        const result = await phone.setLink(instanceId, args.state === 'online');
        if (result.online) sessions.reconnectNow(instanceId);
        return result;
      },
      'sandbox.logout': ({ instanceId }) => phone.logoutFromPhone(instanceId),
      'sandbox.contact': ({ instanceId }, args) => setup.addContact(instanceId, args),
      'sandbox.group': ({ instanceId }, args) => setup.createGroup(instanceId, args),
      'sandbox.inbound': ({ instanceId }, args) => inbound.inbound(instanceId, args),
      'sandbox.inboundBatch': ({ instanceId }, args) => inbound.inboundBatch(instanceId, args.messages),
      'sandbox.receipt': ({ instanceId }, args) => inbound.receipt(instanceId, args),
      'sandbox.delete': ({ instanceId }, args) => happenings.deleteMessage(instanceId, args),
      'sandbox.edit': ({ instanceId }, args) => happenings.editMessage(instanceId, args),
      'sandbox.star': ({ instanceId }, args) => happenings.star(instanceId, args),
      'sandbox.presence': ({ instanceId }, args) => happenings.presence(instanceId, args),
      'sandbox.chatSetting': ({ instanceId }, args) => happenings.chatSetting(instanceId, args),
      'sandbox.profile': ({ instanceId }, args) => happenings.profile(instanceId, args),
      'sandbox.groupChange': ({ instanceId }, args) => happenings.groupChange(instanceId, args),
      'sandbox.newsletterJoin': ({ instanceId }, args) => happenings.joinNewsletter(instanceId, args),
      'sandbox.newsletterLeave': ({ instanceId }, args) => happenings.leaveNewsletter(instanceId, args),
      'sandbox.newsletterMute': ({ instanceId }, args) => happenings.muteNewsletter(instanceId, args),
      'sandbox.undecryptable': ({ instanceId }, args) => happenings.undecryptable(instanceId, args),
      'sandbox.callOffer': ({ instanceId }, args) => happenings.offerCall(instanceId, args),
      'sandbox.callAccept': ({ instanceId }, args) => happenings.acceptCall(instanceId, args),
      'sandbox.callEnd': ({ instanceId }, args) => happenings.endCall(instanceId, args),
      'sandbox.groupJoinRequest': ({ instanceId }, args) => joinRequests.ask(instanceId, args),
      'sandbox.user': ({ instanceId }, args) => directory.register(instanceId, args),
      'sandbox.businessProfile': ({ instanceId }, args) => profiles.setBusinessProfile(instanceId, args),
      'sandbox.profilePicture': ({ instanceId }, args) => profiles.setProfilePicture(instanceId, args),
      'sandbox.channel': async ({ instanceId }, args) => {
        const channel = await channels.publish(instanceId, args, null);
        return { id: channel.jid, inviteCode: channel.inviteCode };
      },
      'sandbox.statusPrivacy': ({ instanceId }, args) => statusPrivacy.set(instanceId, args),
      'sandbox.refusal': ({ instanceId }, args) => refusals.set(instanceId, args),
      'sandbox.linkDrop': ({ instanceId }, args) => linkDrops.set(instanceId, args),
    };
  }
}
