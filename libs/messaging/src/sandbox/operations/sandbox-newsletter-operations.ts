import { Injectable } from '@nestjs/common';
import { AppError, type NewsletterOperations } from '@app/contracts';
import { SandboxRepository } from '@app/database';
import { normalise } from '../../events/normalise';
import { SandboxChannels } from '../sandbox-channels';
import type { OperationHandlers } from './operation-handlers';

/**
 * Channels as the network runs them: anyone may look a channel up and follow it; the owner cannot unfollow their own
 * channel; following, leaving and muting reach every device of the account as `newsletter` events.
 */
@Injectable()
export class SandboxNewsletterOperations {
  constructor(
    private readonly channels: SandboxChannels,
    private readonly store: SandboxRepository,
  ) {}

  readonly handlers: OperationHandlers<NewsletterOperations> = {
    'newsletters.followed': async ({ instanceId }) => {
      const follows = await this.store.newsletters(instanceId);
      const newsletters = [];
      for (const follow of follows) newsletters.push(this.channels.info(await this.channels.byJid(instanceId, follow.jid), follow));
      return { newsletters };
    },

    'newsletters.create': async ({ instanceId, self, session }, { name, description, picture }) => {
      const channel = await this.channels.publish(instanceId, { name, description, picture: picture !== undefined }, self);
      await this.store.joinNewsletter(instanceId, { jid: channel.jid, name, role: 'OWNER' });
      session.deliver(normalise.newsletter({ id: channel.jid, action: 'join', name, role: 'OWNER' }));
      return this.channels.info(channel, await this.store.newsletter(instanceId, channel.jid));
    },

    'newsletters.metadata': async ({ instanceId }, { by, key }) => {
      const channel = by === 'jid' ? await this.channels.byJid(instanceId, key) : await this.channels.byInviteCode(instanceId, key);
      return this.channels.info(channel, await this.store.newsletter(instanceId, channel.jid));
    },

    'newsletters.subscription': async ({ instanceId, session }, { id, subscribed }) => {
      const channel = await this.channels.byJid(instanceId, id);
      const follow = await this.store.newsletter(instanceId, id);
      if (subscribed && !follow) {
        await this.store.joinNewsletter(instanceId, { jid: id, name: channel.name, role: 'SUBSCRIBER' });
        await this.channels.countFollower(instanceId, channel, 1);
        session.deliver(normalise.newsletter({ id, action: 'join', name: channel.name, role: 'SUBSCRIBER' }));
      } else if (!subscribed && follow) {
        if (follow.role === 'OWNER') throw AppError.forbidden('the owner cannot unfollow their own channel');
        await this.store.leaveNewsletter(instanceId, id);
        await this.channels.countFollower(instanceId, channel, -1);
        session.deliver(normalise.newsletter({ id, action: 'leave', role: follow.role }));
      }
      return {};
    },

    'newsletters.mute': async ({ instanceId, session }, { id, muted }) => {
      await this.channels.byJid(instanceId, id);
      const follow = await this.store.newsletter(instanceId, id);
      // Mute is a follower's setting: a channel the account does not follow has none to change.
      if (!follow) throw new AppError('not_found');
      if (follow.muted !== muted) {
        await this.store.muteNewsletter(instanceId, id, muted);
        session.deliver(normalise.newsletter({ id, action: 'mute', muted }));
      }
      return {};
    },
  };
}
