import { Injectable } from '@nestjs/common';
import { AppError, type MediaOperations } from '@app/contracts';
import { SandboxMediaFiles } from '../sandbox-media-files';
import type { OperationHandlers } from './operation-handlers';

/** Downloads from the simulated media servers: only files this account received can be fetched. */
@Injectable()
export class SandboxMediaOperations {
  constructor(private readonly files: SandboxMediaFiles) {}

  readonly handlers: OperationHandlers<MediaOperations> = {
    'media.download': async ({ instanceId }, { mediaId }) => {
      const file = await this.files.find(instanceId, mediaId);
      if (!file) throw new AppError('not_found');
      return file;
    },
  };
}
