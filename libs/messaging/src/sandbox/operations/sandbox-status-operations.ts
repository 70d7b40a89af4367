import { createHash } from 'node:crypto';
import { Injectable } from '@nestjs/common';
import { AppError, type StatusOperations, type StatusPost } from '@app/contracts';
import { SandboxRepository } from '@app/database';
import { normalise } from '../../events/normalise';
import { refuseDeletingOthersStatus } from '../../network-rules';
import { SandboxPeople } from '../sandbox-people';
import { SandboxStatusPrivacy } from '../sandbox-status-privacy';
import { SandboxStatusMedia } from '../sandbox-status-media';
import type { OperationHandlers } from './operation-handlers';

export const STATUS_CHAT = 'status@broadcast';
/** What the network assumes when neither the client nor the download names a type. */
const DEFAULT_MIME = { image: 'image/jpeg', video: 'video/mp4' } as const;

/** Status posts are messages to `status@broadcast`, delivered to the audience the status privacy allows. */
@Injectable()
export class SandboxStatusOperations {
  constructor(
    private readonly privacy: SandboxStatusPrivacy,
    private readonly store: SandboxRepository,
    private readonly people: SandboxPeople,
    private readonly media: SandboxStatusMedia,
  ) {}

  readonly handlers: OperationHandlers<StatusOperations> = {
    'status.privacy': async ({ instanceId }) => ({ settings: [await this.privacy.current(instanceId)] }),

    'status.post': async ({ instanceId, self }, { id, post }) => {
      const audience = await this.privacy.audience(instanceId);
      await this.store.recordMessage(instanceId, {
        id,
        direction: 'outbound',
        chatJid: STATUS_CHAT,
        senderJid: self,
        type: post.kind,
        content: { ...(await this.content(post)), audience },
      });
      return { audience };
    },

    'status.delete': async ({ instanceId, self, session }, { id }) => {
      const post = await this.store.message(instanceId, id);
      if (!post || post.chatJid !== STATUS_CHAT || post.content.deleted === true) throw new AppError('not_found');
      refuseDeletingOthersStatus(post.direction === 'outbound');
      await this.store.updateContent(instanceId, id, { ...post.content, deleted: true });
      const sender = await this.people.actor(instanceId, self, self);
      session.deliver(normalise.messageDelete({ id, chatId: STATUS_CHAT, sender, time: new Date(), forEveryone: true }));
      return {};
    },
  };

  /** What the network keeps of a post: the text, or the file's type, size and hash with its caption. */
  private async content(post: StatusPost): Promise<Record<string, unknown>> {
    if (post.kind === 'text') return { text: post.text };
    const { bytes, contentType } = await this.media.load(post.media);
    return {
      mimeType: post.mimeType ?? contentType ?? DEFAULT_MIME[post.kind],
      fileLength: bytes.length,
      fileSha256: createHash('sha256').update(bytes).digest('base64'),
      ...(post.caption !== undefined ? { caption: post.caption } : {}),
    };
  }
}
