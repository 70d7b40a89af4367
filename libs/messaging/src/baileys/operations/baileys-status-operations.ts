import type { AnyMessageContent } from '@whiskeysockets/baileys';
import { Injectable } from '@nestjs/common';
import { AppError, type StatusOperations, type StatusPost } from '@app/contracts';
import { ContactStoreRepository } from '@app/database';
import type { BaileysContext } from '../baileys-context';
import { SandboxStatusMedia } from '../../sandbox/sandbox-status-media';
import { refuseDeletingOthersStatus } from '../../network-rules';
import { STATUS_JID } from './jids';
import type { BaileysOperationHandlers } from './operation-handlers';
import { DEFAULT_STATUS_PRIVACY, audienceOf, statusPrivacy } from './status-privacy';

/** What the network assumes when neither the client nor the download names a type. */
const DEFAULT_MIME = { image: 'image/jpeg', video: 'video/mp4' } as const;

/**
 * Status posts are messages to `status@broadcast`, encrypted for the audience the status privacy allows (Baileys
 * sends to exactly the `statusJidList` it is given). The socket's own `messages.upsert` of the post and of its
 * revoke bring the gateway's events.
 */
@Injectable()
export class BaileysStatusOperations {
  constructor(
    private readonly contacts: ContactStoreRepository,
    // Media URLs are fetched through the SSRF-safe client, never by Baileys' own `{ url }` download.
    private readonly media: SandboxStatusMedia,
  ) {}

  readonly handlers: BaileysOperationHandlers<StatusOperations> = {
    'status.privacy': async ({ socket }) => ({ settings: await statusPrivacy(socket) }),

    'status.post': async (context, { id, post }) => {
      const audience = await this.audience(context);
      await context.socket.sendMessage(STATUS_JID, await this.content(post), {
        messageId: id,
        statusJidList: this.recipients(context, audience),
      });
      return { audience };
    },

    'status.delete': async (context, { id }) => {
      const post = await context.messages.find(context.instanceId, id, STATUS_JID);
      if (!post) throw new AppError('not_found');
      refuseDeletingOthersStatus(post.fromMe);
      // The revoke goes to today's audience: the network keeps no record of whom the post reached.
      const audience = await this.audience(context);
      await context.socket.sendMessage(
        STATUS_JID,
        { delete: { remoteJid: STATUS_JID, fromMe: true, id } },
        { statusJidList: this.recipients(context, audience) },
      );
      return {};
    },
  };

  private async audience(context: BaileysContext): Promise<string[]> {
    const [setting = DEFAULT_STATUS_PRIVACY] = await statusPrivacy(context.socket);
    const addressBook = setting.type === 'whitelist' ? [] : await this.addressBook(context.instanceId);
    return audienceOf(setting, addressBook);
  }

  private async addressBook(instanceId: string): Promise<string[]> {
    return (await this.contacts.list(instanceId)).filter((contact) => contact.inAddressBook).map((contact) => contact.jid);
  }

  /** The account's own devices see its posts too. */
  private recipients(context: BaileysContext, audience: string[]): string[] {
    return [...audience.filter((jid) => jid !== context.selfJid), context.selfJid];
  }

  private async content(post: StatusPost): Promise<AnyMessageContent> {
    if (post.kind === 'text') return { text: post.text };
    const { bytes, contentType } = await this.media.load(post.media);
    const mimetype = post.mimeType ?? contentType ?? DEFAULT_MIME[post.kind];
    const caption = post.caption !== undefined ? { caption: post.caption } : {};
    return post.kind === 'image' ? { image: bytes, mimetype, ...caption } : { video: bytes, mimetype, ...caption };
  }
}
