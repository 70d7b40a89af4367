import { Injectable } from '@nestjs/common';
import { newMessageId, type InstanceScope, type StatusPost } from '@app/contracts';
import { CommandClient } from '@app/redis';
import type { CreatedIdDto } from '../common/created-id.dto';
import { PublicUrls } from '../common/public-urls';
import type { PostImageStatusDto, PostTextStatusDto, PostVideoStatusDto, StatusPrivacyDto } from './dto/status.dto';

/**
 * Status posts go straight to the network through the session; the id is ours, in the network's format. A media URL
 * is checked to be public here and downloaded on the network side.
 */
/** What an account that never changed its status privacy has. */
const DEFAULT_STATUS_AUDIENCE: StatusPrivacyDto = { type: 'contacts', list: [], isDefault: true };

@Injectable()
export class StatusService {
  constructor(
    private readonly commands: CommandClient,
    private readonly urls: PublicUrls,
  ) {}

  /**
   * The network keeps one list per kind it was ever given; the one in force (`isDefault`, or the only one) comes first.
   * The object is that one; `list` answers every list, as this route did before.
   */
  async privacy(scope: InstanceScope, format: 'object' | 'list'): Promise<StatusPrivacyDto | StatusPrivacyDto[]> {
    const { settings } = await this.commands.perform(scope.instanceId, 'status.privacy', {});
    if (format === 'list') return settings;
    return settings[0] ?? DEFAULT_STATUS_AUDIENCE;
  }

  postText(scope: InstanceScope, dto: PostTextStatusDto): Promise<CreatedIdDto> {
    return this.post(scope, { kind: 'text', text: dto.text });
  }

  async postMedia(scope: InstanceScope, kind: 'image' | 'video', dto: PostImageStatusDto | PostVideoStatusDto): Promise<CreatedIdDto> {
    if (dto.url !== undefined) await this.urls.assertPublic('url', dto.url);
    return this.post(scope, {
      kind,
      media: dto.url !== undefined ? { url: dto.url } : { data: dto.data as string },
      ...(dto.mimeType !== undefined ? { mimeType: dto.mimeType } : {}),
      ...(dto.caption !== undefined && dto.caption !== '' ? { caption: dto.caption } : {}),
    });
  }

  async delete(scope: InstanceScope, messageId: string): Promise<void> {
    await this.commands.perform(scope.instanceId, 'status.delete', { id: messageId });
  }

  private async post(scope: InstanceScope, post: StatusPost): Promise<CreatedIdDto> {
    const id = newMessageId();
    await this.commands.perform(scope.instanceId, 'status.post', { id, post });
    return { id };
  }
}
