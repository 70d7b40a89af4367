import { Injectable } from '@nestjs/common';
import { AppError, type NewsletterOperations } from '@app/contracts';
import { newsletterInfoOf } from './newsletter-info';
import { followedNewsletters } from './newsletter-subscriptions';
import type { BaileysOperationHandlers } from './operation-handlers';

/**
 * Channels through Baileys' newsletter calls (GraphQL queries on the network). Following, leaving and muting are
 * the account's own settings; the network reports them to other devices, not back to this one.
 */
@Injectable()
export class BaileysNewsletterOperations {
  readonly handlers: BaileysOperationHandlers<NewsletterOperations> = {
    'newsletters.followed': async ({ socket }) => ({
      newsletters: (await followedNewsletters(socket)).map((channel) => newsletterInfoOf(channel)).filter((info) => info.id !== ''),
    }),

    'newsletters.create': async ({ socket }, { name, description, picture }) => {
      const created = await socket.newsletterCreate(name, description);
      if (picture === undefined) return newsletterInfoOf(created, { role: 'OWNER' });
      await socket.newsletterUpdatePicture(created.id, Buffer.from(picture, 'base64'));
      // Read back so the answer carries the picture's URL.
      return newsletterInfoOf((await socket.newsletterMetadata('jid', created.id)) ?? created, { role: 'OWNER' });
    },

    'newsletters.metadata': async ({ socket }, { by, key }) => {
      const channel = await socket.newsletterMetadata(by, key);
      if (!channel) throw new AppError('not_found');
      return newsletterInfoOf(channel);
    },

    'newsletters.subscription': async ({ socket }, { id, subscribed }) => {
      await (subscribed ? socket.newsletterFollow(id) : socket.newsletterUnfollow(id));
      return {};
    },

    'newsletters.mute': async ({ socket }, { id, muted }) => {
      await (muted ? socket.newsletterMute(id) : socket.newsletterUnmute(id));
      return {};
    },
  };
}
