import { Injectable } from '@nestjs/common';
import type { Prisma } from '../generated/prisma/client';
import { PrismaService } from '../prisma.service';

export interface SandboxOperationRecord {
  name: string;
  args: unknown;
  at: Date;
}

/**
 * The simulated network's journal of operations and its keyed documents: whatever the network keeps per instance
 * beyond devices, contacts, groups, chats, channels and messages (profile, privacy, blocklist, status posts, ...).
 */
@Injectable()
export class SandboxWorldRepository {
  constructor(private readonly prisma: PrismaService) {}

  async journal(instanceId: string, name: string, args: unknown): Promise<void> {
    await this.prisma.sandboxOperation.create({ data: { instanceId, name, args: args ?? {} } });
  }

  async operations(instanceId: string): Promise<SandboxOperationRecord[]> {
    const rows = await this.prisma.sandboxOperation.findMany({ where: { instanceId }, orderBy: { seq: 'asc' } });
    return rows.map(({ name, args, at }) => ({ name, args, at }));
  }

  async record<T>(instanceId: string, kind: string, key: string): Promise<T | undefined> {
    const row = await this.prisma.sandboxRecord.findUnique({ where: { instanceId_kind_key: { instanceId, kind, key } } });
    return row ? (row.data as T) : undefined;
  }

  /** Every record of a kind, oldest change first. */
  async records<T>(instanceId: string, kind: string): Promise<{ key: string; data: T }[]> {
    const rows = await this.prisma.sandboxRecord.findMany({ where: { instanceId, kind }, orderBy: [{ updatedAt: 'asc' }, { key: 'asc' }] });
    return rows.map((row) => ({ key: row.key, data: row.data as T }));
  }

  async putRecord(instanceId: string, kind: string, key: string, data: unknown): Promise<void> {
    const json = data as Prisma.InputJsonValue;
    await this.prisma.sandboxRecord.upsert({
      where: { instanceId_kind_key: { instanceId, kind, key } },
      create: { instanceId, kind, key, data: json },
      update: { data: json },
    });
  }

  /** Whether there was such a record. */
  async deleteRecord(instanceId: string, kind: string, key: string): Promise<boolean> {
    const { count } = await this.prisma.sandboxRecord.deleteMany({ where: { instanceId, kind, key } });
    return count > 0;
  }
}
