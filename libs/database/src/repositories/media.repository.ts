import { createHash, randomUUID } from 'node:crypto';
import { Injectable } from '@nestjs/common';
import { PrismaService } from '../prisma.service';

export interface StoredMedia {
  blobId: string;
  mimeType: string;
  size: number;
  sha256: string;
}

/** Inline media of accepted sends, held until the send is dispatched. */
@Injectable()
export class MediaRepository {
  constructor(private readonly prisma: PrismaService) {}

  async store(instanceId: string, mimeType: string, bytes: Buffer): Promise<StoredMedia> {
    const media = { blobId: `med_${randomUUID()}`, mimeType, size: bytes.length, sha256: createHash('sha256').update(bytes).digest('hex') };
    await this.prisma.mediaBlob.create({
      data: { id: media.blobId, instanceId, mimeType, size: media.size, sha256: media.sha256, bytes: new Uint8Array(bytes) },
    });
    return media;
  }

  async load(blobId: string): Promise<Buffer | null> {
    const row = await this.prisma.mediaBlob.findUnique({ where: { id: blobId }, select: { bytes: true } });
    return row ? Buffer.from(row.bytes) : null;
  }

  async delete(blobId: string): Promise<void> {
    await this.prisma.mediaBlob.deleteMany({ where: { id: blobId } });
  }
}
