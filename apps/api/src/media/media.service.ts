import { Injectable, StreamableFile } from '@nestjs/common';
import type { InstanceScope } from '@app/contracts';
import { CommandClient } from '@app/redis';

/** Fetches received files through the instance's session, which holds the keys to decrypt them. */
@Injectable()
export class MediaService {
  constructor(private readonly commands: CommandClient) {}

  async download(scope: InstanceScope, mediaId: string): Promise<StreamableFile> {
    const file = await this.commands.perform(scope.instanceId, 'media.download', { mediaId });
    const bytes = Buffer.from(file.data, 'base64');
    const name = file.filename ?? mediaId.slice(0, 16);
    return new StreamableFile(bytes, {
      type: file.mimeType,
      length: bytes.length,
      disposition: `attachment; filename="${name.replace(/[^\x20-\x7e]|["\\]/g, '_')}"; filename*=UTF-8''${encodeURIComponent(name)}`,
    });
  }
}
