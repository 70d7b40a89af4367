import { createHash } from 'node:crypto';
import { Injectable } from '@nestjs/common';
import { AppError } from '@app/contracts';
import { SandboxWorldRepository } from '@app/database';

const KIND = 'media-file';
/** Size of the file a contact sends when the test names neither its bytes nor its length. */
const DEFAULT_FILE_LENGTH = 1024;
const BASE64 = /^(?:[A-Za-z0-9+/]{4})*(?:[A-Za-z0-9+/]{2}==|[A-Za-z0-9+/]{3}=)?$/;

/** A file the simulated network carried to this account, as its media servers keep it. */
export interface SandboxMediaFile {
  mimeType: string;
  /** The bytes, base64-encoded. */
  data: string;
  filename?: string;
}

/**
 * Stand-in bytes for a file a test did not supply: derived from the media id alone, so every download of the same
 * file answers the same bytes and a test can compute them.
 */
export function placeholderMediaBytes(mediaId: string, length: number): Buffer {
  const blocks: Buffer[] = [];
  let block = createHash('sha256').update(mediaId).digest();
  for (let size = 0; size < length; size += block.length) {
    blocks.push(block);
    block = createHash('sha256').update(block).digest();
  }
  return Buffer.concat(blocks).subarray(0, length);
}

/** The media servers of the simulated network: the bytes behind each `media.id` an instance received. */
@Injectable()
export class SandboxMediaFiles {
  constructor(private readonly world: SandboxWorldRepository) {}

  /** Keeps the file of an inbound media message; answers its size. `data` wins over `fileLength`, which must agree. */
  async keep(
    instanceId: string,
    mediaId: string,
    file: { mimeType: string; data?: string; fileLength?: number; filename?: string },
  ): Promise<number> {
    let bytes: Buffer;
    if (file.data !== undefined) {
      if (file.data === '' || !BASE64.test(file.data)) throw AppError.validation('media.data must be base64 (at least one byte)');
      bytes = Buffer.from(file.data, 'base64');
      if (file.fileLength !== undefined && file.fileLength !== bytes.length)
        throw AppError.validation(`media.fileLength must equal the size of media.data (${bytes.length} bytes)`);
    } else {
      bytes = placeholderMediaBytes(mediaId, file.fileLength ?? DEFAULT_FILE_LENGTH);
    }
    const stored: SandboxMediaFile = {
      mimeType: file.mimeType,
      data: bytes.toString('base64'),
      ...(file.filename ? { filename: file.filename } : {}),
    };
    await this.world.putRecord(instanceId, KIND, mediaId, stored);
    return bytes.length;
  }

  find(instanceId: string, mediaId: string): Promise<SandboxMediaFile | undefined> {
    return this.world.record<SandboxMediaFile>(instanceId, KIND, mediaId);
  }
}
